#!/bin/bash
# The halo.provision.halo_provision module as Ansible runs it on a node
# (python3 and its args), driving the node's own halo-provision (a copy of
# the build's program in another path, given as executable) on a --root
# fixture and a veth in a network namespace. Check mode changes nothing
# and shows the drift (files before and after, one line per other item);
# apply converges and shows what it changed; the second run changes
# nothing; a file edited by hand is the diff's before. Every option with
# an empty, a wrong-typed and an unknown value (an empty `only` with the
# list of subsystems) fails the task with one line and changes nothing; a
# node without the program names the package to install.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/lib/ansible.sh"
ansible_require
ansible_env

NS=$(new_netns ansmodpy) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add eth-a type veth peer name eth-b
MAC=$(ip -n "$NS" -j link show eth-a | jq -r '.[0].address')
mtu() { ip -n "$NS" -j link show eth-a | jq -r '.[0].mtu'; }
ROOT=$TEST_TMP/root
CONF=$ROOT/etc/halo-provision/halo.conf
LIMITS=/etc/security/limits.d/90-halo-provision.conf
mkdir -p "$ROOT/etc/halo-provision" "$ROOT/etc/security/limits.d"
write_conf "$CONF" <<CONF
version = 1;
interfaces = ( { name = "rdma0"; match = { mac = "$MAC"; }; mtu = 9000; } );
access = { memlock = "unlimited"; };
CONF
# The node's program: not the build's file.
PROG=$TEST_TMP/node/sbin/halo-provision
mkdir -p "${PROG%/*}"
cp "$HALO" "$PROG"

BASE=$(jq -n --arg p "$PROG" --arg root "$ROOT" --arg ns "$NS" '{executable: $p, root: $root, netns: $ns}')
# module ARGS_JSON: the module with BASE and ARGS_JSON.
module() { ansible_module "$(jq -n --argjson b "$BASE" "\$b + $1")"; }
field() { jq -c ".$1" <<<"$out"; }
# prepared: the diff's prepared lines; file PATH WHICH: a file's before or after.
prepared() { jq -r '.diff[] | select(.prepared) | .prepared' <<<"$out" | sed '/^$/d'; }
file_side() { jq -r --arg p "$1" ".diff[] | select(.before_header == \$p) | .$2" <<<"$out"; }

# --- check mode with diff: reports, changes nothing ---
snap0=$(tree_snapshot "$ROOT")
module '{_ansible_check_mode: true, _ansible_diff: true}'
is "$rc" 0 "check mode: the module exits 0"
is "$(field changed),$(field failed),$(field rc),$(field mode)" 'true,false,2,"dry-run"' \
	"check mode: changed, not failed, rc 2, mode dry-run"
is "$(prepared)" "link/rdma0/mtu: 1500 -> 9000
link/rdma0/up: down -> up" "check mode: one prepared line per drifted item"
is "$(file_side $LIMITS before)" "" "check mode: the new limits drop-in's before is empty"
like "$(file_side $LIMITS after)" 'memlock[[:space:]]+unlimited' "check mode: its after is the content to be written"
is "$(jq -r '.diff[] | select(.before_header) | .after_header' <<<"$out" | sort | paste -sd' ')" \
	"/etc/security/limits.d/90-halo-provision.conf /etc/systemd/system.conf.d/90-halo-provision.conf /etc/systemd/user.conf.d/90-halo-provision.conf" \
	"check mode: before and after of every file"
is "$(tree_snapshot "$ROOT"),$(mtu)" "$snap0,1500" "check mode: nothing changed"
is "$(jq -r '.items[] | select(.key == "link/rdma0/mtu") | .outcome' <<<"$out")" drift "check mode: the MTU item is drift"

# --- apply converges and says what it changed ---
module '{_ansible_diff: true}'
is "$(field changed),$(field failed),$(field rc),$(field mode)" 'true,false,2,"apply"' "apply: changed, rc 2"
is "$(mtu)" 9000 "apply: the MTU is 9000 (ip -j)"
is "$(prepared)" "link/rdma0/mtu: 1500 -> 9000
link/rdma0/up: down -> up (no carrier (cable unplugged or peer down))" "apply: the changed items' lines, was -> now"
is "$(file_side $LIMITS after)" "$(cat "$ROOT$LIMITS")" "apply: the drop-in's after is what was written"
like "$(field msg)" '^"apply: [0-9]+ items' "apply: msg is the summary line"
is "$(field summary)" "$(field msg)" "apply: summary too"

