#!/bin/bash
# The node_exporter textfile a real run writes, checked by Prometheus' own
# promtool (format and lint): every series, the mode only on
# halo_last_run_info, unsupported-but-not-required in sync, warnings
# counted; a converged apply rewrites it without counting it as a file
# written; a run that ends with exit 1 leaves the previous file alone.
source "${top_srcdir:?}/tests/lib/tap.sh" || exit 1
source "$top_srcdir/tests/fixtures/boot/lib.sh" || exit 1

PROMTOOL=/usr/bin/promtool
if [ ! -x "$PROMTOOL" ]; then
	echo "Bail out! $PROMTOOL missing: install prometheus"
	exit 1
fi

# promtool_ok FILE DESCRIPTION: promtool parses FILE and lints it clean.
promtool_ok() {
	local msg
	msg=$("$PROMTOOL" check metrics <"$1" 2>&1)
	ok "$([ $? -eq 0 ] && [ -z "$msg" ]; echo $?)" "$2: promtool check metrics"
	[ -z "$msg" ] || diag "$msg"
}

# series FILE: the sample lines, without the value of the timestamp.
series() {
	grep -v '^#' "$1" | sed 's/^halo_last_run_timestamp_seconds .*/halo_last_run_timestamp_seconds T/'
}

R=$(boot_root debian root)
CONF=$R/etc/halo-provision/halo.conf
PROM=$R/var/lib/prometheus/node-exporter/halo-provision.prom
mkdir -p "$R/etc/halo-provision"
# Two warnings: gtt_mib above ROCm's ceiling for the fixture's 128 GiB,
# and a firewall section without interfaces (nothing to write). No
# amdgpu card: boot/gtt is unsupported (not required).
write_conf "$CONF" <<'CONF'
version = 1;
boot = { loader = "auto"; iommu = "pt"; gtt_mib = 129000; };
firewall = { allow_udp = [ 4791 ]; };
state = { prometheus = "/var/lib/prometheus/node-exporter/halo-provision.prom"; };
CONF
version=$("$HALO" --version | cut -d' ' -f2)

# check before any apply: drift.
run_halo --root "$R" --check
is "$rc" 2 "check before apply: exit 2 (drift)"
ok "$([ -f "$PROM" ]; echo $?)" "check wrote the textfile"
promtool_ok "$PROM" "check's textfile"
cp "$PROM" "$TEST_TMP/check.prom"
text=$(cat "$PROM")
like "$text" "(^|$'\n')halo_build_info\\{version=\"$version\"\\} 1($|$'\n')" "halo_build_info carries the version"
like "$text" 'halo_last_run_info\{mode="check"\} 1' "halo_last_run_info: mode check"
like "$text" 'halo_warnings 2' "halo_warnings: the GTT and the not-implemented warnings"
like "$text" 'halo_item_in_sync\{key="boot/gtt",subsystem="boot"\} 1' \
	"an unsupported item that is not required is in sync"
like "$text" 'halo_item_in_sync\{key="boot/param/iommu",subsystem="boot"\} 0' "a drifting item is not"
like "$text" 'halo_item_drift\{key="boot/param/iommu",subsystem="boot"\} 1' "... and is drift"
like "$text" 'halo_item_drift\{key="boot/gtt",subsystem="boot"\} 0' "an item in sync is no drift"
like "$text" 'halo_items\{outcome="unsupported"\} 1' "halo_items counts the unsupported item"
like "$text" 'halo_exit_code 2' "halo_exit_code 2"
is "$(grep -c '^# TYPE ' "$PROM")" 8 "eight series, each with its TYPE"
is "$(grep -c '^# HELP ' "$PROM")" 8 "... and its HELP"
is "$(grep -v '^halo_last_run_info' "$PROM" | grep -c 'mode=')" 0 "the mode label is on halo_last_run_info only"

