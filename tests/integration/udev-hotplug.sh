#!/bin/bash
# The shipped udev rule, run by the real udev rule engine (`udevadm test
# --action=add`) together with the host's own rules, on a veth in a
# network namespace that systemd's 80-net-setup-link.rules renames: the
# netdev's device unit must want halo-provision@<final name>.service.
#
# Nothing of the host changes: udevadm runs inside `ip netns exec` (its
# own sysfs view, the namespace's links only) and a private mount
# namespace in which tmpfs mounts hide /etc/udev/rules.d (the test copy of
# the rule), /etc/systemd/network (a .link file that renames the veth) and
# /run (the udev database udevadm test writes).
source "$top_srcdir/tests/lib/tap.sh"

RULE_NAME=90-halo-provision.rules
RULE=$top_srcdir/udev/$RULE_NAME

command -v udevadm >/dev/null || { echo "1..0 # SKIP udevadm not installed"; exit 0; }
for d in /etc/udev/rules.d /etc/systemd/network /usr/lib/udev/rules.d/80-net-setup-link.rules; do
	# mounting over a directory must not create it on the host
	[ -e "$d" ] || { echo "1..0 # SKIP $d missing"; exit 0; }
done
NS=$(new_netns udev) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }

# The package installs the rule that is tested here (data.mk).
installed=$(sed -n 's/^dist_udevrules_DATA = *//p' "$top_builddir/Makefile")
is "$installed" "udev/$RULE_NAME" "the package installs udev/$RULE_NAME"

# The test copy: veth joins the RDMA drivers, nothing else changes.
mkdir -p "$TEST_TMP/rules" "$TEST_TMP/network"
sed 's/ENV{ID_NET_DRIVER}=="\([^"]*\)"/ENV{ID_NET_DRIVER}=="\1|veth"/' "$RULE" \
	>"$TEST_TMP/rules/$RULE_NAME"
is "$(diff "$RULE" "$TEST_TMP/rules/$RULE_NAME" | grep -c '^[<>]')" 2 \
	"test copy: one line differs (the driver list)"
grep -q '=="[^"]*|veth"' "$TEST_TMP/rules/$RULE_NAME"
ok $? "test copy: veth is in the driver list"

host_state() { ls -la /etc/udev/rules.d /etc/systemd/network 2>&1; ls -laR /run/udev 2>&1; }
host_before=$(host_state)

# udevadm_add RULES_DIR KERNEL_NAME: `udevadm test --action=add` of the
# namespace's KERNEL_NAME with RULES_DIR as /etc/udev/rules.d and a .link
# file renaming it to hx-<n>; stdout is udevadm's output.
udevadm_add() {
	ip netns exec "$NS" unshare -m bash -c '
		set -e
		mount --make-rprivate /
		mount -t tmpfs tmpfs /etc/udev/rules.d
		cp "$1"/*.rules /etc/udev/rules.d/
		mount -t tmpfs tmpfs /etc/systemd/network
		cp "$2"/*.link /etc/systemd/network/
		mount -t tmpfs tmpfs /run
		mkdir /run/udev
		exec udevadm test --action=add "/sys/class/net/$3"
	' udevadm-add "$1" "$TEST_TMP/network" "$2" 2>"$TEST_TMP/udevadm.err"
}
prop() { sed -n "s/^$1=//p" <<<"$out"; }

# A NIC that 80-net-setup-link.rules renames: the kernel's eth-like name
# becomes a predictable one (here through a .link file's Name=).
ip -n "$NS" link add hxk0 type veth peer name hxp0
cat >"$TEST_TMP/network/10-halo-test.link" <<'LINK'
[Match]
OriginalName=hxk0 hxk1
[Link]
Name=hxren0
LINK
out=$(udevadm_add "$TEST_TMP/rules" hxk0)
rc=$?
is "$rc" 0 "udevadm test --action=add: exit 0"
[ "$rc" -eq 0 ] || diag "$(tail -5 "$TEST_TMP/udevadm.err")"
is "$(prop ID_NET_DRIVER)" veth "80-net-setup-link.rules set ID_NET_DRIVER=veth"
is "$(prop INTERFACE_OLD) -> $(prop INTERFACE)" "hxk0 -> hxren0" "the netdev was renamed hxk0 -> hxren0"
like "$(prop TAGS)" ':systemd:' "tagged for systemd"
is "$(prop SYSTEMD_WANTS)" "halo-provision@hxren0.service" \
	"SYSTEMD_WANTS=halo-provision@<final name>.service"
grep -q "Reading rules file: /etc/udev/rules.d/$RULE_NAME" "$TEST_TMP/udevadm.err"
ok $? "udevadm read the test copy of $RULE_NAME"

# A netdev of another driver: the shipped list (without veth) ignores it.
ip -n "$NS" link del hxren0
ip -n "$NS" link add hxk1 type veth peer name hxp1
mkdir -p "$TEST_TMP/shipped"
cp "$RULE" "$TEST_TMP/shipped/"
out=$(udevadm_add "$TEST_TMP/shipped" hxk1)
is "$?:$(prop ID_NET_DRIVER):$(prop INTERFACE)" "0:veth:hxren0" "shipped rule, veth netdev: processed and renamed"
is "$(prop SYSTEMD_WANTS)" "" "... but not one of the RDMA drivers: no unit wanted"

# Why the number matters: the same rule before 80-net-setup-link.rules
# sees no ID_NET_DRIVER (and %k, $name are still the first name).
ip -n "$NS" link del hxren0
ip -n "$NS" link add hxk2 type veth peer name hxp2
sed -i 's/hxk0 hxk1/hxk0 hxk1 hxk2/' "$TEST_TMP/network/10-halo-test.link"
mkdir -p "$TEST_TMP/early"
cp "$TEST_TMP/rules/$RULE_NAME" "$TEST_TMP/early/70-halo-provision.rules"
out=$(udevadm_add "$TEST_TMP/early" hxk2)
is "$?:$(prop INTERFACE)" "0:hxren0" "the rule as 70-halo-provision.rules: processed and renamed"
is "$(prop SYSTEMD_WANTS)" "" "... but it never fires there"

is "$(host_state)" "$host_before" "the host's rules, .link files and /run/udev are untouched"

done_testing
