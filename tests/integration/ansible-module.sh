#!/bin/bash
# halo-provision's args-file mode, Ansible's binary-module protocol, run
# directly: `halo-provision ARGS_FILE` with the args file Ansible writes
# (direct callers use it; the collection's module uses it for config_data),
# on a --root fixture and a veth in a network namespace. Check mode changes nothing and reports changed; apply
# converges; the second run reports changed=false; _ansible_diff gives
# before/after per file; config_data takes 9000 and "9000" alike and
# answers a bad value with the config file's own message; an unknown
# parameter, a broken args file: failed, one line. Every option with an
# empty value ("" is Ansible's unset; an empty `only` fails with the list
# of subsystems), a value of the wrong type and a value the tool does not
# know: refused in one line with nothing changed, or run as designed. Every answer is exactly
# one JSON object on stdout (jq --seq would see a second one) and nothing
# else. The command line keeps its own usage error for other arguments.
source "$top_srcdir/tests/lib/tap.sh"

NS=$(new_netns ansmod) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add eth-a type veth peer name eth-b
MAC=$(ip -n "$NS" -j link show eth-a | jq -r '.[0].address')
mtu() { ip -n "$NS" -j link show eth-a | jq -r '.[0].mtu'; }
ROOT=$TEST_TMP/root
CONF=$ROOT/etc/halo-provision/halo.conf
LIMITS=$ROOT/etc/security/limits.d/90-halo-provision.conf
mkdir -p "$ROOT/etc/halo-provision" "$ROOT/etc/security/limits.d"
write_conf "$CONF" <<CONF
version = 1;
interfaces = ( { name = "rdma0"; match = { mac = "$MAC"; }; mtu = 9000; } );
access = { memlock = "unlimited"; };
CONF
ARGS=$TEST_TMP/args

# module JSON: writes the args file and runs the module on it.
module() {
	printf '%s\n' "$1" >"$ARGS"
	run_halo "$ARGS"
}
# one_object: stdout is exactly one JSON object (and valid JSON).
one_object() {
	[ "$(jq -s 'length' <<<"$out" 2>/dev/null)" = 1 ] &&
		[ "$(jq -r 'type' <<<"$out")" = object ]
}
field() { jq -c ".$1" <<<"$out"; }
BASE="\"root\": \"$ROOT\", \"netns\": \"$NS\", \"_ansible_verbosity\": 0, \"_ansible_module_name\": \"halo_provision\""

# --- check mode: reports changed, changes nothing ---
snap0=$(tree_snapshot "$ROOT")
module "{ $BASE, \"_ansible_check_mode\": true }"
ok "$(one_object; echo $?)" "check mode: exactly one JSON object on stdout"
is "$rc" 0 "check mode: exit 0 (not failed)"
is "$(field changed),$(field failed),$(field rc)" "true,false,2" "check mode: changed, not failed, rc 2 (drift)"
is "$(tree_snapshot "$ROOT")" "$snap0" "check mode wrote nothing under the root"
is "$(mtu)" 1500 "check mode left the MTU alone"
is "$(jq -r '.items[] | select(.key == "link/rdma0/mtu") | .outcome' <<<"$out")" drift \
	"check mode: the MTU item is drift"
is "$(jq -r '[.items[].key] | length > 0' <<<"$out"),$(field warnings | jq -r type),$(field reboot_required)" \
	"true,array,false" "check mode: items, warnings list, reboot_required"
is "$(field diff)" null "no diff member unless Ansible asks"
is "$err" "" "check mode: nothing on stderr"

# --- check mode with diff: before/after for each file ---
module "{ $BASE, \"_ansible_check_mode\": true, \"_ansible_diff\": true }"
is "$(jq -r '.diff[] | select(.after_header == "/etc/security/limits.d/90-halo-provision.conf") | .before' <<<"$out")" "" \
	"diff: the new limits drop-in has an empty before"
like "$(jq -r '.diff[] | select(.after_header == "/etc/security/limits.d/90-halo-provision.conf") | .after' <<<"$out")" \
	'memlock[[:space:]]+unlimited' "diff: its after is the content to be written"
