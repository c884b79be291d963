#!/bin/bash
# Every document --json prints, and the state file --status prints, is
# valid under the shipped JSON Schema (docs/halo-provision.schema.json),
# checked by a real validator (Debian's python3-jsonschema), each against
# the one kind of document it must be: a usage error, config errors, a
# valid config, dry-run, apply, check, a run stopped by a host fact, the
# state file. Tampered documents are rejected, so the schema can fail.
source "${top_srcdir:?}/tests/lib/tap.sh" || exit 1
source "$top_srcdir/tests/fixtures/boot/lib.sh" || exit 1

SCHEMA="$top_srcdir/docs/halo-provision.schema.json"
# Debian's validator, by path: python3 on PATH may be another Python.
JSONSCHEMA=/usr/bin/jsonschema
PYTHON=/usr/bin/python3
if [ ! -x "$JSONSCHEMA" ] || ! "$PYTHON" -c 'import jsonschema' 2>/dev/null; then
	echo "Bail out! $JSONSCHEMA missing: install python3-jsonschema"
	exit 1
fi

# The schema itself is a valid draft 2020-12 schema.
"$PYTHON" - "$SCHEMA" <<'EOF'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
jsonschema.Draft202012Validator.check_schema(schema)
EOF
ok $? "the schema is a valid draft 2020-12 schema"

# One schema per kind of document: the shipped one with its top-level
# choice narrowed to that kind.
for def in run result state; do
	jq --arg d "$def" '.oneOf = [{"$ref": ("#/$defs/" + $d)}]' "$SCHEMA" \
		>"$TEST_TMP/$def.schema.json" || exit 1
done

