#!/bin/bash
# access.gpu_group / rdma_group / gpu_mode: the udev rule
# /etc/udev/rules.d/70-halo-access.rules in a --root fixture tree. Apply
# writes it, a second apply writes nothing, --check and --diff see a manual
# edit, bad inputs (a group the root's /etc/group lacks, a bad gpu_mode, a
# symlink at the rule's path) exit 1 with one line and the root unchanged.
# Then the real udev rule engine (`udevadm test`) reads the rendered rule:
# no complaint about it, and (on a test copy aimed at /dev/null, the device
# every machine has) it sets the group and mode; a broken copy is
# reported, so the check can fail.
#
# udevadm test applies permissions to the device node and writes the udev
# database: it runs in a private mount namespace in which tmpfs mounts hide
# /etc/udev/rules.d, /run and /dev, and the root's /etc/group is bound over
# /etc/group (udev resolves GROUP= through it).
source "$top_srcdir/tests/lib/tap.sh"

ROOT=$TEST_TMP/root
CONF=$TEST_TMP/halo.conf
RULE=$ROOT/etc/udev/rules.d/70-halo-access.rules
mkdir -p "$ROOT/etc" "$ROOT/sys/class/net"
printf 'root:x:0:\nvideo:x:44:\nrender:x:105:\nrdma:x:990:alice\n' >"$ROOT/etc/group"

conf() { # conf ACCESS-BODY
	write_conf "$CONF" <<EOF
version = 1;
access = {
$1
};
EOF
}
halo() { run_halo -c "$CONF" --root "$ROOT" --only files "$@"; }
item() { jq -r --arg k "$1" ".items[] | select(.key == \$k) | .$2" <<<"$out"; }
rules() { grep -v '^#' "$RULE"; }

conf '  rdma_group = "rdma";
  gpu_group = "render";'

# --- apply, then nothing to do ---
halo --json
is "$rc" 2 "apply: exit 2 (changed)"
[ -n "$err" ] && diag "$err"
is "$(item file/etc/udev/rules.d/70-halo-access.rules outcome)" changed "the rule's item changed"
like "$(item file/etc/udev/rules.d/70-halo-access.rules note)" 'udevadm control --reload' \
	"its note says how udev picks it up"
is "$(rules)" 'SUBSYSTEM=="kfd", KERNEL=="kfd", GROUP="render", MODE="0660"
SUBSYSTEM=="drm", KERNEL=="renderD*", GROUP="render", MODE="0660"
SUBSYSTEM=="infiniband_mad", KERNEL=="umad*|issm*", GROUP="rdma", MODE="0660"' \
	"the rule: GPU nodes to render 0660, umad/issm to rdma (uverbs, rdma_cm untouched)"
head -1 "$RULE" | grep -q '^# Managed by halo-provision'
ok $? "the rule starts with the managed header"
is "$(stat -c %a "$RULE")" 644 "mode 0644"

snap=$(tree_snapshot "$ROOT")
halo --json
is "$rc" 0 "second apply: exit 0"
is "$(jq -r '.summary.changed, .stats.files_written' <<<"$out" | paste -sd/)" "0/0" \
	"second apply: changed=0, no file written"
is "$(tree_snapshot "$ROOT")" "$snap" "second apply: the tree snapshot is identical"

# --- drift: a manual edit ---
sed -i 's/GROUP="render", MODE="0660"/GROUP="render", MODE="0666"/' "$RULE"
snap=$(tree_snapshot "$ROOT")
halo --check --diff
is "$rc" 2 "check after a manual edit: exit 2 (drift)"
like "$out" '^drift +file/etc/udev/rules.d/70-halo-access.rules' "check names the rule as drift"
like "$out" '^-SUBSYSTEM=="kfd", KERNEL=="kfd", GROUP="render", MODE="0666"' "--diff: the edited line goes"
like "$out" '^\+SUBSYSTEM=="kfd", KERNEL=="kfd", GROUP="render", MODE="0660"' "--diff: the wanted line comes"
is "$(tree_snapshot "$ROOT")" "$snap" "check changed nothing"
halo
is "$rc" 2 "apply repairs the edit: exit 2"
is "$(grep -c 'MODE="0666"' "$RULE")" 0 "the edit is gone"

# --- gpu_mode: 0666 only when the config says so ---
conf '  gpu_group = "video";
  gpu_mode = "0666";'