is "$(jq -r '[.diff[] | keys | sort | join(",")] | unique | .[]' <<<"$out")" \
	"after,after_header,before,before_header" "diff: every entry in the format of Ansible's diff callback"
is "$(tree_snapshot "$ROOT")" "$snap0" "check mode with diff wrote nothing"

# --- apply converges ---
module "{ $BASE }"
ok "$(one_object; echo $?)" "apply: one JSON object"
is "$(field changed),$(field failed),$(field rc)" "true,false,2" "apply: changed, rc 2"
is "$(mtu)" 9000 "apply: the MTU is 9000 (ip -j)"
ok "$(grep -q unlimited "$LIMITS"; echo $?)" "apply: the limits drop-in is written"
like "$(field msg)" '^"apply: [0-9]+ items' "apply: msg is the summary line"
ok "$([ -f "$ROOT/var/lib/halo-provision/state.json" ]; echo $?)" "apply: the state file is written"

# --- second run: nothing to do ---
snap1=$(tree_snapshot "$ROOT")
module "{ $BASE, \"_ansible_diff\": true }"
is "$(field changed),$(field failed),$(field rc),$(field diff)" "false,false,0,[]" \
	"second apply: changed=false, empty diff"
is "$(tree_snapshot "$ROOT")" "$snap1" "second apply: nothing written"
module "{ $BASE, \"_ansible_check_mode\": true }"
is "$(field changed),$(field rc)" "false,0" "check mode after apply: in sync"

# --- a changed file shows its old content as before ---
printf '# edited by hand\n' >"$LIMITS"
module "{ $BASE, \"_ansible_check_mode\": \"yes\", \"_ansible_diff\": \"yes\" }"
is "$(jq -r '.diff[] | select(.before_header == "/etc/security/limits.d/90-halo-provision.conf") | .before' <<<"$out")" \
	"# edited by hand" "diff: before is the file's current content"
module "{ $BASE, \"_ansible_diff\": true }"
is "$(field changed)" true "apply after a manual edit: changed"
like "$(cat "$LIMITS")" unlimited "apply: the edit is undone"

# --- config_text and config_data ---
ip -n "$NS" link set eth-a mtu 1500
inline_mtu() { # PARAM-JSON: run, echo changed and the MTU
	module "{ $BASE, $1, \"only\": [\"links\"] }"
	echo "$(field changed),$(field failed),$(mtu)"
}
TEXT="version = 1; interfaces = ( { name = \\\"rdma0\\\"; match = { mac = \\\"$MAC\\\"; }; mtu = 4000; } );"
is "$(inline_mtu "\"config_text\": \"$TEXT\"")" "true,false,4000" "config_text: applied"
DATA_NUM="{\"version\": 1, \"interfaces\": [{\"name\": \"rdma0\", \"match\": {\"mac\": \"$MAC\"}, \"mtu\": 9000}]}"
DATA_STR="{\"version\": \"1\", \"interfaces\": [{\"name\": \"rdma0\", \"match\": {\"mac\": \"$MAC\", \"pci\": \"\"}, \"mtu\": \"9000\"}]}"
is "$(inline_mtu "\"config_data\": $DATA_NUM")" "true,false,9000" "config_data with 9000: applied"
wanted_num=$(jq -c '[.items[] | {key, wanted}]' <<<"$out")
is "$(inline_mtu "\"config_data\": $DATA_STR")" "false,false,9000" "config_data with \"9000\" (and \"\" for unset): the same, nothing to change"
is "$(jq -c '[.items[] | {key, wanted}]' <<<"$out")" "$wanted_num" "config_data: 9000 and \"9000\" plan the same items"

