#!/bin/bash
# The shipped systemd units are valid for systemd itself, and the rendered
# units point at the configured binary.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/lib/units.sh"

units="$top_builddir/systemd"
units_scratch "$TEST_TMP/units"

for f in "$TEST_TMP"/units/*; do
	out=$(cd "$TEST_TMP/units" && SYSTEMD_LOG_LEVEL=warning \
		systemd-analyze verify --man=no "$f" 2>&1)
	is "$out" "" "systemd-analyze verify $(basename "$f")"
done

for f in "$units"/*.service; do
	exec_line=$(grep '^ExecStart=' "$f")
	like "$exec_line" '^ExecStart=/[^ ]*/halo-provision( |$)' \
		"$(basename "$f"): ExecStart is an absolute path to halo-provision"
	! grep -q '@sbindir@' "$f"
	ok $? "$(basename "$f"): no unsubstituted placeholder"
done

# What systemd reads from a unit: every value of KEY, in order, one line
# each (a key may repeat; a value may list several words).
words() { sed -n "s/^$2=//p" "$1" | tr ' ' '\n' | sed '/^$/d'; }
has() { # has FILE KEY WORD
	words "$1" "$2" | grep -qxF -- "$3"
}
firstboot=$units/halo-provision-firstboot.service
runtime=$units/halo-provision.service
hotplug=$units/halo-provision@.service

# systemd.unit(5): a ConditionFirstBoot unit wants and precedes
# first-boot-complete.target, or an aborted first boot never re-runs it
# (the machine ID is committed once that target is reached).
has "$firstboot" Wants first-boot-complete.target
ok $? "first-boot unit: Wants=first-boot-complete.target"
has "$firstboot" Before first-boot-complete.target
ok $? "first-boot unit: Before=first-boot-complete.target"

# systemd-udev-settle.service is deprecated (and slows every boot).
for f in "$units"/*.service; do
	! grep -v '^#' "$f" | grep -q 'udev-settle'
	ok $? "$(basename "$f"): no systemd-udev-settle.service"
done

# The runtime unit: modules loaded and coldplug events queued; after the
# network managers have started (their settings would otherwise win);
# before network.target and network-online.target.
for dep in systemd-modules-load.service systemd-udev-trigger.service \
	   NetworkManager.service systemd-networkd.service; do
	has "$runtime" After "$dep"
	ok $? "runtime unit: After=$dep"
done
for dep in network.target network-online.target; do
	has "$runtime" Before "$dep"
	ok $? "runtime unit: Before=$dep"
done

# Changed (2), reboot or driver reload pending (8), both (10) are success
# for every unit that applies; failed items (4) and errors (1) are not.
for f in "$firstboot" "$runtime" "$hotplug"; do
	is "$(words "$f" SuccessExitStatus | sort -n | tr '\n' ' ')" "2 8 10 " \
		"$(basename "$f"): SuccessExitStatus=2 8 10"
done

# The hotplug unit applies the one interface it was started for. %i is
# the instance as udev wrote it: %I would turn a '-' into a '/'. Runs wait
# for the run lock (--wait), so no restart loop; and no dependency on the
# device unit named from %i, whose name is the *escaped* path (a '-' in
# the interface name becomes \x2d there, and the unit would wait for a
# device that never appears).
like "$(grep '^ExecStart=' "$hotplug")" ' --interface %i( |$)' \
	"hotplug unit: ExecStart passes --interface %i"
like "$(grep '^ExecStart=' "$hotplug")" ' --only links,roce,rdma( |$)' \
	"hotplug unit: ExecStart limits the run to links, roce, rdma"
! grep -q '^Restart=' "$hotplug"
ok $? "hotplug unit: no Restart= (the run lock waits)"
! grep -v '^#' "$hotplug" | grep -q 'devices-%i'
ok $? "hotplug unit: no device unit named from the unescaped instance"

# The whole boot transaction, with the host's own units (networkd, the
# targets) and a NetworkManager unit with Debian 12's ordering: pulling
# everything in must not produce an ordering cycle (systemd-analyze
# reports one as "Found ordering cycle", and deletes a job to break it).
cat >"$TEST_TMP/units/NetworkManager.service" <<'UNIT'
# Stand-in with the ordering of Debian 12's NetworkManager.service.
[Unit]
Wants=network.target
After=network-pre.target dbus.service
Before=network.target

[Service]
ExecStart=/bin/true
UNIT
cat >"$TEST_TMP/units/halo-boot-probe.target" <<'UNIT'
[Unit]
Description=every halo-provision unit and what it is ordered against
Wants=multi-user.target first-boot-complete.target network-online.target
Wants=NetworkManager.service systemd-networkd.service systemd-modules-load.service
Wants=systemd-udev-trigger.service halo-provision-firstboot.service
Wants=halo-provision.service halo-provision@eth0.service halo-provision@rdma-a.service
Wants=halo-provision-check.timer
UNIT
cp "$TEST_TMP/units/halo-provision@eth0.service" "$TEST_TMP/units/halo-provision@rdma-a.service"
out=$(cd "$TEST_TMP/units" && SYSTEMD_LOG_LEVEL=warning \
	systemd-analyze verify --man=no "$TEST_TMP/units/halo-boot-probe.target" 2>&1)
is "$(grep -i 'cycle' <<<"$out")" "" "boot transaction: no ordering cycle"

done_testing
