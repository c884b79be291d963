#!/bin/bash
# bench/confinement.sh [MODE...]: the root-confinement harness in full (make
# check runs a sample: tests/integration/confinement.sh). Lists every path
# an apply and a --check read or write on the reference root
# (tests/lib/confine.sh), then plants at each one in turn a symlink to a
# file and to a directory outside the root (absolute and relative), and at
# each path it reads a FIFO, a character device and a 2 GiB sparse file;
# every trial is an apply (and, with MODE --check, a check too). Prints the
# counts per plant; exits 1 if a trial broke an invariant (listed). Needs
# root, a built tree (HALO=build/halo-provision), strace and ip.
# A part of the run: CONFINE_MATCH=REGEX keeps the paths it matches (grep
# -E), CONFINE_FIRST=N the first N of those (in path order).
set -uo pipefail
if [ -z "${HALO_CONFINE_NETNS:-}" ]; then
	export HALO_CONFINE_NETNS=1
	exec unshare --net "$BASH" "$0" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
HALO=$(realpath "${HALO:-$top/build/halo-provision}")
export HALO
modes=("${@:-apply}")
source "$top/tests/lib/confine.sh"

box=$(mktemp -d /tmp/halo-confine.XXXXXX)
NS=halo-confine-$$
trap 'ip netns del "$NS" 2>/dev/null; rm -rf "$box"' EXIT
export TMPDIR=$box
ip netns add "$NS" && confine_netns "$NS" || { echo "bench: no network namespace" >&2; exit 1; }

confine_make_root "$box/old"
cp -a "$box/old" "$box/new"
"$HALO" --root "$box/new" --netns "$NS" --kernel-release "$CONFINE_KR" -q >/dev/null
[ $? = 10 ] || { echo "bench: the reference apply did not converge" >&2; exit 1; }
want=$(confine_managed "$box/new")

cp -a "$box/old" "$box/t"
confine_run "$NS" "$box/t" "$box/apply.trace"
confine_run "$NS" "$box/t" "$box/check.trace" --check
{ confine_paths "$box/apply.trace" "$box/t"; confine_paths "$box/check.trace" "$box/t"; } |
	sort -k2 -k1,1r | sort -u -k2,2 | { grep -E -- "${CONFINE_MATCH:-.}" || true; } |
	head -n "${CONFINE_FIRST:-1000000}" >"$box/paths"
echo "paths: $(wc -l <"$box/paths") ($(cut -d' ' -f1 "$box/paths" | sort | uniq -c | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2}'))"
echo "  (w written, r read, l looked up, d a directory on the way)"

trials=0 bad=0 t0=$(date +%s)
declare -A per=() harmless=()
while read -r kind path; do
	plants=(abs-file rel-file abs-dir rel-dir)
	[ "$kind" = r ] && plants+=(fifo device huge)
	for plant in "${plants[@]}"; do
		for mode in "${modes[@]}"; do
			args=()
			[ "$mode" = apply ] || args=("$mode")
			trials=$((trials + 1))
			per[$plant]=$((${per[$plant]:-0} + 1))
			if ! confine_trial "$NS" "$box/old" "$want" "$path" "$plant" "${args[@]}"; then
				bad=$((bad + 1))
			elif [ "$CONFINE_VERDICT" = harmless ]; then
				harmless[$plant]=$((${harmless[$plant]:-0} + 1))
			fi
		done
	done
done <"$box/paths"
for plant in abs-file rel-file abs-dir rel-dir fifo device huge; do
	printf '%-9s %5d trials, %5d refused with a named error, %5d harmless (followed inside the root)\n' \
		"$plant" "${per[$plant]:-0}" $((${per[$plant]:-0} - ${harmless[$plant]:-0})) "${harmless[$plant]:-0}"
done
echo "confinement: $trials trials, $bad broken, $(($(date +%s) - t0)) s"
[ "$bad" = 0 ]
