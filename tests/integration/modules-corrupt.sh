#!/bin/bash
# Module files libkmod cannot read (truncated, not ELF, bad compression)
# and modules depmod left out of the index (.ko.gz with a kmod built
# without zlib, as Debian's is): one line naming the module and the file,
# exit 1, nothing loaded or written.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/integration/modules-lib.sh"

M="$FX/lib/modules/$REL"
mkfx
ice="$M/kernel/drivers/net/ethernet/intel/ice/ice.ko"
rdma_cm="$M/kernel/drivers/infiniband/core/rdma_cm.ko"
uverbs="$M/kernel/drivers/infiniband/core/ib_uverbs.ko"
amdgpu="$M/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko"
# Compressed modules, then the index; a depmod without zlib skips .ko.gz.
xz "$uverbs"
gzip "$amdgpu"
depmod -b "$FX" "$REL" 2>/dev/null
# Then the damage: a truncated ELF file, random bytes, a truncated .xz.
truncate -s 100 "$ice"
head -c 3000 /dev/urandom >"$rdma_cm"
head -c 60 "$uverbs.xz" >"$TEST_TMP/x" && cat "$TEST_TMP/x" >"$uverbs.xz"

write_conf "$CONF" <<'CONF'
version = 1;
modules = {
  load = [ "ice", "rdma_cm", "ib_uverbs", "amdgpu" ];
};
CONF
mkdir -p "$FX/run" && touch "$FX/run/halo-provision.lock"
before=$(tree_snapshot "$FX")
run_trap
is "$rc" 1 "unreadable modules: exit 1"
like "$err" "halo.conf:3: modules.load: module 'ice': cannot read its file $ice: Invalid argument \(not a valid module: corrupt or truncated\)" \
	"truncated module: names the module and the file"
like "$err" "module 'rdma_cm': cannot read its file $rdma_cm: Exec format error \(not a valid module" \
	"not an ELF file: names the module and the file"
like "$err" "module 'ib_uverbs': cannot read its file $uverbs.xz: .*\(corrupt or truncated, or this libkmod cannot decompress .xz" \
	"bad compression: names the module and the file"
like "$err" "modules.load: unknown module 'amdgpu': $amdgpu.gz is there but not in the module index: depmod skips .ko.gz modules when kmod is built without zlib" \
	".ko.gz that depmod skipped: said so"
is "$(printf '%s\n' "$err" | grep -c .)" 4 "one line each"
is "$(printf '%s\n' "$err" | grep -c 'modules: Exec format error')" 0 "no bare errno"
is "$(loads)" "" "nothing loaded"
is "$(tree_snapshot "$FX")" "$before" "nothing written"

# Options for an unreadable module: the same line, under modules.options.
write_conf "$CONF" <<'CONF'
version = 1;
modules = { options = { rdma_cm = "x=1"; }; };
CONF
run_trap --check
is "$rc" 1 "check: exit 1"
like "$err" "halo.conf:2: modules.options: module 'rdma_cm': cannot read its file $rdma_cm" \
	"options for an unreadable module"

# .ko.zst as Ubuntu ships them, cut short and with one byte changed (its
# checksum no longer matches). A run that may load them decompresses each
# whole first: libkmod's verdict names each file, one line each.
mkfx
mlx="$M/kernel/drivers/net/ethernet/mellanox/mlx5/core/mlx5_core.ko"
zstd -q --rm "$mlx" "$amdgpu"
depmod -b "$FX" "$REL"
head -c 200 "$mlx.zst" >"$TEST_TMP/x" && cat "$TEST_TMP/x" >"$mlx.zst"
b=$(od -An -tu1 -j300 -N1 "$amdgpu.zst")
printf "\\$(printf %03o $(((b + 1) % 256)))" | dd of="$amdgpu.zst" bs=1 seek=300 conv=notrunc status=none
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "mlx5_core", "amdgpu" ]; };
CONF
mkdir -p "$FX/run" && touch "$FX/run/halo-provision.lock"
before=$(tree_snapshot "$FX")
run_trap
is "$rc" 1 ".ko.zst cut short or damaged: exit 1"
like "$err" "module 'mlx5_core': cannot read its file $mlx.zst: .*\(corrupt or truncated" \
	".ko.zst cut short: names the module and the file"
like "$err" "module 'amdgpu': cannot read its file $amdgpu.zst: .*\(corrupt or truncated" \
	".ko.zst with a damaged byte: names the module and the file"
is "$(printf '%s\n' "$err" | grep -c .)" 2 ".ko.zst: one line each"
is "$(loads)" "" ".ko.zst: nothing loaded"
is "$(tree_snapshot "$FX")" "$before" ".ko.zst: nothing written"

# A check reads what it needs: a module it only expects loaded must be
# complete (a file cut short is refused without decompressing it), its
# data is decoded only for its parameters (options). A damaged byte in a
# module without options shows when modprobe loads it, as at boot.
run_trap --check
is "$rc" 1 "check, .ko.zst cut short: exit 1"
like "$err" "module 'mlx5_core': cannot read its file $mlx.zst: .*\(corrupt or truncated" \
	"check, .ko.zst cut short: names the module and the file"
is "$(printf '%s\n' "$err" | grep -c .)" 1 "check, .ko.zst damaged inside, no options: not decompressed"
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "amdgpu" ]; options = { amdgpu = "gttsize=1024"; }; };
CONF
run_trap --check
is "$rc" 1 "check, .ko.zst damaged inside, with options: exit 1"
like "$err" "modules.options: module 'amdgpu': cannot read its file $amdgpu.zst: .*\(corrupt or truncated" \
	"check, .ko.zst damaged inside, with options: names the module and the file"

# .ko.xz as Fedora ships them, cut short: the check refuses it unread.
mkfx
xz --check=crc32 --lzma2=dict=1MiB "$mlx"
depmod -b "$FX" "$REL"
head -c $(($(stat -c %s "$mlx.xz") - 1)) "$mlx.xz" >"$TEST_TMP/x" && cat "$TEST_TMP/x" >"$mlx.xz"
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "mlx5_core" ]; };
CONF
run_trap --check
is "$rc" 1 "check, .ko.xz cut short: exit 1"
like "$err" "module 'mlx5_core': cannot read its file $mlx.xz: .*\(corrupt or truncated" \
	"check, .ko.xz cut short: names the module and the file"

# A plain .ko that depmod was not re-run for.
mkfx
cp "$M/kernel/drivers/infiniband/core/rdma_cm.ko" "$M/kernel/newdrv.ko"
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "newdrv" ]; };
CONF
run_trap --check
is "$rc" 1 "module not in the index: exit 1"
like "$err" "unknown module 'newdrv': $M/kernel/newdrv.ko is there but not in the module index: run depmod$" \
	"depmod not re-run: said so"

done_testing
