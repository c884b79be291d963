#!/bin/bash
# The units' confinement, as systemd-analyze security --offline=true
# rates it (0 is fully confined, 10 not at all): the read-only audit at
# most 2.5 ("OK"), the units that apply at most 6.0 ("MEDIUM"); the
# scores README.md lists are the ones measured. And what their jobs need
# is still granted: units-boot.sh runs them under a real systemd.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/lib/units.sh"

# The template is rated as its instance halo-provision@eth0.service.
units_scratch "$TEST_TMP/units"

# exposure UNIT: the overall exposure, e.g. "1.7 OK".
exposure() {
	systemd-analyze security --offline=true --no-pager "$TEST_TMP/units/$1" 2>&1 |
		sed -n "s/^→ Overall exposure level for $1: \([0-9.]*\) \([A-Z]*\).*/\1 \2/p"
}
# README.md's exposure column for UNIT (the template's row names it
# halo-provision@.service).
readme_exposure() {
	local row=${1/@eth0/@}
	grep -F "| \`$row\` |" "$top_srcdir/README.md" |
		sed -n 's/.*| \([0-9]\.[0-9] [A-Z]*\) |$/\1/p'
}

for u in halo-provision-check.service:25 halo-provision-firstboot.service:60 \
	 halo-provision.service:60 halo-provision@eth0.service:60; do
	unit=${u%:*}
	ceiling=${u#*:}
	got=$(exposure "$unit")
	like "$got" '^[0-9]+\.[0-9] [A-Z]+$' "$unit: systemd-analyze security rates it ($got)"
	systemd-analyze security --offline=true --threshold="$ceiling" --no-pager \
		"$TEST_TMP/units/$unit" >/dev/null 2>&1
	ok $? "$unit: exposure at most ${ceiling:0:1}.${ceiling:1} (--threshold=$ceiling)"
	is "$(readme_exposure "$unit")" "$got" "$unit: README.md lists $got"
done

# What systemd reads from a unit: every value of KEY, one word a line.
words() { sed -n "s/^$2=//p" "$TEST_TMP/units/$1" | tr ' ' '\n' | sed '/^$/d'; }
has() { words "$1" "$2" | grep -qxF -- "$3"; }
value() { sed -n "s/^$2=//p" "$TEST_TMP/units/$1" | tail -1; }

check=halo-provision-check.service
firstboot=halo-provision-firstboot.service
runtime=halo-provision.service
hotplug=halo-provision@eth0.service

for u in "$check" "$firstboot" "$runtime" "$hotplug"; do
	is "$(value "$u" NoNewPrivileges)/$(value "$u" ProtectSystem)" yes/strict \
		"$u: NoNewPrivileges=yes, ProtectSystem=strict"
	is "$(words "$u" RestrictAddressFamilies | sort | tr '\n' ' ')" "AF_NETLINK AF_UNIX " \
		"$u: netlink and unix sockets only"
done

# The audit reads: no capability; writes the run lock and the textfile.
grep -qx 'CapabilityBoundingSet=' "$TEST_TMP/units/$check"
ok $? "$check: an empty capability bounding set"
is "$(words "$check" ReadWritePaths | tr '\n' ' ')" "/run -/var/lib/prometheus/node-exporter " \
	"$check: writable: /run (the lock) and the textfile's directory"
! has "$check" SystemCallFilter @module
ok $? "$check: no module system calls"

# The applying units keep what their job needs: links and DCB (all),
# module loading (first boot, every boot), /etc, /var and /run writable
# (all), /boot (first boot: update-grub, grubby).
for u in "$firstboot" "$runtime" "$hotplug"; do
	has "$u" CapabilityBoundingSet CAP_NET_ADMIN
	ok $? "$u: CAP_NET_ADMIN (links, addresses, DCB)"
	for p in /etc /var /run; do
		has "$u" ReadWritePaths "$p"
		ok $? "$u: $p writable"
	done
done
for u in "$firstboot" "$runtime"; do
	has "$u" CapabilityBoundingSet CAP_SYS_MODULE && has "$u" SystemCallFilter @module
	ok $? "$u: CAP_SYS_MODULE and the @module system calls (module loading)"
	[ "$(value "$u" ProtectKernelModules)" != yes ]
	ok $? "$u: the module tree is visible (no ProtectKernelModules=yes)"
done
has "$firstboot" ReadWritePaths -/boot
ok $? "$firstboot: /boot writable where there is one"

done_testing