# apply: the same per-item series (labels stable across modes).
run_halo --root "$R" --json
is "$rc" 10 "apply: exit 10"
promtool_ok "$PROM" "apply's textfile"
like "$(cat "$PROM")" 'halo_last_run_info\{mode="apply"\} 1' "halo_last_run_info: mode apply"
is "$(grep -o '^halo_item_in_sync{[^}]*}' "$PROM")" \
	"$(grep -o '^halo_item_in_sync{[^}]*}' "$TEST_TMP/check.prom")" \
	"apply and check write the same per-item series"
like "$(cat "$PROM")" 'halo_item_drift\{key="boot/param/iommu",subsystem="boot"\} 0' \
	"a parameter waiting for the reboot is no drift"
is "$(jq -r '.stats.files_written' <<<"$out")" 4 \
	"apply counts the drop-in, the state file and the two reboot flags, not the textfile"

# After the reboot the host matches: a converged apply changes nothing but
# the textfile, and does not count it.
reboot_into "$R" "root=UUID=x ro $(grub_cmdline "$R")"
run_halo --root "$R" --check
is "$rc" 0 "check after the reboot: exit 0"
run_halo --root "$R" --json
is "$rc" 0 "first apply after the reboot: exit 0"
is "$(jq -r '.stats.files_written' <<<"$out")" 1 "... records the host in the state file (pending is now ok)"
snap=$(tree_snapshot "$R" | grep -v halo-provision.prom)
stamp=$(grep '^halo_last_run_timestamp_seconds' "$PROM")
ino=$(stat -c %i "$PROM")
sleep 0.01
run_halo --root "$R" --json
is "$(jq -r '.exit_code, .stats.files_written' <<<"$out" | tr '\n' ' ')" "0 0 " \
	"converged apply again: exit 0, files_written 0"
is "$(tree_snapshot "$R" | grep -v halo-provision.prom)" "$snap" "... nothing else changed"
ok "$([ "$(stat -c %i "$PROM")" != "$ino" ]; echo $?)" "... the textfile was rewritten (new inode)"
ok "$([ "$(grep '^halo_last_run_timestamp_seconds' "$PROM")" != "$stamp" ]; echo $?)" \
	"... with a new timestamp"
like "$(cat "$PROM")" 'halo_exit_code 0' "... halo_exit_code 0"
promtool_ok "$PROM" "the converged apply's textfile"

# A run that ends with exit 1 after the config loaded (a host fact makes
# it impossible: the drop-in is a symlink) writes nothing: the previous
# textfile stays, byte for byte and inode.
cp "$PROM" "$TEST_TMP/last.prom"
ln -sf /tmp "$R/etc/default/grub.d/zz-halo-provision.cfg"
snap=$(tree_snapshot "$R")
for mode in --check ""; do
	run_halo --root "$R" $mode
	is "$rc" 1 "symlinked drop-in ${mode:-apply}: exit 1"
	is "$(tree_snapshot "$R")" "$snap" "... the textfile and everything else untouched"
done
is "$(series "$PROM")" "$(series "$TEST_TMP/last.prom")" "... the previous series stay"
# A broken config: the same.
printf 'version = 1;\nboot = {\n' | write_conf "$CONF"
snap=$(tree_snapshot "$R")
run_halo --root "$R" --check
is "$rc" 1 "broken config: exit 1"
is "$(tree_snapshot "$R")" "$snap" "... nothing written"

# dry-run never writes it.
R2=$(boot_root debian dry)
mkdir -p "$R2/etc/halo-provision"
write_conf "$R2/etc/halo-provision/halo.conf" <<'CONF'
version = 1;
state = { prometheus = "/var/lib/prometheus/node-exporter/halo-provision.prom"; };
CONF
run_halo --root "$R2" --dry-run
is "$rc" 0 "dry-run: exit 0"
ok "$([ ! -e "$R2/var/lib/prometheus" ]; echo $?)" "dry-run wrote no textfile"

# An empty plan's textfile is valid too.
run_halo --root "$R2" --check
promtool_ok "$R2/var/lib/prometheus/node-exporter/halo-provision.prom" "an empty plan's textfile"

