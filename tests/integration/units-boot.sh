#!/bin/bash
# The shipped units under a real systemd: a Debian 12 root (debootstrap,
# cached between runs; tests/lib/debian-root.sh) with the project's .deb
# installed by dpkg, booted three times with systemd-nspawn --boot
# --register=no inside a network namespace of the test's (a veth pair,
# rdma0 managed by the config). What the units did is read from inside
# the booted container: a probe unit of the test's, ordered after
# multi-user.target, records systemctl's and ip's view in a file of the
# root, then powers the container off (tests/lib/container.sh says why
# not machinectl). The units run as installed, hardening included: a
# confinement that stops a unit's job fails here.
#
#   boot 1 (first boot): the first-boot unit applies the config (links,
#     the kernel command line in /etc, a sysctl, the memlock drop-ins, the
#     textfile), the every-boot unit finds it applied.
#   between: MTU and addresses are reset from outside, as a reboot does;
#     a drop-in makes the audit timer fire 2 s after boot.
#   boot 2: the first-boot unit does not run again; the every-boot unit
#     puts MTU and addresses back; the audit timer's --check rewrites the
#     textfile (promtool reads it); the per-interface unit runs.
#   between: rdma0 is deleted.
#   boot 3: the every-boot unit fails (no link for rdma0), and systemctl
#     says so.
#
# Like the package test, it runs once per CI: it skips in a sanitizer
# build and under valgrind (the container runs the packaged binary).
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/debian-deb.sh"
. "$top_srcdir/tests/lib/debian-root.sh"
. "$top_srcdir/tests/lib/container.sh"

container_require
t0=$SECONDS

# The .deb: the package test's when it is newer than the binary and the
# units (the suite orders this test after it), else built here.
deb_for_test
ok 0 "the .deb: ${deb##*/}"

# The base root: systemd and the package's dependencies, as Depends names
# them.
t1=$SECONDS
mapfile -t depends < <(deb_depends "$deb")
base=$(debian_root "${depends[@]}")
ok $? "a Debian 12 root with systemd and ${depends[*]}"
[ -d "$base" ] || { done_testing; exit 1; }
diag "base root in $((SECONDS - t1)) s ($base)"

root=$TEST_TMP/root
cp -a "$base" "$root"
ok $? "the root copied for this run"

# dpkg -i in the container, not booted: the maintainer scripts enable the
# units and start nothing (no /run/systemd/system).
cp "$deb" "$root/var/tmp/"
container_run "$TEST_TMP/dpkg.log" 120 -D "$root" --pipe \
	dpkg -i "/var/tmp/${deb##*/}"
ok $? "dpkg -i in the root: the dependencies are there"
rm -f "$root/var/tmp/${deb##*/}"
for u in sysinit.target.wants/halo-provision-firstboot.service \
	 multi-user.target.wants/halo-provision.service \
	 timers.target.wants/halo-provision-check.timer; do
	[ -L "$root/etc/systemd/system/$u" ]
	ok $? "the package enabled ${u#*/}"
done

# The network: rdma0 and its peer in a namespace of the test's, which the
# container joins.
NS=$(new_netns boot)
ip -n "$NS" link add rdma0 type veth peer name peer0 &&
	ip -n "$NS" link set peer0 up
ok $? "veth pair rdma0 / peer0 in $NS"

mkdir -p "$root/etc/halo-provision" "$root/var/lib/prometheus/node-exporter"
write_conf "$root/etc/halo-provision/halo.conf" <<'CONF'
version = 1;
boot = { loader = "kernel-cmdline"; iommu = "pt"; };
interfaces = (
  { name = "rdma0"; mtu = 9000; addresses = [ "192.168.77.1/24", "fd00:77::1/64" ]; }
);
sysctl = { settings = [ "net.ipv4.tcp_ecn = 1" ]; };
access = { memlock = "unlimited"; };
state = { prometheus = "/var/lib/prometheus/node-exporter/halo-provision.prom"; };
CONF