halo
is "$rc" 2 "gpu_mode = \"0666\": exit 2"
is "$(rules)" 'SUBSYSTEM=="kfd", KERNEL=="kfd", GROUP="video", MODE="0666"
SUBSYSTEM=="drm", KERNEL=="renderD*", GROUP="video", MODE="0666"' \
	"gpu_mode 0666 and no rdma_group: GPU lines only, mode as configured"

# --- bad inputs: exit 1, one line, nothing changed ---
bad() { # bad DESCRIPTION REGEX: the last written config is refused
	local before
	before=$(tree_snapshot "$ROOT")
	halo
	is "$rc" 1 "$1: exit 1"
	is "$(printf '%s\n' "$err" | grep -c .)" 1 "$1: one line on stderr"
	like "$err" "$2" "$1: the message"
	is "$(tree_snapshot "$ROOT")" "$before" "$1: the root is unchanged"
}
conf '  gpu_group = "render";
  rdma_group = "nosuchgrp";'
bad "unknown rdma_group" "halo\.conf:4: access\.rdma_group: group \"nosuchgrp\" is not in .*/root/etc/group"
conf '  gpu_group = "alice";'
bad "a member is not a group" "halo\.conf:3: access\.gpu_group: group \"alice\" is not in"
conf '  gpu_group = "render";
  gpu_mode = "0777";'
bad "gpu_mode with execute bits" 'halo\.conf:4: access\.gpu_mode: "0777" has an execute bit'
conf '  gpu_group = "render";
  gpu_mode = "0660\"\nRUN+=\"/bin/sh";'
bad "gpu_mode with an injected line" 'halo\.conf:4: access\.gpu_mode: .* is not a device mode'
conf '  gpu_group = "render\"\nRUN+=\"x";'
bad "gpu_group with an injected line" 'halo\.conf:3: access\.gpu_group: .* is not a group name'
mv "$ROOT/etc/group" "$ROOT/etc/group.away"
conf '  gpu_group = "render";'
bad "no /etc/group in the root" 'access\.gpu_group: cannot check group "render": .*/etc/group does not exist'
mv "$ROOT/etc/group.away" "$ROOT/etc/group"

# A symlink planted at the rule's path: refused, its target untouched.
echo 'precious' >"$TEST_TMP/target"
rm "$RULE"
ln -s "$TEST_TMP/target" "$RULE"
bad "a symlink at the rule's path" 'refusing to write through a symlink: .*70-halo-access\.rules'
is "$(cat "$TEST_TMP/target")" precious "the symlink's target is untouched"
rm "$RULE"

# --- groups no longer configured: our rule goes ---
conf '  gpu_group = "render";'
halo
is "$rc" 2 "rule written again"
conf '  memlock = "unlimited";'
halo
is "$rc" 2 "no group configured: exit 2"
test ! -e "$RULE"
ok $? "no group configured: the rule is removed"
conf '  gpu_group = "render";
  rdma_group = "rdma";'
halo
is "$rc" 2 "both groups again"

# --- no group asked for: a rule without the managed header is the admin's ---
cp "$RULE" "$TEST_TMP/ours.rules"
printf 'SUBSYSTEM=="kfd", GROUP="wheel"\n' >"$RULE"
snap=$(stat -c '%i %.9Y' "$RULE"; cat "$RULE")
conf ''
halo --json
is "$rc" 0 "an admin's rule at our path, no group asked for: exit 0"
is "$(stat -c '%i %.9Y' "$RULE"; cat "$RULE")" "$snap" "... the admin's rule is left as it is"
like "$(item file/etc/udev/rules.d/70-halo-access.rules message)" 'not ours \(no .* header\)' \
	"... and the item says it is not ours"
cp "$TEST_TMP/ours.rules" "$RULE"

# --- --revert with a group the root lost since the apply ---
conf '  gpu_group = "render";
  rdma_group = "rdma";'
sed -i '/^rdma:/d' "$ROOT/etc/group"
halo --revert
is "$rc" 2 "--revert after rdma left /etc/group: exit 2 (removed)"
is "$err" "" "... no error"
test ! -e "$RULE"
ok $? "... the rule is removed"
echo 'rdma:x:990:alice' >>"$ROOT/etc/group"
halo
is "$rc" 2 "both groups again after the revert"