# --- second run: nothing to do ---
snap1=$(tree_snapshot "$ROOT")
module '{_ansible_diff: true}'
is "$(field changed),$(field failed),$(field rc),$(field diff)" "false,false,0,[]" \
	"second apply: changed=false, empty diff"
is "$(tree_snapshot "$ROOT")" "$snap1" "second apply: nothing written"

# --- a file edited by hand is the diff's before, both ways ---
cp "$ROOT$LIMITS" "$TEST_TMP/limits.good"
sed -i '2s/.*/# edited by hand/' "$ROOT$LIMITS"
echo "* hard nofile 1" >>"$ROOT$LIMITS"
cp "$ROOT$LIMITS" "$TEST_TMP/limits.edited"
module '{_ansible_check_mode: true, _ansible_diff: true}'
is "$(file_side $LIMITS before)" "$(cat "$TEST_TMP/limits.edited")" "check mode: before is the file's text now"
is "$(file_side $LIMITS after)" "$(cat "$TEST_TMP/limits.good")" "check mode: after is the text to be written"
module '{_ansible_diff: true}'
is "$(field changed)" true "apply after the edit: changed"
is "$(file_side $LIMITS before)" "$(cat "$TEST_TMP/limits.edited")" "apply: before is the edited text"
is "$(file_side $LIMITS after)" "$(cat "$TEST_TMP/limits.good")" "apply: after is the text written"
cmp -s "$ROOT$LIMITS" "$TEST_TMP/limits.good"
ok $? "apply: the edit is undone"