# state.prometheus moved: the apply removes the textfile the state file
# records, so node_exporter does not read an old copy beside the new one
# (the same series twice); a check only reports it; a file at the old path
# that is not ours stays.
TF=$R2/var/lib/prometheus/node-exporter
run_halo --root "$R2"
is "$(jq -r .textfile "$R2/var/lib/halo-provision/state.json")" \
	/var/lib/prometheus/node-exporter/halo-provision.prom "the state file records the textfile"
write_conf "$R2/etc/halo-provision/halo.conf" <<'CONF'
version = 1;
state = { prometheus = "/var/lib/prometheus/node-exporter/halo.prom"; };
CONF
run_halo --root "$R2" --check --json
is "$rc" 2 "textfile moved, --check: exit 2 (drift)"
is "$(jq -r '.items[] | select(.key=="file/var/lib/prometheus/node-exporter/halo-provision.prom") | .outcome' <<<"$out")" \
	drift "... the old textfile's item drifts"
ok "$([ -f "$TF/halo-provision.prom" ] && [ -f "$TF/halo.prom" ]; echo $?)" \
	"... and is still there beside the new one (a check removes nothing)"
run_halo --root "$R2"
is "$rc" 2 "textfile moved, apply: exit 2"
ok "$([ ! -e "$TF/halo-provision.prom" ] && [ -f "$TF/halo.prom" ]; echo $?)" \
	"... the old textfile is gone, the new one written"
is "$(jq -r .textfile "$R2/var/lib/halo-provision/state.json")" \
	/var/lib/prometheus/node-exporter/halo.prom "... and the state file records the new one"
write_conf "$R2/etc/halo-provision/halo.conf" <<<'version = 1;'
echo 'other_series 1' >"$TF/other.prom"
cp "$TF/other.prom" "$TF/halo.prom"
run_halo --root "$R2" --json
is "$(jq -r '.items[] | select(.key=="file/var/lib/prometheus/node-exporter/halo.prom") | .message' <<<"$out")" \
	"not ours (holds another program's series other_series): left as is" \
	"state.prometheus unset, another program's file at the old path: left, said so"
ok "$([ -f "$TF/halo.prom" ]; echo $?)" "... and still there"
is "$(jq -r 'has("textfile")' "$R2/var/lib/halo-provision/state.json")" false \
	"... and the state file records no textfile"
# A full revert removes both the configured textfile and the recorded one
# no apply has removed yet.
rm -f "$TF/halo.prom" "$TF/other.prom"
write_conf "$R2/etc/halo-provision/halo.conf" <<'CONF'
version = 1;
state = { prometheus = "/var/lib/prometheus/node-exporter/a.prom"; };
CONF
run_halo --root "$R2"
write_conf "$R2/etc/halo-provision/halo.conf" <<'CONF'
version = 1;
state = { prometheus = "/var/lib/prometheus/node-exporter/b.prom"; };
CONF
run_halo --root "$R2" --check
ok "$([ -f "$TF/a.prom" ] && [ -f "$TF/b.prom" ]; echo $?)" "moved, checked: both textfiles there"
run_halo --root "$R2" --revert
ok "$([ ! -e "$TF/a.prom" ] && [ ! -e "$TF/b.prom" ]; echo $?)" "a full revert removes both"

# The alert rules and the dashboard that read this file:
# tests/integration/monitoring.sh.

# promtool can fail: a counter without _total, a series given twice.
sed 's/^# TYPE halo_exit_code gauge$/# TYPE halo_exit_code counter/' "$TEST_TMP/check.prom" \
	>"$TEST_TMP/bad1.prom"
"$PROMTOOL" check metrics <"$TEST_TMP/bad1.prom" >/dev/null 2>&1
ok "$([ $? -ne 0 ]; echo $?)" "promtool rejects a counter without _total"
{ echo 'halo_exit_code 0'; cat "$TEST_TMP/check.prom"; } >"$TEST_TMP/bad2.prom"
"$PROMTOOL" check metrics <"$TEST_TMP/bad2.prom" >/dev/null 2>&1
ok "$([ $? -ne 0 ]; echo $?)" "promtool rejects a series given twice"

done_testing
