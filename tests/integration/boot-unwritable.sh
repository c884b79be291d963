#!/bin/bash
# boot-unwritable: the drop-in directory cannot be written inside a private
# mount namespace. Read-only (a bind mount): refused before any change,
# exit 4, one line naming the drop-in. Full (a small tmpfs, found only by
# writing): the file item fails with the errno text, exit 4. Either way the
# old drop-in stays intact.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/fixtures/boot/lib.sh"

if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "1..0 # SKIP needs root and unshare -m"
	exit 0
fi

write_conf "$TEST_TMP/halo.conf" <<'CONF'
version = 1;
boot = { iommu = "pt"; pcie_aspm = "off"; };
CONF
OLD='# Managed by halo-provision; local changes will be overwritten.
GRUB_CMDLINE_LINUX_DEFAULT="$GRUB_CMDLINE_LINUX_DEFAULT iommu=pt"'

# in_ns ROOT SETUP: runs SETUP (mounts over ROOT/etc/default/grub.d), then
# the apply, in a private mount namespace; sets out, err, rc.
in_ns() {
	out=$(unshare -m bash -c '
		set -e
		D=$1/etc/default/grub.d
		eval "$2"
		set +e
		"$HALO" --root "$1" -c "$3" --json 2>"$4"
		rc=$?
		# What the namespace sees, for the checks outside it.
		cat "$D/zz-halo-provision.cfg" >"$4.after"
		ls -A "$D" >"$4.ls"
		exit $rc
	' _ "$1" "$2" "$TEST_TMP/halo.conf" "$TEST_TMP/stderr")
	rc=$?
	err=$(cat "$TEST_TMP/stderr")
}

check_failed() {	# check_failed ROOT ERRNO-TEXT WHAT
	local msg
	is "$rc" 4 "$3: exit 4"
	is "$(item_outcome "$out" file/etc/default/grub.d/zz-halo-provision.cfg)" failed "$3: drop-in item failed"
	msg=$(printf '%s' "$out" | jq -r '.items[] | select(.key == "file/etc/default/grub.d/zz-halo-provision.cfg") | .message')
	like "$msg" "$2" "$3: message carries the errno text ($msg)"
	is "$(cat "$TEST_TMP/stderr.after")" "$OLD" "$3: old drop-in intact"
	is "$(grep -v '^\.fill$' "$TEST_TMP/stderr.ls" | grep -c '^\.')" 0 "$3: no temp file left behind"
}

# The old drop-in was booted: nothing is pending, so the exit is exactly 4.
old_root() {
	local r
	r=$(boot_root debian "$1")
	printf '%s\n' "$OLD" >"$r/etc/default/grub.d/zz-halo-provision.cfg"
	reboot_into "$r" "ro console=tty1 console=ttyS0 iommu=pt"
	echo "$r"
}

R=$(old_root ro)
in_ns "$R" 'mount --bind "$D" "$D"; mount -o remount,ro,bind "$D" "$D"'
is "$rc" 4 "read-only directory: exit 4"
like "$err" "^halo-provision: ${R//./\\.}/etc/default/grub\\.d/zz-halo-provision\\.cfg cannot be written: Read-only file system; nothing was changed\$" \
	"read-only directory: refused before any change, naming the drop-in"
is "$(cat "$TEST_TMP/stderr.after")" "$OLD" "read-only directory: old drop-in intact"

R=$(old_root full)
in_ns "$R" 'cp -a "$D" "$1/saved.d"
	mount -t tmpfs -o size=12k tmpfs "$D"
	cp -a "$1/saved.d/." "$D/"
	dd if=/dev/zero of="$D/.fill" bs=1k count=64 2>/dev/null || true
	rm -rf "$1/saved.d"' 
check_failed "$R" "No space left on device" "full file system"

done_testing
