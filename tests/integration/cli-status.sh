#!/bin/bash
# --status: a summary of the last apply's state file for people (where,
# when, tool and kernel, item counts, exit bits, reboot pending, the items
# not ok); --status --json prints the document itself. A state file that
# is not ours, or none: exit 1 with one line. --status writes nothing.
source "${top_srcdir:?}/tests/lib/tap.sh" || exit 1

root="$TEST_TMP/root"
state="$root/var/lib/halo-provision/state.json"
mkdir -p "$root/etc/halo-provision" "${state%/*}"
echo 'version = 1;' | write_conf "$root/etc/halo-provision/halo.conf"

# A state file as an apply with a failure and a pending reboot leaves it.
cat >"$state" <<'JSON'
{
  "schema_version": 1,
  "tool": "halo-provision",
  "version": "0.1.0",
  "config": { "path": "/etc/halo-provision/halo.conf", "digest": "0123456789abcdef0123456789abcdef" },
  "kernel_release": "6.18.5-200.fc43.x86_64",
  "failed": true,
  "reboot_required": true,
  "exit_bits": 12,
  "items": [
    { "key": "module/irdma", "subsystem": "modules", "outcome": "ok" },
    { "key": "link/rdma0/mtu", "subsystem": "links", "outcome": "ok" },
    { "key": "boot/param/iommu", "subsystem": "boot", "outcome": "pending-reboot" },
    { "key": "roce/rdma0/pfc", "subsystem": "roce", "outcome": "failed" },
    { "key": "roce/rdma0/ecn", "subsystem": "roce", "outcome": "unsupported" }
  ]
}
JSON
touch -d '2026-03-04 05:06:07 UTC' "$state"
before=$(tree_snapshot "$root")