# --- the real udev rule engine ---
if ! command -v udevadm >/dev/null; then
	ok 0 "# SKIP udevadm not installed"
	done_testing
	exit
fi
if ! unshare -m true 2>/dev/null || [ ! -d /etc/udev/rules.d ] || [ ! -e /sys/devices/virtual/mem/null ]; then
	ok 0 "# SKIP no mount namespace, /etc/udev/rules.d or /sys/devices/virtual/mem/null"
	done_testing
	exit
fi

host_state() { ls -la /etc/udev/rules.d /dev/null /etc/group; sha256sum /etc/group; }
host_before=$(host_state)

# udevadm_test RULES_DIR GROUP_FILE: `udevadm test --action=add` of
# /dev/null's device with RULES_DIR as /etc/udev/rules.d; stderr (the
# parse log) in $TEST_TMP/udevadm.err, stdout in $TEST_TMP/udevadm.out,
# the namespace's /dev/null afterwards in $TEST_TMP/devnull.
udevadm_test() {
	unshare -m bash -c '
		set -e
		mount --make-rprivate /
		mount -t tmpfs tmpfs /etc/udev/rules.d
		cp "$1"/*.rules /etc/udev/rules.d/
		mount --bind "$2" /etc/group
		mount -t tmpfs tmpfs /run
		mkdir /run/udev
		mount -t tmpfs tmpfs /dev
		mknod -m 0666 /dev/null c 1 3
		udevadm test --action=add /sys/devices/virtual/mem/null >"$3/udevadm.out" 2>"$3/udevadm.err"
		stat -c "%a %g" /dev/null >"$3/devnull"
	' udevadm-test "$1" "$2" "$TEST_TMP"
}
# The log lines udev writes about a rules file while reading it start
# with its path and line ("…/70-halo-access.rules:3 Invalid key 'GRUOP'").
complaints() { grep -E "^/etc/udev/rules.d/$1:[0-9]+ " "$TEST_TMP/udevadm.err"; }

mkdir -p "$TEST_TMP/rules"
cp "$RULE" "$TEST_TMP/rules/"
udevadm_test "$TEST_TMP/rules" "$ROOT/etc/group"
is "$?" 0 "udevadm test with the rendered rule: exit 0"
grep -q 'Reading rules file: /etc/udev/rules.d/70-halo-access.rules' "$TEST_TMP/udevadm.err"
ok $? "udevadm read the rendered rule"
is "$(complaints 70-halo-access.rules)" "" "udevadm has no complaint about the rendered rule"

# Semantics: the GPU line aimed at /dev/null (subsystem mem) sets its
# group and mode as the rule says.
mkdir -p "$TEST_TMP/aimed"
sed -n 's/SUBSYSTEM=="drm", KERNEL=="renderD\*"/SUBSYSTEM=="mem", KERNEL=="null"/p' "$RULE" \
	>"$TEST_TMP/aimed/70-halo-access.rules"
is "$(grep -c 'KERNEL=="null", GROUP="render", MODE="0660"' "$TEST_TMP/aimed/70-halo-access.rules")" 1 \
	"test copy: the renderD* line aimed at /dev/null"
udevadm_test "$TEST_TMP/aimed" "$ROOT/etc/group"
grep -q 'Setting permissions /dev/null, uid=0, gid=105, mode=0660' "$TEST_TMP/udevadm.err"
ok $? "udev sets /dev/null to gid 105 (render in the root's /etc/group), mode 0660"
is "$(cat "$TEST_TMP/devnull")" "660 105" "the (namespace's) node has that group and mode"

# The check can fail: a misspelt key and a group the file lacks.
mkdir -p "$TEST_TMP/broken"
sed -e '0,/GROUP=/s/GROUP=/GRUOP=/' -e 's/GROUP="rdma"/GROUP="nosuchgrp"/' "$RULE" \
	>"$TEST_TMP/broken/70-halo-access.rules"
udevadm_test "$TEST_TMP/broken" "$ROOT/etc/group"
like "$(complaints 70-halo-access.rules)" "70-halo-access.rules:[0-9]+ Invalid key 'GRUOP'" \
	"a broken rule is reported (invalid key)"
like "$(complaints 70-halo-access.rules)" "Unknown group 'nosuchgrp'" \
	"a broken rule is reported (unknown group)"

is "$(host_state)" "$host_before" "the host's rules.d, /dev/null and /etc/group are untouched"

done_testing
