#!/bin/bash
# config-outputs.sh: the outputs a config names. A state.path of /proc/sys/kernel/osrelease
# overwrote the root's osrelease, and 0.0.0.0/0 as an interface address
# failed only on the host after other changes. Both are config errors now:
# in every mode, exit 1, one "FILE:LINE: message" line per error, all of
# them at once, and nothing under the root changed (/proc and /sys
# included).
source "$top_srcdir/tests/lib/tap.sh"

root=$TEST_TMP/root
mkdir -p "$root/etc/default" "$root/proc/sys/kernel" "$root/sys/class/net/eth0" \
	"$root/run" "$root/var/lib"
echo "6.1.0-halo-test" >"$root/proc/sys/kernel/osrelease"
echo "BOOT_IMAGE=/vmlinuz root=/dev/sda1 quiet" >"$root/proc/cmdline"
printf 'MemTotal:       131072000 kB\n' >"$root/proc/meminfo"
echo 1500 >"$root/sys/class/net/eth0/mtu"
printf 'GRUB_CMDLINE_LINUX_DEFAULT="quiet"\nGRUB_CMDLINE_LINUX=""\n' >"$root/etc/default/grub"

# Everything, /proc and /sys too (tree_snapshot leaves those out).
snapshot() {
	(cd "$root" && find . -print0 | sort -z |
		xargs -0 stat -c '%i %.9Y %a %s %n' && find . -type f -print0 | sort -z |
		xargs -0 -r sha256sum)
}
before=$(snapshot)
strip_prog() { sed -e 's/^halo-provision: //'; }

# The issue's config: something to change (boot) and the state file in
# /proc. Without the check the run converged boot, then wrote osrelease.
conf=$TEST_TMP/osrelease.conf
write_conf "$conf" <<'CONF'
boot = { loader = "grub"; iommu = "pt"; regenerate = false; };
state = { path = "/proc/sys/kernel/osrelease"; };
CONF
for mode in "" --dry-run --check; do
	run_halo $mode -c "$conf" --root "$root"
	is "$rc" 1 "state.path in /proc, ${mode:-apply}: exit 1"
	is "$(printf '%s' "$err" | strip_prog)" \
		"$conf:2: state.path: \"/proc/sys/kernel/osrelease\" is under /proc, the kernel's, not a place for files" \
		"state.path in /proc, ${mode:-apply}: one line naming file:line"
done
is "$(cat "$root/proc/sys/kernel/osrelease")" "6.1.0-halo-test" "osrelease untouched"

# Every new rule at once, in file order.
conf=$TEST_TMP/all.conf
write_conf "$conf" <<'CONF'
version = 1;
interfaces = ( { name = "rdma0"; mtu = 9000;
  addresses = [ "0.0.0.0/0", "192.168.1.0/24", "192.168.1.255/24" ];
  routes = ( { to = "10.0.2.0/24"; via = "224.0.0.1"; } ); } );
storage = ( { what = "LABEL=models"; where = "/usr"; } );
state = {
  path = "/run/halo-provision.lock";
  prometheus = "/sys/class/net/eth0/mtu";
  env_file = "/dev/null";
};
CONF
run_halo -c "$conf" --root "$root"
is "$rc" 1 "all rules: exit 1"
is "$(printf '%s\n' "$err" | strip_prog | cut -d: -f1-2 | tr '\n' ' ')" \
	"$conf:3 $conf:3 $conf:3 $conf:4 $conf:5 $conf:7 $conf:9 $conf:8 " \
	"all rules: eight errors, one line each, with file:line"
like "$err" '"192\.168\.1\.0/24" is the network address of its prefix, not a host address' \
	"the network address named and why"
like "$err" '"/run/halo-provision\.lock" is halo-provision.s run lock' "the run lock refused"

# Two outputs in one file.
conf=$TEST_TMP/same.conf
write_conf "$conf" <<'CONF'
state = {
  path = "/var/lib/halo.json";
  prometheus = "/var/lib/halo.json";
};
CONF
run_halo -c "$conf" --root "$root"
is "$rc" 1 "two outputs in one file: exit 1"
is "$(printf '%s' "$err" | strip_prog)" \
	"$conf:3: state.prometheus: /var/lib/halo.json is also state.path (line 2); each output needs a file of its own" \
	"two outputs in one file: one line"

# The config file itself as an output (an absolute -c).
conf=$TEST_TMP/self.conf
write_conf "$conf" <<CONF
state = { env_file = "$conf"; };
CONF
run_halo --validate -c "$conf" --root "$root"
is "$rc" 1 "the config file as env_file: exit 1"
is "$(printf '%s' "$err" | strip_prog)" \
	"$conf:1: state.env_file: $conf is the config file itself" "the config file as env_file: refused"

is "$(snapshot)" "$before" "nothing under the root changed, /proc and /sys included"

done_testing
