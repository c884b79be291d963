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

done_testing