# --- the diff helpers: a text they cannot rebuild stays the program's diff ---
py() { (cd "$ANS" && PYTHONPATH=$ANS/collections /usr/bin/python3 -c "
from ansible_collections.halo.provision.plugins.module_utils.halo_diff import *
$1"); }
is "$(py 'h = parse_unified("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n")[2]
print(apply_hunks("a\nb\n", h), apply_hunks("a\nx\n", h), repr(apply_hunks("a\nc", h, reverse=True)))')" \
	"a
c None 'a\nb\n'" "apply_hunks: forwards, a mismatch refused, backwards ('no newline' kept)"
is "$(py "print(file_entry({'diff': '--- a$LIMITS\n+++ b$LIMITS\n@@ -1,1 +1,1 @@\n-nothing like it\n+x\n', 'changed': False}, '$ROOT'))")" \
	"{'prepared': '--- a$LIMITS\n+++ b$LIMITS\n@@ -1,1 +1,1 @@\n-nothing like it\n+x\n'}" \
	"file_entry: a file that does not match the diff is shown as the diff"
ln -s /etc/hostname "$ROOT/etc/halo-link"
is "$(py "print(read_under_root('$ROOT', '/etc/halo-link'), read_under_root('$ROOT', '/etc/../etc/hostname'))")" \
	"None None" "read_under_root: never through a symlink or .."

# --- config_text and config_data ---
ip -n "$NS" link set eth-a mtu 1500
TEXT="version = 1; interfaces = ( { name = \"rdma0\"; match = { mac = \"$MAC\"; }; mtu = 4000; } );"
module "{config_text: $(jq -Rn --arg t "$TEXT" '$t'), only: \"links\"}"
is "$(field changed),$(field failed),$(mtu)" "true,false,4000" "config_text: applied"
module '{config_text: "version = 1;\nx = ;\n"}'
is "$(field failed),$(field msg),$(field rc)" 'true,"config_text:2: syntax error",1' \
	"config_text: an error names config_text and its line"
DATA=$(jq -n --arg mac "$MAC" '{version: "1", interfaces: [{name: "rdma0", match: {mac: $mac, pci: ""}, mtu: "9000"}]}')
module "{config_data: $DATA, only: [\"links\"], _ansible_diff: true}"
is "$(field changed),$(field failed),$(mtu)" "true,false,9000" "config_data with \"9000\" and \"\": applied"
is "$(prepared)" "link/rdma0/mtu: 4000 -> 9000" "config_data: the prepared line"
module '{config_data: {interfaces: [{name: "rdma0", mtu: "9k"}], bot: {}}}'
is "$(jq -r '.errors[]' <<<"$out")" 'config_data: unknown key "bot" (did you mean "boot"?)
config_data: interfaces[0].mtu: expected an integer, got the string "9k"' "config_data: every error, by its path"
is "$(field failed),$(field rc)" "true,1" "config_data: failed, rc 1"

# --- revert in check mode shows, changes nothing ---
snap2=$(tree_snapshot "$ROOT")
module '{revert: true, _ansible_check_mode: true, _ansible_diff: true}'
is "$(field failed),$(field changed),$(field mode),$(field revert)" 'false,true,"dry-run",true' \
	"revert in check mode: would change"
is "$(file_side $LIMITS after)" "" "revert in check mode: the drop-in's after is empty"
is "$(tree_snapshot "$ROOT")" "$snap2" "revert in check mode: nothing changed"

# --- every bad option: failed, one line, rc 1, nothing run ---
bad() { # bad ARGS_JSON MESSAGE
	module "$1"
	is "$(field failed),$(jq -r '.msg' <<<"$out" 2>/dev/null)" "true,$2" "bad option $1"
}
ip -n "$NS" link set eth-a mtu 1500
snap3=$(tree_snapshot "$ROOT")
SUBS='boot, modules, links, roce, rdma, files, storage, ready'
bad '{only: ""}' "only: empty: give one or more of $SUBS (leave it out for every subsystem)"
bad '{only: []}' "only: empty: give one or more of $SUBS (leave it out for every subsystem)"
bad '{only: " , "}' "only: empty: give one or more of $SUBS (leave it out for every subsystem)"
bad '{only: "links,bogus"}' "only: 'bogus' is not a subsystem (one of $SUBS)"
bad '{only: ["links", ""]}' "only: '' is not a subsystem (one of $SUBS)"
bad '{only: 5}' "only: expected a list or a comma-separated string, got an integer"
bad '{netns: ""}' "netns: empty (leave it out for the default)"
bad '{interface: ""}' "interface: empty (leave it out for the default)"
bad '{kernel_release: 6.10}' "kernel_release: expected a string, got a float"
bad '{netns: ["a"]}' "netns: expected a string, got a list"
bad '{config: ""}' "config: empty (leave it out for the default)"
bad '{config: "halo.conf"}' "config: 'halo.conf' is not an absolute path"
bad '{root: ""}' "root: empty (leave it out for the default)"
bad '{root: "rel/root"}' "root: 'rel/root' is not an absolute path"
bad '{executable: "halo-provision"}' "executable: 'halo-provision' is not an absolute path"
bad '{config_text: ""}' "config_text: empty (leave it out for the default)"
bad '{config_data: {}}' "config_data: empty (give at least its version)"
bad '{config_data: "version=1"}' "config_data: expected a dictionary, got a string"
bad '{wait: 90000}' "wait: 90000 is not within 0 to 86400 seconds"
bad '{wait: -1}' "wait: -1 is not within 0 to 86400 seconds"
bad '{wait: true}' "wait: expected whole seconds, got a boolean"
bad '{config: "/a", config_text: "b"}' "parameters are mutually exclusive: config|config_text|config_data"
module '{wait: "soon"}'
is "$(field failed),$(jq -r '.msg | contains("wait") and contains("int")' <<<"$out")" "true,true" \
	"bad option {wait: \"soon\"}: Ansible's own check names it"
module '{revert: "maybe"}'
is "$(field failed),$(jq -r '.msg | contains("revert") and contains("boolean")' <<<"$out")" "true,true" \
	"bad option {revert: \"maybe\"}: Ansible's own check names it"
module '{confg: "/x"}'
like "$(field failed),$(field msg)" '^true,"Unsupported parameters .*: confg\.' "an unknown option: named"

# --- every option: an empty, a wrong-typed and an unknown value ---
# (those not above). The module's own check names the option in one
# line; a value only the program can judge is the program's one line,
# rc 1; where Ansible's own type check comes first, its message names
# the option and the type.
bad '{executable: ""}' "executable: empty (leave it out for the default)"
bad '{executable: ["/usr/sbin/halo-provision"]}' "executable: expected a string, got a list"
bad '{config: 5}' "config: expected a string, got an integer"
bad "{config: \"$TEST_TMP/none.conf\"}" "$TEST_TMP/none.conf: cannot open the config file: No such file or directory"
bad '{config_text: 5}' "config_text: expected a string, got an integer"
bad '{config_text: "bogus = 1;"}' 'config_text:1: unknown key "bogus"'
bad '{root: 5}' "root: expected a string, got an integer"
bad "{root: \"$TEST_TMP/nowhere\"}" "--root $TEST_TMP/nowhere: No such file or directory"
bad '{netns: "halo-no-such-ns"}' "--netns halo-no-such-ns: /run/netns/halo-no-such-ns: No such file or directory"
bad '{netns: "a/b"}' "invalid network namespace name 'a/b'"
bad '{kernel_release: ""}' "kernel_release: empty (leave it out for the default)"
bad '{kernel_release: "a/b"}' "invalid kernel release 'a/b'"
bad '{interface: 0}' "interface: expected a string, got an integer"
bad '{interface: "a:b"}' "invalid interface name 'a:b'"
# ansible_checked KEY JSON-VALUE TYPE: Ansible's own check fails the task.
ansible_checked() {
	module "{$1: $2}"
	is "$(field failed),$(jq -r --arg k "$1" --arg t "$3" \
		'.msg | contains("argument \u0027" + $k + "\u0027") and contains($t)' <<<"$out")" \
		"true,true" "bad option {$1: $2}: Ansible's own check names it"
}
ansible_checked config_data '""' dict
ansible_checked revert '""' bool
ansible_checked revert '[true]' bool
ansible_checked wait '""' int
ansible_checked wait '[1]' int
ansible_checked only '{links: true}' list
for k in config config_text root netns kernel_release interface; do
	module "{$k: \"\"}"
	is "$(field rc)" 1 "{$k: \"\"}: rc 1, as the program's usage errors"
done
# An interface no entry manages (what the hotplug unit asks for every NIC
# that appears): a warning, nothing to do.
module '{interface: "nosuch0", _ansible_check_mode: true}'
is "$(field failed),$(field rc),$(jq -r '.warnings[]' <<<"$out")" \
	"false,0,--interface nosuch0: no interface entry manages it: nothing to do" \
	"an interface no entry manages: not failed, a warning, nothing to do"
is "$(tree_snapshot "$ROOT"),$(mtu)" "$snap3,1500" "bad options: nothing changed"
module '{wait: 90000, netns: ""}'
is "$(jq -r '.errors | length' <<<"$out")" 2 "bad options: every error in errors"

# --- the program: missing, not a program, not answering JSON ---
module "{executable: \"$TEST_TMP/nowhere/halo-provision\"}"
is "$(field failed),$(field rc),$(jq -r .msg <<<"$out")" \
	"true,1,halo-provision is not installed on this node ($TEST_TMP/nowhere/halo-provision does not exist): install the halo-provision package (the halo.provision.node role does, with halo_package or halo_package_file)" \
	"a node without the program: one line naming the package"
module "{executable: \"$ROOT/etc\"}"
is "$(field failed),$(jq -r .msg <<<"$out")" "true,$ROOT/etc: not an executable file" "a directory: not run"
module '{executable: "/bin/true"}'
is "$(field failed),$(jq -r .msg <<<"$out")" "true,/bin/true exited 0 without a JSON answer: no output" \
	"a program that answers no JSON: failed, one line"
# fake_program NAME JSON: a program that prints JSON and exits 2.
fake_program() {
	mkdir -p "$TEST_TMP/fake"
	printf '%s\n' "$2" >"$TEST_TMP/fake/$1.json"
	printf '#!/bin/sh\ncat %s\nexit 2\n' "$TEST_TMP/fake/$1.json" >"$TEST_TMP/fake/$1"
	chmod 0755 "$TEST_TMP/fake/$1"
	echo "$TEST_TMP/fake/$1"
}
# unreadable NAME JSON REASON: the module refuses the answer with one line.
unreadable() {
	local prog
	prog=$(fake_program "$1" "$2")
	module "{executable: \"$prog\", _ansible_diff: true}"
	is "$rc,$(field failed),$(field rc),$(jq -r .msg <<<"$out")" \
		"1,true,1,$prog exited 2 with an answer this module cannot read: $3" \
		"an answer with $1: failed, one line"
	unlike "$err$out" 'Traceback' "an answer with $1: no traceback"
}
unreadable array '[1, 2]' 'a JSON list, not an object'
unreadable items-string '{"items": "x"}' 'its items are not a list of objects with a key'
unreadable item-without-key '{"items": [{"outcome": "ok"}]}' 'its items are not a list of objects with a key'
unreadable config-string '{"config": "x", "items": []}' 'its config is not an object'
unreadable warning-number '{"items": [], "warnings": [5]}' 'its warnings are not a list of strings'
deep=$(fake_program deep "$(printf '%*s' 5000 '' | tr ' ' '[')")
module "{executable: \"$deep\"}"
is "$(field failed),$(jq -r .msg <<<"$out")" "true,$deep exited 2 without a JSON answer: not JSON" \
	"JSON nested 5000 deep: failed, one line"
unlike "$err$out" 'Traceback' "JSON nested 5000 deep: no traceback"
# A program killed by a signal: after its answer (the node's own program,
# then a SIGTERM), the answer is kept and the task fails with +4; before
# any answer, one line naming the signal.
printf '#!/bin/sh\n"%s" "$@"\nkill -TERM $$\n' "$PROG" >"$TEST_TMP/fake/term-after"
printf '#!/bin/sh\nkill -KILL $$\n' >"$TEST_TMP/fake/kill-before"
printf '#!/bin/sh\nkill -40 $$\n' >"$TEST_TMP/fake/rt-before" # no name in Python's signal.Signals
chmod 0755 "$TEST_TMP/fake/term-after" "$TEST_TMP/fake/kill-before" "$TEST_TMP/fake/rt-before"
snap4=$(tree_snapshot "$ROOT")
module "{executable: \"$TEST_TMP/fake/term-after\", _ansible_check_mode: true}"
is "$rc,$(field failed),$(field rc),$(field changed)" "1,true,6,true" \
	"killed after its answer: failed, rc 2|4, changed as answered"
like "$(jq -r .msg <<<"$out")" "^$TEST_TMP/fake/term-after was killed by SIGTERM after its answer \\(dry-run: [0-9]+ items" \
	"killed after its answer: one line naming the signal and the answer's summary"
is "$(jq -r '.items[] | select(.key == "link/rdma0/mtu") | .outcome' <<<"$out")" drift \
	"killed after its answer: its items are kept"
module "{executable: \"$TEST_TMP/fake/term-after\", _ansible_check_mode: true, config_data: {version: 1, access: {memlock: \"unlimited\"}}}"
is "$(field failed),$(field rc)" "true,4" "killed after an args-file answer: failed, rc 0|4"
like "$(jq -r .msg <<<"$out")" "^$TEST_TMP/fake/term-after was killed by SIGTERM after its answer \\(" \
	"killed after an args-file answer: one line naming the signal"
module "{executable: \"$TEST_TMP/fake/kill-before\"}"
is "$(field failed),$(field rc),$(jq -r .msg <<<"$out")" \
	"true,1,$TEST_TMP/fake/kill-before was killed by SIGKILL without a JSON answer: no output" \
	"killed before any answer: failed, one line naming the signal"
module "{executable: \"$TEST_TMP/fake/rt-before\"}"
is "$(field failed),$(jq -r .msg <<<"$out")" \
	"true,$TEST_TMP/fake/rt-before was killed by signal 40 without a JSON answer: no output" \
	"killed by a signal without a name: failed, one line with its number"
unlike "$err$out" 'Traceback' "killed by a signal without a name: no traceback"
is "$(tree_snapshot "$ROOT"),$(mtu)" "$snap4,1500" "killed runs: nothing changed"
# Executable, but not a program the kernel can start.
printf 'not a program\n' >"$TEST_TMP/fake/text" && chmod 0755 "$TEST_TMP/fake/text"
module "{executable: \"$TEST_TMP/fake/text\"}"
is "$(field failed),$(field rc),$(jq -r .msg <<<"$out")" \
	"true,1,$TEST_TMP/fake/text cannot be run: Exec format error" \
	"a text file with the execute bit: failed, rc 1 (not the errno), one line"
is "$(field reboot_required),$(field items)" "false,[]" "... with reboot_required and items, as always"
is "$(tree_snapshot "$ROOT"),$(mtu)" "$snap3,1500" "nothing changed"

done_testing