# The probe: after multi-user.target, what systemd and the kernel say,
# one file each under /var/lib/halo-probe/N (N from /etc/halo-probe/boot);
# with /etc/halo-probe/wait-check, first waits (60 s at most) for the
# audit service to have run in this boot. Then the container powers off,
# whatever the probe's outcome.
mkdir -p "$root/etc/halo-probe" "$root/usr/local/sbin"
cat >"$root/usr/local/sbin/halo-probe" <<'PROBE'
#!/bin/sh
n=$(cat /etc/halo-probe/boot)
d=/var/lib/halo-probe/$n
mkdir -p "$d"
if [ -e /etc/halo-probe/wait-check ]; then
	i=0
	while [ "$(systemctl show -P ExecMainExitTimestampMonotonic halo-provision-check.service)" = 0 ] &&
		[ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
fi
if [ -e /etc/halo-probe/start-template ]; then
	systemctl start halo-provision@rdma0.service
	echo $? >"$d/template-start"
fi
for u in halo-provision-firstboot.service halo-provision.service \
	 halo-provision-check.service halo-provision@rdma0.service; do
	systemctl show -p ActiveState -p Result -p ExecMainStatus -p ConditionResult \
		-p ExecMainStartTimestampMonotonic "$u" >"$d/$u"
done
systemctl list-units --failed --plain --no-legend >"$d/failed" 2>&1
systemctl is-failed halo-provision.service >"$d/is-failed" 2>&1
ip -o link show dev rdma0 >"$d/link" 2>&1
ip -o addr show dev rdma0 >"$d/addr" 2>&1
cat /proc/sys/net/ipv4/tcp_ecn >"$d/tcp_ecn" 2>&1
journalctl -b --no-pager -o short-monotonic >"$d/journal" 2>&1
PROBE
chmod 0755 "$root/usr/local/sbin/halo-probe"
cat >"$root/etc/systemd/system/halo-probe.service" <<'UNIT'
[Unit]
Description=the test's probe: record the units' outcome, then power off
After=multi-user.target
SuccessAction=poweroff
FailureAction=poweroff

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/halo-probe
UNIT
ln -s ../halo-probe.service "$root/etc/systemd/system/multi-user.target.wants/halo-probe.service"

# boot N: boots the root until the probe powers it off.
boot() {
	echo "$1" >"$root/etc/halo-probe/boot"
	local t=$SECONDS rc
	# CAP_NET_ADMIN: what --private-network would grant; a namespace
	# given by path does not.
	container_run "$TEST_TMP/console-$1.log" 120 -D "$root" --boot \
		--network-namespace-path="/run/netns/$NS" --capability=CAP_NET_ADMIN \
		--console=passive
	rc=$?
	ok $rc "boot $1: the container booted and powered itself off (exit $rc)"
	[ $rc -eq 0 ] || tail -30 "$TEST_TMP/console-$1.log" | sed 's/^/#   console: /'
	[ -d "$root/var/lib/halo-probe/$1" ]
	ok $? "boot $1: the probe recorded the outcome"
	diag "boot $1 in $((SECONDS - t)) s"
}
probe() { cat "$root/var/lib/halo-probe/$1/$2" 2>/dev/null; }
prop() { probe "$1" "$2" | sed -n "s/^$3=//p"; }

first_id=$(cat "$root/etc/machine-id")
is "$first_id" uninitialized "the image is made for a first boot (machine-id: uninitialized)"

boot 1
fb=halo-provision-firstboot.service
eb=halo-provision.service
is "$(prop 1 $fb ConditionResult)" yes "boot 1: ConditionFirstBoot= holds"
is "$(prop 1 $fb Result)/$(prop 1 $fb ActiveState)" success/active \
	"boot 1: the first-boot unit succeeded (and remains active)"
st=$(prop 1 $fb ExecMainStatus)
like "$st" '^(2|10)$' "boot 1: the first-boot apply changed the host (exit $st: 2, or 10 with the command line pending a reboot)"
is "$(prop 1 $eb Result)/$(prop 1 $eb ExecMainStatus)" success/0 \
	"boot 1: the every-boot unit ran after it and found nothing to change (exit 0)"
like "$(probe 1 link)" 'rdma0@peer0: .* mtu 9000 ' "boot 1: rdma0 has MTU 9000 (ip, inside)"
like "$(probe 1 addr)" 'inet 192\.168\.77\.1/24 ' "boot 1: rdma0 has 192.168.77.1/24"
like "$(probe 1 addr)" 'inet6 fd00:77::1/64 ' "boot 1: rdma0 has fd00:77::1/64"
is "$(probe 1 tcp_ecn)" 1 "boot 1: the sysctl was written (/proc/sys/net/ipv4/tcp_ecn, the namespace's)"
like "$(cat "$root/etc/kernel/cmdline" 2>/dev/null)" '(^| )iommu=pt( |$)' \
	"boot 1: /etc/kernel/cmdline has iommu=pt (/etc written under ProtectSystem=strict)"
[ -f "$root/etc/sysctl.d/90-halo-provision.conf" ] &&
	[ -f "$root/etc/security/limits.d/90-halo-provision.conf" ] &&
	[ -f "$root/var/lib/halo-provision/state.json" ]
ok $? "boot 1: the sysctl and memlock drop-ins and the state file are written"
prom=$root/var/lib/prometheus/node-exporter/halo-provision.prom
like "$(cat "$prom" 2>/dev/null)" 'halo_last_run_info\{mode="apply"\} 1' \
	"boot 1: the apply wrote the textfile"
is "$(probe 1 failed)" "" "boot 1: no unit failed"
committed=$(cat "$root/etc/machine-id")
like "$committed" '^[0-9a-f]{32}$' "boot 1: the machine ID is committed (the first boot completed)"

# What a reboot loses, lost behind the tool's back.
ip -n "$NS" link set rdma0 mtu 1500 && ip -n "$NS" addr flush dev rdma0
ok $? "between boots: rdma0 back to MTU 1500, no address"
mkdir -p "$root/etc/systemd/system/halo-provision-check.timer.d"
cat >"$root/etc/systemd/system/halo-provision-check.timer.d/soon.conf" <<'UNIT'
# The test's: the audit 2 s after boot instead of 5 min.
[Timer]
OnBootSec=
OnBootSec=2s
RandomizedDelaySec=0
AccuracySec=100ms
UNIT
touch "$root/etc/halo-probe/wait-check" "$root/etc/halo-probe/start-template"
prom_before=$(cat "$prom")

boot 2
is "$(prop 2 $fb ConditionResult)/$(prop 2 $fb ExecMainStartTimestampMonotonic)" no/0 \
	"boot 2: the first-boot unit did not run again (condition false, never started)"
is "$(prop 2 $eb Result)/$(prop 2 $eb ExecMainStatus)" success/2 \
	"boot 2: the every-boot unit re-applied (exit 2: changed)"
like "$(probe 2 link)" 'rdma0@peer0: .* mtu 9000 ' "boot 2: MTU 9000 is back"
like "$(probe 2 addr)" 'inet 192\.168\.77\.1/24 ' "boot 2: 192.168.77.1/24 is back"
like "$(probe 2 addr)" 'inet6 fd00:77::1/64 ' "boot 2: fd00:77::1/64 is back"
ck=halo-provision-check.service
is "$(prop 2 $ck Result)" success "boot 2: the audit timer started the check and it succeeded"
st=$(prop 2 $ck ExecMainStatus)
like "$st" '^(0|8)$' "boot 2: the check found no drift (exit $st: 0, or 8 with the command line pending a reboot)"
prom_after=$(cat "$prom" 2>/dev/null)
like "$prom_after" 'halo_last_run_info\{mode="check"\} 1' "boot 2: the check rewrote the textfile"
[ "$prom_after" != "$prom_before" ]
ok $? "boot 2: the textfile is a new one (was the apply's)"
is "$(stat -c %a "$prom")" 644 "boot 2: the textfile is world-readable (node_exporter reads it)"
if command -v promtool >/dev/null; then
	out=$(promtool check metrics <"$prom" 2>&1)
	ok $? "boot 2: promtool check metrics accepts the textfile"
	[ -n "$out" ] && diag "$out"
fi
is "$(probe 2 template-start)/$(prop 2 halo-provision@rdma0.service Result)" 0/success \
	"boot 2: halo-provision@rdma0.service ran and succeeded"
is "$(probe 2 failed)" "" "boot 2: no unit failed"

# A NIC gone: the every-boot unit has no link for rdma0.
rm -f "$root/etc/halo-probe/wait-check" "$root/etc/halo-probe/start-template"
ip -n "$NS" link del rdma0
ok $? "between boots: rdma0 deleted"

boot 3
is "$(probe 3 is-failed)" failed "boot 3: systemctl is-failed halo-provision.service: failed"
like "$(prop 3 $eb Result)/$(prop 3 $eb ExecMainStatus)" '^exit-code/[14]$' \
	"boot 3: it exited 1 or 4 (exit $(prop 3 $eb ExecMainStatus))"
like "$(probe 3 failed)" '^halo-provision\.service ' "boot 3: systemctl --failed lists it"
like "$(probe 3 journal)" 'halo-provision.*rdma0' "boot 3: the journal says which interface"
is "$(cat "$root/etc/machine-id")" "$committed" "boot 3: still the machine ID of the first boot"

# The units' journal when something failed.
if [ "$tap_failed" -gt 0 ]; then
	for n in 1 2 3; do
		probe $n journal | grep -E 'halo-provision|halo-probe' | sed "s/^/#   boot $n: /"
	done
fi

diag "whole test in $((SECONDS - t0)) s; CPU user and system: $(times | tail -1)"
done_testing