# One validator process for the whole test (python3-jsonschema's own
# Draft202012Validator, what /usr/bin/jsonschema runs): a line
# "SCHEMA DOC" in, "ok" or the first error out. Starting the CLI once per
# document cost most of this test's time.
coproc VALIDATOR { "$PYTHON" -u -c '
import json, sys, jsonschema
cache = {}
for line in sys.stdin:
    schema_path, doc_path = line.split()
    if schema_path not in cache:
        cache[schema_path] = jsonschema.Draft202012Validator(json.load(open(schema_path)))
    try:
        errors = list(cache[schema_path].iter_errors(json.load(open(doc_path))))
        msg = "ok" if not errors else " ".join(str(errors[0].message).split())[:300]
    except ValueError as e:
        msg = "not JSON: " + " ".join(str(e).split())
    print(msg)
'; }
# validate SCHEMA DOC: 0 when DOC is valid under SCHEMA; the error in $verdict.
validate() {
	echo "$1 $2" >&"${VALIDATOR[1]}"
	IFS= read -r verdict <&"${VALIDATOR[0]}"
	[ "$verdict" = ok ]
}

n_doc=0
# valid KIND JSON DESCRIPTION: JSON is valid under the shipped schema and
# under the schema of KIND.
valid() {
	local kind=$1 doc="$TEST_TMP/doc$((n_doc += 1)).json" bad=""
	printf '%s\n' "$2" >"$doc"
	validate "$SCHEMA" "$doc" || bad="shipped schema ($verdict)"
	validate "$TEST_TMP/$kind.schema.json" "$doc" || bad="$bad $kind ($verdict)"
	ok "$([ -z "$bad" ]; echo $?)" "$3: valid ($kind)"
	[ -z "$bad" ] || diag "invalid under: $bad"
}

# invalid JSON DESCRIPTION: the shipped schema rejects JSON.
invalid() {
	local doc="$TEST_TMP/doc$((n_doc += 1)).json"
	printf '%s\n' "$1" >"$doc"
	validate "$SCHEMA" "$doc"
	ok "$([ $? -ne 0 ]; echo $?)" "rejected: $2"
}

R=$(boot_root debian root)
CONF=$R/etc/halo-provision/halo.conf
mkdir -p "$R/etc/halo-provision"
# Changed, pending-reboot and unsupported items, and a warning (the GTT
# size is above ROCm's ceiling for the fixture's 128 GiB).
write_conf "$CONF" <<'CONF'
version = 1;
boot = { loader = "auto"; iommu = "pt"; gtt_mib = 129000; };
state = { prometheus = "/var/lib/prometheus/node-exporter/halo-provision.prom"; };
CONF

# A usage error: before the options are known.
run_halo --json --no-such-option
is "$rc" 1 "usage error: exit 1"
valid result "$out" "usage error"
is "$(jq -r '.config.path, .mode' <<<"$out" | tr '\n' ' ')" "/etc/halo-provision/halo.conf apply " \
	"usage error: the default config path, mode apply"
run_halo --root "$R" --check --json --wait
is "$rc" 1 "usage error (missing argument): exit 1"
valid result "$out" "usage error with --root and --check"

# Config errors: syntax, a world-writable file, a missing file.
printf 'version = 1;\nboot = {\n' | write_conf "$TEST_TMP/syntax.conf"
run_halo --root "$R" -c "$TEST_TMP/syntax.conf" --json
is "$rc" 1 "config syntax error: exit 1"
valid result "$out" "config syntax error"
is "$(jq -r '.config.path, .config.digest' <<<"$out" | tr '\n' ' ')" "$TEST_TMP/syntax.conf null " \
	"config error: the path as given, no digest"
printf 'version = 1;\nmodules = { bogus = 1; };\n' | write_conf "$TEST_TMP/key.conf"
run_halo --root "$R" -c "$TEST_TMP/key.conf" --dry-run --json
is "$rc" 1 "unknown key (dry-run): exit 1"
valid result "$out" "unknown key in dry-run"
run_halo --root "$R" -c "$TEST_TMP/missing.conf" --validate --json
is "$rc" 1 "missing config (--validate): exit 1"
valid result "$out" "missing config in --validate"
is "$(jq -r '.mode' <<<"$out")" validate "missing config: mode validate"

# --status before any apply: an error document of mode status.
run_halo --root "$R" --status --json
is "$rc" 1 "--status without a state file: exit 1"
valid result "$out" "--status without a state file"
is "$(jq -r '.mode' <<<"$out")" status "... mode status"

# A valid config.
run_halo --root "$R" --validate --json
is "$rc" 0 "--validate: exit 0"
valid result "$out" "--validate"

# dry-run, apply, check.
run_halo --root "$R" --dry-run --json
is "$rc" 10 "dry-run: exit 10"
valid run "$out" "dry-run"
dry=$out
run_halo --root "$R" --json
is "$rc" 10 "apply: exit 10"
valid run "$out" "apply"
apply=$out
is "$(jq -r '[.items[].outcome] | unique | join(",")' <<<"$apply")" "changed,ok,pending-reboot,unsupported" \
	"apply: the document covers changed, ok, pending-reboot and unsupported items"
is "$(jq -r '.warnings | length' <<<"$apply")" 1 "apply: one warning"
run_halo --root "$R" --check --json
is "$rc" 8 "check: exit 8"
valid run "$out" "check"
check=$out
is "$(jq -c '.node | [(.hostname | length > 0), .interfaces, .boot.gtt_mib]' <<<"$check")" '[true,[],129000]' \
	"check: a full run carries the node facts"
run_halo --root "$R" --check --json --only boot
is "$(jq -r 'has("node")' <<<"$out")" false "check --only boot: no node facts"
valid run "$out" "check --only boot"
run_halo --root "$R" --check --json -q --diff
valid run "$out" "check -q --diff"

# The state file, and --status --json printing it.
valid state "$(cat "$R/var/lib/halo-provision/state.json")" "the state file"
run_halo --root "$R" --status --json
is "$rc" 0 "--status: exit 0"
valid state "$out" "--status"

# A host fact that makes the config impossible, after the config loaded:
# the document has the digest, and nothing was written (not even the
# Prometheus textfile).
B=$(boot_root debian bad)
mkdir -p "$B/etc/halo-provision"
write_conf "$B/etc/halo-provision/halo.conf" <<'CONF'
version = 1;
boot = { loader = "grub-dropin"; iommu = "pt"; };
state = { prometheus = "/var/lib/prometheus/node-exporter/halo-provision.prom"; };
CONF
ln -s /tmp "$B/etc/default/grub.d/zz-halo-provision.cfg"
for mode in --check --dry-run ""; do
	run_halo --root "$B" $mode --json
	is "$rc" 1 "symlinked drop-in ${mode:-apply}: exit 1"
	valid result "$out" "symlinked drop-in ${mode:-apply}"
done
is "$(jq -r '.config.digest | length' <<<"$out")" 64 "... the config loaded: its digest is given"
ok "$([ ! -e "$B/var/lib/prometheus/node-exporter/halo-provision.prom" ]; echo $?)" \
	"... and no textfile was written"

# Another run holds the lock: exit 4 before any change, the same kind of
# document.
hold_lock "$R"
run_halo --root "$R" --wait 0 --json
is "$rc" 4 "lock held: exit 4"
valid result "$out" "lock held"
release_lock

# The schema can fail: tampered documents are rejected.
invalid "$(jq '.extra = 1' <<<"$apply")" "an unknown top-level field"
invalid "$(jq '.items[0].outcome = "skipped"' <<<"$apply")" "an unknown outcome"
invalid "$(jq '.items[0].subsystem = "firewall"' <<<"$apply")" "an unknown subsystem"
invalid "$(jq '.mode = "status"' <<<"$apply")" "mode status in a run document"
invalid "$(jq '.changed = false' <<<"$apply")" "changed that disagrees with exit_code"
invalid "$(jq '.exit_code = 1' <<<"$apply")" "exit 1 with a plan"
invalid "$(jq 'del(.summary.drift)' <<<"$dry")" "a summary without an outcome"
invalid "$(jq '.items[0].diff = 3' <<<"$apply")" "a number as diff"
invalid "$(jq '.node.uptime = 3' <<<"$check")" "an unknown field in the node facts"
invalid "$(jq '.node.interfaces = [{"name": "e", "mtu": 9000, "live_mtu": 0, "addresses": []}]' <<<"$check")" \
	"a live MTU of 0"
invalid "$(jq '.items[1].was = "x"' <<<"$apply")" "was on an item that did not change"
run_halo --json --no-such-option
invalid "$(jq '.config.path = null' <<<"$out")" "a null config path"
invalid "$(jq '.stats.files_written = 1' <<<"$out")" "exit 1 with a file written"
invalid "$(jq '.errors = []' <<<"$out")" "exit 1 without errors"
invalid "$(jq '.items[0].outcome = "changed"' "$R/var/lib/halo-provision/state.json")" \
	"changed in the state file"
invalid "$(jq '.exit_bits = 2' "$R/var/lib/halo-provision/state.json")" "+2 in the state file"
invalid "$(jq '.reboot_required = false' "$R/var/lib/halo-provision/state.json")" \
	"reboot_required that disagrees with exit_bits"
is "$(jq -r .textfile "$R/var/lib/halo-provision/state.json")" \
	/var/lib/prometheus/node-exporter/halo-provision.prom "the state file records its textfile"
invalid "$(jq '.textfile = "halo.prom"' "$R/var/lib/halo-provision/state.json")" \
	"a relative textfile in the state file"

# A revert limited by --only: its document and the state file it leaves.
run_halo --root "$R" --revert --only files --json
valid run "$out" "revert --only files"
valid state "$(cat "$R/var/lib/halo-provision/state.json")" "the state file a partial revert wrote"
invalid "$(jq '.reverted = []' "$R/var/lib/halo-provision/state.json")" "an empty reverted list"
invalid "$(jq '.revert = false' <<<"$out")" "revert: false"
run_halo --root "$R" --json
is "$(jq -c .reverted "$R/var/lib/halo-provision/state.json")" null \
	"an apply after it writes the state file without reverted"

# A revert: the same document, its msg "apply: revert, N items ...".
run_halo --root "$R" --revert --dry-run --json
is "$rc" 2 "--revert --dry-run: exit 2 (changes; the parameters it takes out never became active)"
valid run "$out" "revert dry-run"
run_halo --root "$R" --revert --json
is "$rc" 2 "--revert: exit 2, as its dry-run said"
is "$(jq -r '.msg' <<<"$out" | cut -d, -f1)" "apply: revert" "revert: msg starts \"apply: revert,\""
valid run "$out" "revert"
invalid "$(jq '.msg = "apply: revert, some items"' <<<"$out")" "a revert msg without a count"

done_testing
