#!/bin/bash
# bench/noop.sh [RUNS]: on the Debian sandbox node (sandbox/mkroot.sh),
# converged and "rebooted", the cost of a full --check and of a no-op
# apply: median wall time over RUNS runs, peak RSS, and the number of files
# a no-op apply writes (from its own counter and from an independent
# inode/mtime snapshot). Needs a built tree: HALO=build/halo-provision.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
HALO=${HALO:-$top/build/halo-provision}
runs=${1:-50}
source "$here/lib.sh"

box=$(mktemp -d /tmp/halo-bench.XXXXXX)
trap 'rm -rf "$box"' EXIT
R=$box/root
"$top/sandbox/mkroot.sh" debian "$R"
sed -e '/^interfaces/,/^);/d' "$top/sandbox/debian.conf" |
	install -m 0600 /dev/stdin "$R/etc/halo-provision/halo.conf"

"$HALO" --root "$R" -q >/dev/null || true
"$top/sandbox/reboot.sh" "$R"
"$HALO" --root "$R" -q >/dev/null || { echo "bench: sandbox did not converge" >&2; exit 1; }

# The run lock is left out: every run that holds it writes its holder
# record into it.
snap() { (cd "$R" && find . -path ./proc -prune -o -path ./run/halo-provision.lock -prune -o \
	-type f -print0 | sort -z | xargs -0 stat -c '%i %.9Y %n'); }
before=$(snap)
written=$("$HALO" --root "$R" --json | jq '.stats.files_written')
after=$(snap)
changed_files=$(diff <(echo "$before") <(echo "$after") | grep -c '^>' || true)

echo "halo-provision benchmark: no-op runs on the converged Debian sandbox ($runs runs each)"
printf '%-34s %10s ms\n' "--check, median wall time" "$(median_ms "$runs" "$HALO" --root "$R" --check)"
printf '%-34s %10s ms\n' "no-op apply, median wall time" "$(median_ms "$runs" "$HALO" --root "$R")"
printf '%-34s %10s KiB\n' "--check, peak RSS" "$(peak_rss_kib "$HALO" --root "$R" --check)"
printf '%-34s %10s KiB\n' "no-op apply, peak RSS" "$(peak_rss_kib "$HALO" --root "$R")"
printf '%-34s %10s\n' "files written by a no-op apply" "$written (counter), $changed_files (snapshot)"
