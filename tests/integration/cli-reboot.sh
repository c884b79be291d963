#!/bin/bash
# The views of a run with real items (the boot subsystem's kernel-cmdline
# backend, the smallest): exit bits 10 then 8, /run/reboot-required,
# --diff, -q, -v, the JSON items and the state file's reboot flag.
source "${top_srcdir:?}/tests/lib/tap.sh" || exit 1

root="$TEST_TMP/root"
mkdir -p "$root/etc/halo-provision" "$root/etc/kernel" "$root/proc"
write_conf "$root/etc/halo-provision/halo.conf" <<'EOF'
version = 1;
boot = { loader = "kernel-cmdline"; iommu = "pt"; };
EOF
install -m 0644 /dev/stdin "$root/etc/kernel/cmdline" <<<"root=/dev/sda1 ro quiet"
echo "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro quiet" >"$root/proc/cmdline"
echo "MemTotal:       131072000 kB" >"$root/proc/meminfo"
state="$root/var/lib/halo-provision/state.json"

snap0=$(tree_snapshot "$root")
run_halo --root "$root" --dry-run --diff
is "$rc" 10 "dry-run: drift and a reboot would be required (2+8)"
like "$out" "drift +file/etc/kernel/cmdline +mode 0644, 33 bytes \(observed: mode 0644, 24 bytes\)" \
	"dry-run: the file's drift line"
like "$out" "drift +boot/param/iommu +iommu=pt \(observed: absent\)" "dry-run: the parameter's drift line"
like "$out" $'\n''\+root=/dev/sda1 ro quiet iommu=pt'$'\n' "--diff: the new line of the file"
is "$(tail -n1 <<<"$out")" "dry-run: 3 items, 3 drift; reboot would be required" "dry-run: summary line last"
run_halo --root "$root" --dry-run -q
is "$out" "dry-run: 3 items, 3 drift; reboot would be required" "-q: only the summary line"
is "$(tree_snapshot "$root")" "$snap0" "dry-run wrote nothing"
ok "$([ ! -e "$root/run/reboot-required" ]; echo $?)" "dry-run: no /run/reboot-required"

run_halo --root "$root" --json
is "$rc" 10 "apply: changed and reboot required (2+8)"
is "$(jq -r '.changed, .failed, .reboot_required, .exit_code' <<<"$out" | tr '\n' ' ')" \
	"true false true 10 " "apply --json: changed, reboot_required, exit_code"
is "$(jq -r '.items[] | select(.key == "boot/param/iommu") | [.outcome, .changed, .was // "null"] | join(" ")' <<<"$out")" \
	"pending-reboot true null" "apply --json: the parameter is pending-reboot and changed"
is "$(jq -r '.items[] | select(.key == "file/etc/kernel/cmdline") | [.outcome, .subsystem, .was] | join("|")' <<<"$out")" \
	"changed|boot|mode 0644, 24 bytes" "apply --json: the file changed, with what it was"
like "$(jq -r '.items[] | select(.key == "file/etc/kernel/cmdline") | .diff' <<<"$out")" \
	'\+root=/dev/sda1 ro quiet iommu=pt' "apply --json: the file's diff"
is "$(jq -c '.summary' <<<"$out")" '{"ok":0,"changed":2,"drift":0,"pending-reboot":1,"unsupported":0,"failed":0}' \
	"apply --json: summary"
is "$(cat "$root/run/reboot-required")" "*** System restart required ***" "apply: /run/reboot-required"
is "$(cat "$root/run/reboot-required.pkgs")" "halo-provision" "apply: /run/reboot-required.pkgs"
is "$(jq -r '.stats.files_written' <<<"$out")" 5 "apply wrote the file, its --revert record, the state file and the two flags"
is "$(jq -r '.reboot_required, .exit_bits' "$state" | tr '\n' ' ')" "true 8 " "state file: reboot flag, exit bits without +2"
is "$(jq -r '.items[] | select(.key == "file/etc/kernel/cmdline") | .outcome' "$state")" ok \
	"state file: the changed file is recorded as ok"

