#!/bin/bash
# boot-bad-input: every host-side bad input of the boot subsystem is a
# one-line error, exit 1, and nothing in the tree changes.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/fixtures/boot/lib.sh"

write_conf "$TEST_TMP/halo.conf" <<'CONF'
version = 1;
boot = { iommu = "pt"; gtt_mib = 126976; };
CONF

# The snapshot without the run lock: main.c takes /run/halo-provision.lock
# before validating (an empty lock file, not a change of the host's config).
snapshot() {
	tree_snapshot "$1" | grep -v '\./run/halo-provision\.lock$'
}

# refuses ROOT REGEX DESCRIPTION [CONF]: apply must exit 1 with exactly one
# stderr line matching REGEX and leave the tree as it was.
refuses() {
	local root=$1 re=$2 what=$3 conf=${4:-$TEST_TMP/halo.conf} before
	before=$(snapshot "$root")
	run_halo --root "$root" -c "$conf"
	is "$rc" 1 "$what: exit 1"
	is "$(printf '%s\n' "$err" | wc -l)" 1 "$what: one line"
	like "$err" "$re" "$what: says why"
	is "$(snapshot "$root")" "$before" "$what: nothing changed"
}

plain_grub() {	# plain_grub NAME CONTENT
	local r
	r=$(boot_root grub "$1")
	printf '%b' "$2" >"$r/etc/default/grub"
	echo "$r"
}

R=$(plain_grub q 'GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX="quiet\nGRUB_TIMEOUT=5\n')
refuses "$R" '/etc/default/grub:2: unterminated quote$' "unterminated quote"

R=$(plain_grub twice 'GRUB_CMDLINE_LINUX="quiet"\n# again\nGRUB_CMDLINE_LINUX="splash"\n')
refuses "$R" '/etc/default/grub:3: GRUB_CMDLINE_LINUX assigned twice \(first at line 1\)' "assigned twice"

R=$(plain_grub cont 'GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX="quiet \\\n  splash"\n')
refuses "$R" '/etc/default/grub:2: GRUB_CMDLINE_LINUX spans lines \(backslash line continuation\)' "line continuation"

# loader "grub" that must edit a variable a grub.d drop-in replaces
# afterwards (cloud images): the edit would be undone, so it is refused up
# front (boot-cloudimg.sh: an edit of the other variable is accepted).
R=$(boot_root debian override)
write_conf "$TEST_TMP/grub-loader.conf" <<<'version = 1; boot = { loader = "grub"; iommu = "pt"; remove = [ "console=ttyS0" ]; };'
refuses "$R" '/etc/default/grub.d/50-cloudimg-settings.cfg:11: assigns GRUB_CMDLINE_LINUX_DEFAULT after /etc/default/grub' \
	"loader grub under a replacing grub.d drop-in" "$TEST_TMP/grub-loader.conf"

# A symlink at the drop-in's path, pointing outside the root.
R=$(boot_root debian link)
echo "outside" >"$TEST_TMP/outside.cfg"
ln -s "$TEST_TMP/outside.cfg" "$R/etc/default/grub.d/zz-halo-provision.cfg"
refuses "$R" 'zz-halo-provision.cfg: is a symlink; refusing to manage it' "symlink at the managed path"
is "$(cat "$TEST_TMP/outside.cfg")" "outside" "symlink target outside the root untouched"

# The drop-in directory itself a symlink out of the root.
R=$(boot_root debian linkdir)
mkdir -p "$TEST_TMP/outdir"
rm -r "$R/etc/default/grub.d"
ln -s "$TEST_TMP/outdir" "$R/etc/default/grub.d"
refuses "$R" 'refusing to write through a symlink: .*/etc/default/grub.d$' "symlinked drop-in directory"
is "$(ls -A "$TEST_TMP/outdir")" "" "nothing written outside the root"

R=$(boot_root debian nomem)
rm "$R/proc/meminfo"
refuses "$R" '/proc/meminfo: missing \(needed for boot.gtt_mib\)' "missing /proc/meminfo"

R=$(boot_root debian badmem)
echo "garbage" >"$R/proc/meminfo"
refuses "$R" '/proc/meminfo: no MemTotal' "unparseable /proc/meminfo"

R=$(boot_root debian big)
write_conf "$TEST_TMP/big.conf" <<'CONF'
version = 1;
boot = { gtt_mib = 130000; reserve_mib = 2048; };
CONF
refuses "$R" 'big.conf:2: boot.gtt_mib 130000 MiB does not fit MemTotal 131072 MiB minus reserve_mib 2048 MiB \(at most 129024 MiB\)' \
	"GTT larger than RAM minus reserve" "$TEST_TMP/big.conf"
