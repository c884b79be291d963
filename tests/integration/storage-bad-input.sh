#!/bin/bash
# The model store's bad inputs: every one is exit 1 with a one-line
# error naming file:line, and nothing changed in the root, in apply,
# --check and --dry-run alike: a file system type that does not match the
# image (real xfs and ext4 images), a device with no file system, a mount
# point that is not absolute, escapes or hides the system, options that
# could inject a line or make no sense for the store.
source "$top_srcdir/tests/integration/storage-lib.sh"

XFS=$(make_image xfs models) || { echo "1..0 # SKIP mkfs.xfs failed"; exit 0; }
cache_add "$XFS"
EXT=$(make_image ext4 data)
cache_add "$EXT"
mkdir -p "$ROOT/dev"
truncate -s 4M "$ROOT/dev/blank"

# refuses ENTRY REGEX WHAT: exit 1, the message, nothing changed (each
# mode).
refuses() {
	local snap mode
	storage_conf "$1"
	snap=$(tree_snapshot "$ROOT")
	for mode in "" --check --dry-run; do
		halo $mode
		is "$rc" 1 "$3${mode:+ ($mode)}: exit 1"
		like "$err" "$2" "$3${mode:+ ($mode)}: the error"
		is "$(printf '%s\n' "$err" | wc -l)" 1 "$3${mode:+ ($mode)}: one line"
	done
	is "$(tree_snapshot "$ROOT")" "$snap" "$3: nothing changed"
}

refuses '{ what = "LABEL=models"; where = "/models"; type = "ext4"; }' \
	"halo\.conf:3: storage\[0\]: LABEL=models \($XFS\) is xfs, not ext4" \
	"xfs image, type ext4"
refuses '{ what = "LABEL=data"; where = "/models"; type = "xfs"; }' \
	"halo\.conf:3: storage\[0\]: LABEL=data \($EXT\) is ext4, not xfs" \
	"ext4 image, type xfs"
refuses '{ what = "/dev/blank"; where = "/models"; type = "xfs"; }' \
	'halo\.conf:3: storage\[0\]: /dev/blank \(/dev/blank\) has no file system \(want xfs\)' \
	"a device with no file system"
refuses '{ what = "LABEL=models"; where = "models"; }' \
	'storage\[0\]\.where.*not an absolute path' "a relative mount point"
refuses '{ what = "LABEL=models"; where = "/models/../etc"; }' \
	'storage\[0\]\.where.*\.\.' "a mount point that escapes (..)"
refuses '{ what = "LABEL=models"; where = "/"; }' \
	'storage\[0\]\.where.*root directory' "the root as mount point"
refuses '{ what = "LABEL=models"; where = "/usr"; }' \
	'storage\[0\]\.where.*system directory' "a system directory"
refuses '{ what = "LABEL=models"; where = "/models "; }' \
	'storage\[0\]\.where.*trailing whitespace' "a trailing space (systemd trims it)"
refuses '{ what = "LABEL=models"; where = "/mod\\\\els"; }' \
	'storage\[0\]\.where.*backslash' "a backslash in the mount point"
refuses '{ what = "LABEL=models"; where = "/models"; options = "noatime nodiratime"; }' \
	'storage\[0\]\.options.*whitespace' "options with a space"
refuses '{ what = "LABEL=models"; where = "/models"; options = "noatime\nExecStartPre=/bin/true"; }' \
	'storage\[0\]\.options.*control character' "options with a newline (line injection)"
refuses '{ what = "LABEL=models"; where = "/models"; options = "bind"; }' \
	'storage\[0\]\.options.*bind mount' "a bind mount"
refuses '{ what = "LABEL=models"; where = "/models"; options = "nofail,x-systemd.automount"; }' \
	'storage\[0\]\.options.*x-systemd' "fstab-only options"
refuses '{ what = "LABEL=models"; where = "/models"; options = "noatime,,ro"; }' \
	'storage\[0\]\.options.*empty option' "an empty option"
refuses '{ what = "models"; where = "/models"; }' \
	'storage\[0\]\.what.*not LABEL=' "what that is no device spec"
refuses '{ what = "LABEL=models"; where = "/models"; },
  { what = "LABEL=data"; where = "/models"; }' \
	'storage\[1\]\.where: /models is already mounted by storage\[0\]' "one mount point twice"

# A FIFO is never probed (it could block): as the device of a cache entry
# (a name inside the root, not the host's) or as a /dev path in the root.
# Each run under timeout 10: a hang fails as exit 124.
mkfifo "$ROOT/dev/fifo"
printf '<device DEVNO="0x0000" TIME="1700000000.1" LABEL="piped" UUID="0badbad0-0000-4000-8000-00000000f1f0" TYPE="xfs">/dev/fifo</device>\n' \
	>>"$ROOT/run/blkid/blkid.tab"
REAL_HALO=$HALO
printf '#!/bin/sh\nexec timeout 10 "%s" "$@"\n' "$REAL_HALO" >"$TEST_TMP/halo-timeout"
chmod +x "$TEST_TMP/halo-timeout"
HALO=$TEST_TMP/halo-timeout
refuses '{ what = "LABEL=piped"; where = "/models"; type = "xfs"; }' \
	'halo\.conf:3: storage\[0\]: LABEL=piped names neither a block device nor a file system image' \
	"a cache entry naming a FIFO in the root"
refuses '{ what = "/dev/fifo"; where = "/models"; type = "xfs"; }' \
	'halo\.conf:3: storage\[0\]: /dev/fifo names neither a block device nor a file system image' \
	"a /dev path that is a FIFO in the root"
HALO=$REAL_HALO

# --revert when the device lost its file system since the apply: the
# unit still goes (a revert does not look at the device).
make_image ext4 disk1 /dev/disk1 >/dev/null
storage_conf '{ what = "/dev/disk1"; where = "/models"; type = "ext4"; }'
halo
is "$rc" 2 "an ext4 store in the root: the unit is written"
test -e "$ROOT/etc/systemd/system/models.mount"
ok $? "... models.mount"
dd if=/dev/zero of="$ROOT/dev/disk1" bs=1M count=2 conv=notrunc status=none
halo --check
is "$rc" 1 "the device wiped: an apply's checks refuse it"
halo --revert
is "$rc" 2 "--revert with the device wiped: exit 2 (removed)"
is "$err" "" "... no error"
test ! -e "$ROOT/etc/systemd/system/models.mount"
ok $? "... the unit is removed"

done_testing