run_halo --root "$root" --status
is "$rc" 0 "--status: exit 0"
is "$err" "" "--status: nothing on stderr"
is "$out" "state file      $state
mode            apply, recorded 2026-03-04 05:06:07 UTC (rewritten only when the host's state changes)
tool            halo-provision 0.1.0, kernel 6.18.5-200.fc43.x86_64
config          /etc/halo-provision/halo.conf (digest 0123456789ab)
items           5 items, 2 ok, 1 pending-reboot, 1 unsupported, 1 failed
exit bits       12 (+4 failed, +8 reboot required)
reboot          pending: the host matches the config after a reboot
pending-reboot  boot/param/iommu
failed          roce/rdma0/pfc
unsupported     roce/rdma0/ecn" "--status: the summary, then the items not ok"
ok "$([ "$(wc -l <<<"$out")" -lt 20 ]; echo $?)" "--status: a screenful, not the document"
run_halo --root "$root" --status -v
is "$(tail -n 5 <<<"$out")" "ok              module/irdma
ok              link/rdma0/mtu
pending-reboot  boot/param/iommu
failed          roce/rdma0/pfc
unsupported     roce/rdma0/ecn" "--status -v: every item, those ok too"
run_halo --root "$root" --status -q
is "$out" "apply: 5 items, 2 ok, 1 pending-reboot, 1 unsupported, 1 failed; reboot required" \
	"--status -q: the counts line alone"
run_halo --root "$root" --status --json
is "$rc" 0 "--status --json: exit 0"
is "$out" "$(cat "$state")" "--status --json: the document as it is"
is "$(tree_snapshot "$root")" "$before" "--status wrote nothing"

# A host in sync.
jq '.failed = false | .reboot_required = false | .exit_bits = 0 | .items = [.items[0]]' \
	"$state" >"$TEST_TMP/s" && cat "$TEST_TMP/s" >"$state"
run_halo --root "$root" --status
is "$(sed -n '/^items /,$p' <<<"$out")" "items           1 item, 1 ok
exit bits       0 (in sync)
reboot          none pending" "in sync: one item, exit bits 0, no reboot, no item lines"

# An outcome this version does not know is counted, not dropped.
jq '.items += [{"key": "x/y", "outcome": "later"}, {"key": "x/z"}]' "$state" >"$TEST_TMP/s" &&
	cat "$TEST_TMP/s" >"$state"
run_halo --root "$root" --status
is "$(grep '^items ' <<<"$out")" "items           3 items, 1 ok, 2 of another outcome" "unknown outcomes: counted"
is "$(tail -2 <<<"$out")" "later           x/y
?               x/z" "...and listed"

# Bad state files: exit 1, one line naming the file, nothing written.
NOT_OURS="is not a halo-provision state file (schema version 1); --status --json prints it as it is"
NOT_JSON="is not a halo-provision state file: not a JSON document (cut short or damaged)"
bad() { # bad TEXT WHAT WHY
	printf '%s' "$1" >"$state"
	before=$(tree_snapshot "$root")
	run_halo --root "$root" --status
	is "$rc" 1 "$2: exit 1"
	is "$err" "halo-provision: $state $3" "$2: one line"
	is "$out" "" "$2: nothing on stdout"
	is "$(tree_snapshot "$root")" "$before" "$2: nothing written"
}
bad 'not json' "not JSON" "$NOT_JSON"
bad '{"schema_version": 2, "items": []}' "another schema version" "$NOT_OURS"
bad '{"schema_version": 1}' "no items" "$NOT_OURS"
bad '{"schema_version": 1, "items": {}}' "items not an array" "$NOT_OURS"
bad '' "empty" "$NOT_JSON"
printf '%s' '{"schema_version": 1, "items": {}}' >"$state"
run_halo --root "$root" --status --json
is "$rc" 0 "--status --json prints a JSON document that is not ours"
is "$out" '{"schema_version": 1, "items": {}}' "... as it is"
# Not one JSON document: --json never prints broken JSON, but one
# document saying why, with exit 1.
json_bad() { # json_bad TEXT WHAT
	printf "$1" >"$state"
	run_halo --root "$root" --status --json
	is "$rc" 1 "--status --json, $2: exit 1"
	is "$(jq -s length <<<"$out" 2>/dev/null)" 1 "... one JSON document on stdout"
	is "$(jq -r '.errors[0]' <<<"$out")" \
		"$state is not a JSON document (cut short or damaged): nothing printed" "... saying why"
}
json_bad '{"schema_version": 1, "items": []}\0junk' "a NUL inside"
json_bad '{"schema_version": 1, "ite' "cut short"
json_bad '{"a": 1}{"b": 2}' "two documents"
json_bad '{"schema_version": 1, "items": []} junk' "text after the document"
run_halo --root "$root" --status
is "$rc" 1 "text after the document: the summary refuses it too"
printf '42' >"$state"
run_halo --root "$root" --status --json
is "$rc.$out" "0.42" "a bare number is one JSON document, printed"
json_bad '' "empty"
printf '{"schema_version": 1, "items": []}\0junk' >"$state"
run_halo --root "$root" --status
is "$rc" 1 "a NUL inside: exit 1"

rm "$state"
run_halo --root "$root" --status
is "$rc" 1 "no state file: exit 1"
is "$err" "halo-provision: no state file at $state (no apply has run on this host yet, or a revert removed it)" \
	"no state file: one line"
# A config that does not load: the default state file is read, and the
# line says so (the config may name another state.path).
cp "$root/etc/halo-provision/halo.conf" "$TEST_TMP/good.conf"
printf 'version = 1;\nstate = { path = "/srv/state.json"; };\noops = ;\n' | write_conf "$root/etc/halo-provision/halo.conf"
run_halo --root "$root" --status
is "$rc" 1 "a config that does not load, no state file: exit 1"
is "$err" "halo-provision: no state file at $state (no apply has run on this host yet, or a revert removed it); the config $root/etc/halo-provision/halo.conf did not load (--validate says why), so the default state file was read" \
	"... one line saying the default path was read, and why"
cat "$TEST_TMP/good.conf" | write_conf "$root/etc/halo-provision/halo.conf"

done_testing