# --- bad values: the config file's messages, nothing changed ---
ip -n "$NS" link set eth-a mtu 1500
snap2=$(tree_snapshot "$ROOT")
module "{ $BASE, \"config_data\": {\"interfaces\": [{\"name\": \"rdma0\", \"mtu\": \"70000\"}]} }"
ok "$(one_object; echo $?)" "bad config_data: one JSON object"
is "$rc" 1 "bad config_data: exit 1"
is "$(field changed),$(field failed),$(field rc)" "false,true,1" "bad config_data: failed, not changed, rc 1"
write_conf "$TEST_TMP/bad.conf" <<<'interfaces = ( { name = "rdma0"; mtu = 70000; } );'
run_halo --validate -c "$TEST_TMP/bad.conf"
file_msg=${err#*bad.conf:1: }
is "$(jq -r .msg <<<"$(module "{ $BASE, \"config_data\": {\"interfaces\": [{\"name\": \"rdma0\", \"mtu\": \"70000\"}]} }"; echo "$out")")" \
	"config_data: $file_msg" "bad config_data: the config file's message, with the JSON path"
module "{ $BASE, \"config_data\": {\"interfaces\": [{\"name\": \"rdma0\", \"mtu\": \"9k\", \"exclusive_addresses\": \"maybe\"}], \"bot\": {}} }"
is "$(jq -r '.errors | length' <<<"$out")" 3 "bad config_data: every error in errors"
is "$(jq -r '.errors[]' <<<"$out")" 'config_data: unknown key "bot" (did you mean "boot"?)
config_data: interfaces[0].mtu: expected an integer, got the string "9k"
config_data: interfaces[0].exclusive_addresses: expected a boolean, got the string "maybe"' \
	"bad config_data: the messages"
is "$(jq -r '.msg' <<<"$out")" 'config_data: unknown key "bot" (did you mean "boot"?)' "bad config_data: msg is the first error"
is "$(tree_snapshot "$ROOT"),$(mtu)" "$snap2,1500" "bad config_data: nothing changed"

# --- bad parameters and args files ---
module "{ $BASE, \"confg\": \"/x\" }"
is "$(field failed),$(field changed),$(field msg),$rc" \
	'true,false,"unsupported parameter \"confg\" (did you mean \"config\"?)",1' "unknown parameter: failed, one line"
module "{ $BASE, \"revert\": \"maybe\" }"
is "$(field msg)" '"parameter revert: \"maybe\" is not a boolean (true, false, yes, no)"' "revert \"maybe\": failed"
module "{ \"root\": 7 }"
is "$(field msg)" '"parameter root: expected a string, got an integer"' "root as a number: failed"
module "{ $BASE, \"wait\": \"soon\" }"
is "$(field msg)" "\"--wait needs whole seconds from 0 to 86400, not 'soon'\"" "wait: the command line's check"
module "{ $BASE, \"config\": \"$TEST_TMP/none.conf\", \"_ansible_check_mode\": true }"
is "$(field failed),$(field msg)" "true,\"$TEST_TMP/none.conf: cannot open the config file: No such file or directory\"" \
	"config path that does not exist: failed"
module "{ $BASE, \"root\": \"$TEST_TMP/nowhere\" }"
is "$(field failed),$rc" "true,1" "root that does not exist: failed"
module '{ "root": '
ok "$(one_object; echo $?)" "broken args file: still one JSON object"
is "$(field failed),$(field changed),$(field msg)" 'true,false,"the args file is not JSON: unexpected end of data"' \
	"broken args file: failed with the reason"
is "$(tree_snapshot "$ROOT"),$(mtu)" "$snap2,1500" "bad parameters: nothing changed"

# An args file that others could have written (mode 0666, owned by nobody)
# is refused as a config file is, in the same words, whatever config it
# brings; the same parameters in a file of mode 0600 are taken (in check
# mode, so that what follows finds the root as it was).
for param in "\"config_text\": \"$TEXT\"" "\"config_data\": $DATA_NUM" "\"config\": \"$CONF\""; do
	rm -f "$ARGS"
	printf '%s\n' "{ $BASE, $param, \"only\": [\"links\"] }" >"$ARGS"
	chown nobody "$ARGS" && chmod 0666 "$ARGS"
	run_halo "$ARGS"
	ok "$(one_object; echo $?)" "args file of mode 0666 (${param%%:*}): one JSON object"
	is "$(field failed),$(field changed),$(field msg),$rc" \
		"true,false,\"$ARGS: refusing an args file writable by group or others (mode 0666)\",1" \
		"... failed, one line saying why"
done
is "$(tree_snapshot "$ROOT"),$(mtu)" "$snap2,1500" "args files others could write: nothing changed"
rm -f "$ARGS"
(umask 077 && printf '%s\n' "{ $BASE, \"config_text\": \"$TEXT\", \"only\": [\"links\"], \"_ansible_check_mode\": true }" >"$ARGS")
run_halo "$ARGS"
is "$(field failed),$(field changed),$(jq -r '.items[] | select(.key == "link/rdma0/mtu") | .wanted' <<<"$out")" \
	"false,true,4000" "the same args at mode 0600: taken"
rm -f "$ARGS"

# An args file that is a FIFO or a device is refused as those are, before
# it is ever opened: at once (opening a FIFO nobody writes waits forever;
# timeout turns that into a failure), failed, one line, rc 1, nothing
# read or changed. The FIFO's writer still waits: its args, which would
# apply, were never taken.
mkfifo "$TEST_TMP/args-fifo"
(umask 077 && printf '%s\n' "{ $BASE, \"config_text\": \"$TEXT\", \"only\": [\"links\"] }" >"$TEST_TMP/args-fifo") &
writer=$!
for f in "$TEST_TMP/args-fifo:a FIFO" "/dev/null:a character device"; do
	path=${f%%:*} kind=${f#*:}
	out=$(timeout -k 2 10 "$HALO" "$path" 2>"$TEST_TMP/stderr")
	rc=$?
	ok "$(one_object; echo $?)" "args file $kind: one JSON object"
	is "$(field failed),$(field changed),$(field msg),$rc" \
		"true,false,\"$path: $kind, not a regular file: refused as the args file\",1" \
		"... at once, failed, one line saying why"
done
ok "$(kill -0 "$writer"; echo $?)" "the FIFO was never opened: its writer still waits"
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
ok "$([ -p "$TEST_TMP/args-fifo" ] && [ -c /dev/null ]; echo $?)" "... and both are as they were"
is "$(tree_snapshot "$ROOT"),$(mtu)" "$snap2,1500" "args files that are no regular file: nothing changed"

# --- every option: an empty, a wrong-typed and an unknown value ---
# args KEY JSON-VALUE: the base parameters with KEY set to the value.
args() {
	jq -cn --arg root "$ROOT" --arg ns "$NS" --arg k "$1" --argjson v "$2" \
		'{root: $root, netns: $ns} + {($k): $v}'
}
KNOWN="boot, modules, links, roce, rdma, files, storage, ready"
# refused KEY JSON-VALUE MSG: exit 1, failed, not changed, MSG in one line.
refused() {
	module "$(args "$1" "$2")"
	ok "$(one_object; echo $?)" "$1 = $2: one JSON object"
	is "$rc,$(field failed),$(field changed),$(jq -r .msg <<<"$out")" "1,true,false,$3" "$1 = $2: refused"
}
snap3=$(tree_snapshot "$ROOT")
refused only '""' "parameter only: empty: give one or more of $KNOWN (leave it out for every subsystem)"
refused only '[]' "parameter only: empty: give one or more of $KNOWN (leave it out for every subsystem)"
refused only '[""]' "parameter only: empty: give one or more of $KNOWN (leave it out for every subsystem)"
refused only 3 "parameter only: expected a string, got an integer"
refused only '"bogus"' "unknown subsystem 'bogus' in --only (known: $KNOWN)"
refused config '["/a"]' "parameter config: expected a string, got a list"
refused config "\"$TEST_TMP/none.conf\"" "$TEST_TMP/none.conf: cannot open the config file: No such file or directory"
refused config_text '{}' "parameter config_text: expected a string, got an object"
refused config_text '"bogus = 1;"' 'config_text:1: unknown key "bogus"'
refused config_data 9000 "parameter config_data: expected an object (a mapping), got an integer"
refused config_data '{"bogus": 1}' 'config_data: unknown key "bogus"'
refused root 5 "parameter root: expected a string, got an integer"
refused root "\"$TEST_TMP/nowhere\"" "--root $TEST_TMP/nowhere: No such file or directory"
refused netns true "parameter netns: expected a string, got a boolean"
refused netns '"halo-no-such-ns"' "--netns halo-no-such-ns: /run/netns/halo-no-such-ns: No such file or directory"
refused kernel_release 6.1 "parameter kernel_release: expected a string, got a float"
refused kernel_release '"a/b"' "invalid kernel release 'a/b'"
refused revert '[true]' "parameter revert: expected a boolean, got a list"
refused revert '"maybe"' 'parameter revert: "maybe" is not a boolean (true, false, yes, no)'
refused interface 0 "parameter interface: expected a string, got an integer"
refused interface '"a:b"' "invalid interface name 'a:b'"
refused wait true "parameter wait: expected whole seconds (a number or its text), got a boolean"
refused wait 90000 "--wait needs whole seconds from 0 to 86400, not '90000'"
refused _ansible_check_mode 1 "parameter _ansible_check_mode: expected a boolean, got an integer"
refused _ansible_check_mode '"perhaps"' 'parameter _ansible_check_mode: "perhaps" is not a boolean (true, false, yes, no)'
refused _ansible_diff '{}' "parameter _ansible_diff: expected a boolean, got an object"
refused _ansible_diff '"sometimes"' 'parameter _ansible_diff: "sometimes" is not a boolean (true, false, yes, no)'
# A kernel with no module tree: refused where the config needs one.
module "$(args kernel_release '"0.0.1-none"' | jq -c '. + {config_text: "version = 1; modules = { load = [ \"ice\" ]; };"}')"
is "$rc,$(field failed),$(jq -r .msg <<<"$out")" \
	"1,true,config_text:1: modules: no module index for kernel 0.0.1-none in $ROOT/lib/modules/0.0.1-none (kernel not installed, or depmod not run)" \
	"kernel_release of a kernel not installed: refused where modules need it"
is "$(tree_snapshot "$ROOT"),$(mtu)" "$snap3,1500" "the refused options changed nothing"

# "" is Ansible's unset: the same check as without the option (root and
# netns left set: unset they would audit this machine itself).
module "$(args _ansible_check_mode true)"
base=$(jq -c '[.rc, [.items[] | [.key, .outcome]]]' <<<"$out")
for k in config config_text config_data kernel_release revert interface wait _ansible_diff; do
	module "$(args _ansible_check_mode true | jq -c --arg k "$k" '. + {($k): ""}')"
	is "$(jq -c '[.rc, [.items[] | [.key, .outcome]]]' <<<"$out")" "$base" "$k = \"\": as if left out"
done
# An interface no entry manages: what the hotplug unit asks for every
# NIC that appears; a warning, nothing to do.
module "$(args interface '"nosuch0"' | jq -c '. + {_ansible_check_mode: true}')"
is "$(field failed),$(field rc),$(jq -r '.warnings[]' <<<"$out")" \
	"false,0,--interface nosuch0: no interface entry manages it: nothing to do" \
	"interface no entry manages: not failed, a warning, nothing to do"
is "$(tree_snapshot "$ROOT"),$(mtu)" "$snap3,1500" "the empty and unknown values changed nothing"

# --- revert in check mode shows, changes nothing ---
module "{ $BASE, \"revert\": true, \"_ansible_check_mode\": true }"
is "$(field failed),$(field changed),$(field mode),$(field revert)" 'false,true,"dry-run",true' \
	"revert in check mode: would change"
is "$(tree_snapshot "$ROOT")" "$snap2" "revert in check mode: nothing changed"

# --- the command line is unaffected ---
run_halo "$TEST_TMP/nonexistent"
is "$rc,$err" "1,halo-provision: unexpected argument '$TEST_TMP/nonexistent'" \
	"a lone argument that is no file: the usage error"
echo 'version = 1;' >"$TEST_TMP/notjson"
run_halo "$TEST_TMP/notjson"
is "$rc,$err" "1,halo-provision: unexpected argument '$TEST_TMP/notjson'" \
	"a lone argument that is not a JSON object: the usage error"
run_halo "$ARGS" --check
like "$err" "unexpected argument" "an args file with other options: the usage error"
run_halo "$TEST_TMP"
is "$rc,$err" "1,halo-provision: unexpected argument '$TEST_TMP'" \
	"a lone argument that is a directory: the usage error"

# _ansible_check_mode "" is unset too: an apply (of nothing here).
module "$(args _ansible_check_mode '""' | jq -c '. + {only: ["storage"]}')"
is "$(field failed),$(field mode)" 'false,"apply"' '_ansible_check_mode = "": not check mode'

done_testing