# Found against the host in two steps (boot before the host's links and
# files), reported at once all the same.
printf 'root:x:0:\n' >"$R/etc/group"
write_conf "$TEST_TMP/two.conf" <<'CONF'
version = 1;
boot = { gtt_mib = 130000; reserve_mib = 2048; };
access = { rdma_group = "nosuch"; };
CONF
before=$(snapshot "$R")
run_halo --root "$R" -c "$TEST_TMP/two.conf"
is "$rc" 1 "a boot and an access error: exit 1"
like "$err" 'two\.conf:2: boot\.gtt_mib 130000 MiB does not fit' "... the boot one said"
like "$err" 'two\.conf:3: access\.rdma_group: group "nosuch" is not in .*/etc/group' "... and the access one"
is "$(printf '%s\n' "$err" | wc -l)" 2 "... one line each"
is "$(snapshot "$R")" "$before" "... nothing changed"

R=$(boot_root debian amdiommu)
write_conf "$TEST_TMP/amd.conf" <<'CONF'
version = 1;
boot = { extra = [ "amd_iommu=pt" ]; };
CONF
refuses "$R" 'amd.conf:2: boot.extra: amd_iommu=pt is not a kernel option' "amd_iommu=pt" "$TEST_TMP/amd.conf"
# The kernel reads '-' in a name as '_': the same mistake spelled so.
R=$(boot_root debian amdiommu-dash)
write_conf "$TEST_TMP/amd-dash.conf" <<'CONF'
version = 1;
boot = { extra = [ "quiet",
  "amd-iommu=pt" ]; };
CONF
refuses "$R" 'amd-dash.conf:3: boot.extra: amd_iommu=pt is not a kernel option' "amd-iommu=pt" "$TEST_TMP/amd-dash.conf"

# root=UUID= that nothing in the root's libblkid cache resolves.
R=$(boot_root fedora noroot)
boot_image "$R"
sed -i "s/$ROOT_UUID/0badbad0-0000-4000-8000-000000000000/" "$R/etc/kernel/cmdline"
refuses "$R" '/etc/kernel/cmdline: root=UUID=0badbad0-0000-4000-8000-000000000000 does not resolve to a block device' \
	"unresolvable root=UUID="

# A stale cache entry: the image now has another UUID (libblkid re-probes).
R=$(boot_root fedora stale)
boot_image "$R"
img=$(sed 's/.*>\(.*\)<.*/\1/' "$R/run/blkid/blkid.tab")
tune2fs -q -U random "$R$img" 2>/dev/null || mkfs.ext4 -q -F "$R$img"
refuses "$R" "root=UUID=$ROOT_UUID does not resolve" "stale libblkid cache entry"

# A libblkid that cannot be opened: root= cannot be checked, so nothing is.
R=$(boot_root fedora nolib)
boot_image "$R"
mkdir -p "$TEST_TMP/lib"
echo "not a shared object" >"$TEST_TMP/lib/libblkid.so.1"
LD_LIBRARY_PATH=$TEST_TMP/lib refuses "$R" \
	"/etc/kernel/cmdline: resolving root=UUID=$ROOT_UUID: [^ ]*/libblkid\.so\.1: (file too short|invalid ELF header)\$" \
	"a broken libblkid"

# A cache entry naming a host file outside the root (a real ext4 image
# whose UUID the kernel line names): under --root only the root's files
# are read, so it is not probed and root=UUID= does not resolve.
R=$(boot_root fedora hostimg)
boot_image "$R"
host_img=$TEST_TMP/host-rootfs.img
truncate -s 8M "$host_img"
mkfs.ext4 -q -F -L haloroot "$host_img"
host_uuid=$(blkid -p -s UUID -o value "$host_img")
printf '<device DEVNO="0x0000" TIME="1700000000.1" LABEL="haloroot" UUID="%s" TYPE="ext4">%s</device>\n' \
	"$host_uuid" "$host_img" >>"$R/run/blkid/blkid.tab"
sed -i "s/$ROOT_UUID/$host_uuid/" "$R/etc/kernel/cmdline"
refuses "$R" "/etc/kernel/cmdline: root=UUID=$host_uuid does not resolve to a block device" \
	"a cache entry naming a host image outside the root"

# A BLS entry that cannot be read (a FIFO) while /etc/kernel/cmdline is
# still to be made from it: the error names the entry.
R=$(boot_root fedora blsfifo)
rm -f "$R/etc/kernel/cmdline"
entry=$(cd "$R" && ls boot/loader/entries/*.conf | head -1)
rm -f "$R/$entry"
mkfifo "$R/$entry"
refuses "$R" "/$entry: a FIFO, not a regular file \\(the default boot entry" "an unreadable BLS entry"

done_testing
