#!/bin/bash
# boot-gtt: GTT parameters on a sandbox root of a 128 GiB machine: the ROCm
# ceiling warning, amdttm. detection, "auto" with a large reserve, and an
# inconsistent existing amdgpu.gttsize taken out as drift.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/fixtures/boot/lib.sh"

R=$(boot_root debian warn)
write_conf "$TEST_TMP/w.conf" <<'CONF'
version = 1;
boot = { gtt_mib = 128000; };
CONF
run_halo --root "$R" -c "$TEST_TMP/w.conf" --dry-run --json
is "$rc" 10 "above the ROCm ceiling: a warning, not an error (10)"
like "$(printf '%s' "$out" | jq -r '.warnings[]')" \
	'^boot.gtt_mib 128000 MiB is above what ROCm can use \(MemTotal - MemTotal/64 - 1.5 GiB = 127488 MiB\)$' \
	"warning names both figures"

# amdgpu-dkms loaded: amdttm.pages_limit.
R=$(boot_root debian dkms)
mkdir -p "$R/sys/module/amdttm/parameters"
write_conf "$TEST_TMP/a.conf" <<'CONF'
version = 1;
boot = { gtt_mib = "auto"; reserve_mib = 16384; };
CONF
run_halo --root "$R" -c "$TEST_TMP/a.conf"
is "$rc" 10 "apply: 10"
got=$(grub_cmdline "$R")
# auto: 131072 - 16384 = 114688 MiB = 29360128 pages.
has_all "$got" amdttm.pages_limit=29360128
ok $? "amdttm. prefix with /sys/module/amdttm, auto honours a large reserve ($got)"
has_none "$got" ttm.pages_limit=29360128
ok $? "no ttm. parameter then"

# An existing amdgpu.gttsize that disagrees with the wanted size is drift
# and is taken out; one that agrees stays.
R=$(boot_root grub gttsize)
printf 'GRUB_CMDLINE_LINUX="quiet amdgpu.gttsize=4096"\n' >"$R/etc/default/grub"
write_conf "$TEST_TMP/g.conf" <<'CONF'
version = 1;
boot = { loader = "grub"; gtt_mib = 126976; gtt_params = "ttm"; };
CONF
run_halo --root "$R" -c "$TEST_TMP/g.conf" --check --json
is "$rc" 2 "check: drift (2)"
is "$(item_outcome "$out" boot/remove/amdgpu.gttsize=4096)" drift "the disagreeing gttsize is a drifting removal item"
run_halo --root "$R" -c "$TEST_TMP/g.conf"
is "$(bash -c '. "$1/etc/default/grub"; echo "$GRUB_CMDLINE_LINUX"' _ "$R")" \
	"quiet ttm.pages_limit=32505856" "apply took it out and added ttm.pages_limit"

printf 'GRUB_CMDLINE_LINUX="quiet amdgpu.gttsize=126976"\n' >"$R/etc/default/grub"
run_halo --root "$R" -c "$TEST_TMP/g.conf"
is "$(bash -c '. "$1/etc/default/grub"; echo "$GRUB_CMDLINE_LINUX"' _ "$R")" \
	"quiet amdgpu.gttsize=126976 ttm.pages_limit=32505856" "a consistent gttsize stays"

# A GTT key the wanted set manages is replaced in place, never taken out
# as a separate removal: an old ttm.pages_limit becomes the new value.
printf 'GRUB_CMDLINE_LINUX="quiet ttm.pages_limit=1000"\n' >"$R/etc/default/grub"
run_halo --root "$R" -c "$TEST_TMP/g.conf" --check --json
is "$rc" 2 "check: the old pages_limit is drift (2)"
is "$(jq -r '[.items[] | select(.key | startswith("boot/remove/"))] | length' <<<"$out")" 0 \
	"no removal item for a key the wanted set manages"
run_halo --root "$R" -c "$TEST_TMP/g.conf"
is "$(bash -c '. "$1/etc/default/grub"; echo "$GRUB_CMDLINE_LINUX"' _ "$R")" \
	"quiet ttm.pages_limit=32505856" "apply replaced the managed key's value"

# BLS: a stale gttsize in a boot entry that was never regenerated (grubby
# failed, an image build) keeps its removal on the next run, once the
# files no longer carry it.
R=$(boot_root fedora stale)
boot_image "$R"
sed -i 's/$/ amdgpu.gttsize=2000/' "$R/etc/kernel/cmdline"
sed -i 's/^options .*/& amdgpu.gttsize=2000/' "$R"/boot/loader/entries/*.conf
write_conf "$TEST_TMP/s.conf" <<<'version = 1; boot = { gtt_mib = 65536; };'
run_halo --root "$R" -c "$TEST_TMP/s.conf"
run_halo --root "$R" -c "$TEST_TMP/s.conf" --json
is "$(grep -c gttsize "$R/etc/kernel/cmdline")" 0 "/etc/kernel/cmdline no longer has it"
like "$(jq -r '.items[] | select(.key == "boot/regenerate") | .wanted' <<<"$out")" \
	'--remove-args=amdgpu\.gttsize=2000' "second run: grubby still removes it from the entries"
is "$(item_outcome "$out" boot/remove/amdgpu.gttsize=2000)" pending-reboot \
	"second run: the removal is pending, not forgotten"

done_testing