snap1=$(tree_snapshot "$root")
run_halo --root "$root" -v
is "$rc" 8 "second apply: only the reboot is pending"
like "$out" "^ok +file/etc/kernel/cmdline" "-v: the ok item is shown"
is "$(tail -n1 <<<"$out")" "apply: 3 items, 2 ok, 1 pending-reboot; reboot required" "second apply: summary"
is "$(tree_snapshot "$root")" "$snap1" "second apply wrote nothing (state file and flags untouched)"

# An apply limited to another subsystem keeps the boot items in the state
# file: here it has nothing to do, so nothing is rewritten.
run_halo --root "$root" --only links,modules --json
is "$(jq -r '.exit_code, (.items | length), .stats.files_written' <<<"$out" | tr '\n' ' ')" "0 0 0 " \
	"--only links,modules: no items, nothing written"
is "$(tree_snapshot "$root")" "$snap1" "--only links,modules: state file untouched (boot items kept)"
is "$(jq -r '[.items[].key] | join(" ")' "$state")" "file/var/lib/halo-provision/cmdline-edits file/etc/kernel/cmdline boot/param/iommu" \
	"state file: still every item"

run_halo --root "$root" --check
is "$rc" 8 "check: reboot pending"
is "$(wc -l <<<"$out")" 2 "check: one line for the item not ok, one summary"
like "$(head -n1 <<<"$out")" "^pending-reboot  boot/param/iommu  iommu=pt \(observed: .*\); " \
	"check: the pending line, aligned, with the boot subsystem's message"
is "$(tail -n1 <<<"$out")" "check: 3 items, 2 ok, 1 pending-reboot; reboot required" "check: summary"

# A host fact that makes the config impossible (a symlinked target) stops
# the run with exit 1 before anything changes.
bad="$TEST_TMP/bad"
mkdir -p "$bad/etc/halo-provision" "$bad/etc/kernel" "$bad/proc"
write_conf "$bad/etc/halo-provision/halo.conf" <<'CONF'
version = 1;
boot = { loader = "kernel-cmdline"; iommu = "pt"; };
state = { prometheus = "/var/lib/node_exporter/halo.prom"; };
CONF
echo "root=/dev/sda1 ro quiet" >"$TEST_TMP/outside"
ln -s "$TEST_TMP/outside" "$bad/etc/kernel/cmdline"
cp "$root/proc/cmdline" "$root/proc/meminfo" "$bad/proc/"
snap2=$(tree_snapshot "$bad")
run_halo --root "$bad" --check --json
is "$rc" 1 "symlinked target: exit 1"
like "$err" "^halo-provision: .*symlink" "symlinked target: says why"
is "$(jq -r '.failed, .exit_code' <<<"$out" | tr '\n' ' ')" "true 1 " "symlinked target --json: error document"
is "$(cat "$TEST_TMP/outside")" "root=/dev/sda1 ro quiet" "symlinked target: the outside file is intact"
# Exit 1 writes nothing, not even the textfile: monitoring keeps the last
# run's series and sees their timestamp age (docs/prometheus.md).
ok "$([ ! -e "$bad/var/lib/node_exporter" ]; echo $?)" \
	"symlinked target: no textfile, not even its directory"
is "$(tree_snapshot "$bad" | grep -v '/run/halo-provision\.lock$')" "$snap2" \
	"symlinked target: nothing but the run lock created"
run_halo --root "$bad"
is "$rc" 1 "symlinked target, apply: exit 1"
ok "$([ ! -e "$bad/var/lib/halo-provision/state.json" ]; echo $?)" "symlinked target, apply: no state file"
is "$(cat "$TEST_TMP/outside")" "root=/dev/sda1 ro quiet" "symlinked target, apply: the outside file is intact"

done_testing
