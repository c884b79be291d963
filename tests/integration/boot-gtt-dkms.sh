#!/bin/bash
# boot-gtt-dkms: gtt_params = "auto" picks the GTT prefix from the amdgpu
# module file the kernel would load (updates/dkms: amdgpu-dkms, amdttm.;
# the in-tree one: ttm.). The answer comes from the modules part, found
# once per run by main before planning (ctx->amdgpu_dkms), with or
# without a modules section, and never overrides an explicit gtt_params.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/fixtures/boot/lib.sh"
source "$top_srcdir/tests/integration/modules-lib.sh"

# wanted_gtt: the GTT tokens of the boot items of the --json report in $out.
wanted_gtt() {
	printf '%s' "$out" |
		jq -r '.items[] | select(.key | startswith("boot/param/")) | .wanted' |
		grep -E 'pages_limit' | paste -sd' ' -
}

# A 128 GiB debian root (boot fixture) over a module tree.
mkroot() {
	mkfx "$@"
	cp -R "$top_srcdir/tests/fixtures/boot/debian/." "$FX/"
	chmod -R u=rwX,go=rX "$FX"
}

# 4096 MiB = 1048576 pages.
mkroot dkms
write_conf "$CONF" <<'CONF'
version = 1;
boot = { gtt_mib = 4096; };
CONF
run_trap --dry-run --json
is "$rc" 10 "dkms tree, boot only: dry-run 10"
is "$(wanted_gtt)" "amdttm.pages_limit=1048576" "updates/dkms/amdgpu.ko: amdttm. prefix"
ok "$([ ! -e "$FX/sys/module/amdttm" ]; echo $?)" "amdttm not loaded: the module file decided"

write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "amdgpu" ]; };
boot = { gtt_mib = 4096; };
CONF
run_trap --dry-run --json
is "$(wanted_gtt)" "amdttm.pages_limit=1048576" "with a modules section too"
run_trap --dry-run --json --only boot
is "$(wanted_gtt)" "amdttm.pages_limit=1048576" "and with --only boot"

write_conf "$CONF" <<'CONF'
version = 1;
boot = { gtt_mib = 4096; gtt_params = "ttm"; };
CONF
run_trap --dry-run --json
is "$(wanted_gtt)" "ttm.pages_limit=1048576" "gtt_params = \"ttm\" wins over the detection"

# The in-tree amdgpu: ttm.
mkroot
write_conf "$CONF" <<'CONF'
version = 1;
boot = { gtt_mib = 4096; };
CONF
run_trap --dry-run --json
is "$rc" 10 "in-tree tree: dry-run 10"
is "$(wanted_gtt)" "ttm.pages_limit=1048576" "kernel/drivers amdgpu.ko: ttm. prefix"

# No module tree for the kernel at all: in-tree assumed.
rm -rf "$FX/lib/modules"
run_trap --dry-run --json
is "$(wanted_gtt)" "ttm.pages_limit=1048576" "no module tree: ttm. prefix"

done_testing
