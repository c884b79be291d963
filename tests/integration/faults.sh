#!/bin/bash
# faults.sh: ENOSPC, EROFS and EACCES on every output directory of an
# apply (the fault harness). The reference root of
# tests/lib/confine.sh is converged, every output then edited ("old"
# content, a comment line more), and for each directory holding an output
# in turn:
#  - ENOSPC: a tmpfs with no free inode mounted over it (its files copied
#    in), so no temp file can be made;
#  - EROFS: a read-only bind mount of itself;
#  - EACCES: mode 0555 and the run without CAP_DAC_OVERRIDE (setpriv
#    drops it from the bounding set: root then obeys the mode bits).
# Each: the files there stay old byte for byte, no temp file is left, the
# exit status has bit 4 (a failed item) or is 1 when the run lock itself
# cannot be taken (/run read-only), the output names the path and the
# reason in one line; the fault lifted, a rerun converges.
# The mounts need a mount namespace of our own: the test re-executes
# itself in one (private propagation, nothing leaks to the host).
if [ -z "${HALO_FAULTS_MNTNS:-}" ] && unshare --mount --propagation private true 2>/dev/null; then
	export HALO_FAULTS_MNTNS=1
	exec unshare --mount --propagation private "${BASH:-bash}" "$0" "$@"
fi
source "${top_srcdir:?}/tests/lib/tap.sh" || exit 1
source "$top_srcdir/tests/lib/confine.sh" || exit 1

if [ -z "${HALO_FAULTS_MNTNS:-}" ] || ! command -v setpriv >/dev/null; then
	echo "1..0 # SKIP needs a private mount namespace and setpriv"
	exit 0
fi
faults_cleanup() {
	awk -v t="$TEST_TMP" 'index($5, t) == 1 { print $5 }' /proc/self/mountinfo |
		sort -r | xargs -r -n1 umount -l 2>/dev/null
	tap_cleanup
}
trap faults_cleanup EXIT
NS=$(new_netns faults) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
confine_netns "$NS"

want_root=$TEST_TMP/want
confine_make_root "$want_root"
run_halo --root "$want_root" --netns "$NS" --kernel-release "$CONFINE_KR" -q
is "$rc" 10 "the reference apply converges (changed, reboot pending)"
want=$(confine_managed "$want_root")

# The old root: converged, then every file it owns whole a line longer,
# /etc/default/grub as it was before (GRUB_CMDLINE_LINUX is edited in
# place, so the comment would stay), its edit record and the reboot flags
# gone: every output directory has something to write.
old=$TEST_TMP/old
cp -a "$want_root" "$old"
outputs=$(cd "$old" && find etc var -type f ! -name halo.conf \
	! -name group ! -name grub ! -name '*.json' ! -name cmdline-edits | sort)
for f in $outputs; do
	printf '# old\n' >>"$old/$f"
done
printf 'GRUB_CMDLINE_LINUX_DEFAULT="quiet"\n' >"$old/etc/default/grub"
rm -f "$old/var/lib/halo-provision/cmdline-edits" "$old"/run/reboot-required*
dirs=$(for f in $outputs etc/default/grub var/lib/halo-provision/state.json run/reboot-required; do
	dirname "/$f"; done | sort -u | grep -v '^/proc\|^/sys')
diag "output directories: $(echo $dirs)"

# fault KIND DIR ROOT: puts the fault on ROOT/DIR.
fault() {
	local d=$2$1
	case $3 in
	ENOSPC)
		local n
		cp -a "$d" "$TEST_TMP/save"
		n=$(find "$d" -mindepth 1 | wc -l)
		mount -t tmpfs -o "size=4m,nr_inodes=$((n + 1)),mode=0755" tmpfs "$d" &&
			cp -a "$TEST_TMP/save/." "$d/"
		rm -rf "${TEST_TMP:?}/save"
		;;
	EROFS) mount --bind "$d" "$d" && mount -o remount,bind,ro "$d" ;;
	EACCES) chmod 0555 "$d" ;;
	esac
}
unfault() {
	local d=$2$1
	case $3 in
	ENOSPC)
		cp -a "$d" "$TEST_TMP/save" && umount "$d" && rm -rf "$d" && mv "$TEST_TMP/save" "$d"
		;;
	EROFS) umount "$d" ;;
	EACCES) chmod 0755 "$d" ;;
	esac
}
reason() {
	case $1 in
	ENOSPC) echo 'No space left on device' ;;
	EROFS) echo 'Read-only file system' ;;
	EACCES) echo 'Permission denied' ;;
	esac
}
dir_sum() { (cd "$1" && find . -maxdepth 1 -type f ! -name halo-provision.lock -print0 | sort -z | xargs -0 -r sha256sum); }

for kind in ${FAULTS_KINDS:-ENOSPC EROFS EACCES}; do
	for dir in ${FAULTS_DIRS:-$dirs}; do
		root=${TEST_TMP:?}/r
		rm -rf "${root:?}"
		cp -a "$old" "$root"
		before=$(dir_sum "$root$dir")
		fault "$dir" "$root" "$kind"
		pre=()
		[ "$kind" = EACCES ] && pre=(setpriv --bounding-set -dac_override,-dac_read_search)
		out=$(timeout -k 2 20 "${pre[@]}" "$HALO" --root "$root" --netns "$NS" \
			--kernel-release "$CONFINE_KR" -q 2>&1)
		rc=$?
		if [ "$rc" = 1 ]; then
			like "$out" "lock.*$(reason "$kind")|$(reason "$kind").*lock" \
				"$kind on $dir: exit 1, the run lock cannot be taken, said so"
		else
			is "$((rc & 4))" 4 "$kind on $dir: exit $rc has bit 4 (a failed item)"
			named=$(grep -F "$dir/" <<<"$out" | grep -F "$(reason "$kind")" | head -1)
			desc="$kind on $dir: a line names a file in $dir and '$(reason "$kind")'"
			ok "$([ -n "$named" ]; echo $?)" "$desc"
			[ "$(grep -cF "$dir/" <<<"$out")" -ge 1 ] || diag "$out"
		fi
		is "$(dir_sum "$root$dir")" "$before" "$kind on $dir: the old files intact byte for byte"
		is "$(find "$root$dir" -name ".#*")" "" \
			"$kind on $dir: no temp file left"
		unfault "$dir" "$root" "$kind"
		run_halo --root "$root" --netns "$NS" --kernel-release "$CONFINE_KR" -q --wait 0
		ok "$([ "$rc" != 1 ] && [ $((rc & 4)) = 0 ] && [ "$(confine_managed "$root")" = "$want" ]; echo $?)" \
			"$kind on $dir: lifted, a rerun converges (exit $rc)"
		[ "$(confine_managed "$root")" = "$want" ] ||
			diag "$(diff <(confine_managed "$root") <(echo "$want") | grep '^[<>]' | head -4)"
	done
done
done_testing
