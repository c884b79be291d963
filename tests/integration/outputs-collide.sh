#!/bin/bash
# outputs-collide.sh: an output (state.path, state.env_file,
# state.prometheus) on a file the run owns or records is a config error:
# exit 1 in every mode, one line naming the output's key and line and the
# key that owns the file with its line, and nothing under the root
# changed. Every owned file against every output, on a Debian and a
# Fedora root (their boot backends own different files).
source "$top_srcdir/tests/lib/tap.sh"

# The files a run with this config owns or records, and the key owning
# each (the line is found in the config below).
owned=(
	"/etc/default/grub boot"
	"/etc/default/grub.d/zz-halo-provision.cfg boot"
	"/etc/kernel/cmdline boot"
	"/var/lib/halo-provision/cmdline-edits boot"
	"/etc/modules-load.d/halo-provision.conf modules"
	"/etc/modprobe.d/halo-provision.conf modules"
	"/var/lib/halo-provision/module-parameters modules"
	"/etc/NetworkManager/conf.d/90-halo-provision-unmanaged.conf interfaces"
	"/etc/udev/rules.d/70-halo-access.rules access"
	"/etc/security/limits.d/90-halo-provision.conf access.memlock"
	"/etc/systemd/system.conf.d/90-halo-provision.conf access.memlock"
	"/etc/systemd/user.conf.d/90-halo-provision.conf access.memlock"
	"/etc/sysctl.d/90-halo-provision.conf sysctl"
	"/etc/firewalld/zones/halo-rdma.xml firewall"
	"/etc/nftables.d/halo-provision.nft firewall"
	"/etc/systemd/system/models.mount storage"
	"/etc/systemd/system/local-fs.target.wants/models.mount storage"
)
# Line of each owning key in the config written below.
declare -A line=([boot]=2 [modules]=3 [interfaces]=4 [access]=5 [access.memlock]=6
	[sysctl]=7 [firewall]=8 [storage]=9)

strip_prog() { sed -e 's/^halo-provision: //'; }

for kind in debian fedora; do
	root=$TEST_TMP/$kind
	"$top_srcdir/sandbox/mkroot.sh" "$kind" "$root"
	mkdir -p "$root/var/lib/halo-provision"
	echo "root=/dev/sda1 ro" >"$root/var/lib/halo-provision/cmdline-edits"
	before=$(tree_snapshot "$root")
	for entry in "${owned[@]}"; do
		path=${entry% *} owner=${entry#* }
		for key in path env_file prometheus; do
			conf=$TEST_TMP/collide.conf
			write_conf "$conf" <<CONF
version = 1;
boot = { loader = "auto"; iommu = "pt"; regenerate = false; };
modules = { load = [ "ice" ]; };
interfaces = ( { name = "rdma0"; mtu = 9000; } );
access = { gpu_group = "render";
  memlock = "unlimited"; };
sysctl = { settings = [ "net.ipv4.tcp_mtu_probing=1" ]; };
firewall = { backend = "nftables"; allow_udp = [ 4791 ]; };
storage = ( { what = "LABEL=models"; where = "/models"; } );
state = {
  $key = "$path";
};
CONF
			for mode in "" --check; do
				run_halo $mode -c "$conf" --root "$root"
				is "$rc/$(printf '%s\n' "$err" | wc -l)" 1/1 \
					"$kind: state.$key = $path, ${mode:-apply}: exit 1, one line"
				like "$(printf '%s' "$err" | strip_prog)" \
					"^${conf//./\\.}:11: state\\.$key: ${path//./\\.} is [^;]* for ${owner//./\\.} \\(line ${line[$owner]}\\); each output needs a file of its own\$" \
					"$kind: state.$key = $path, ${mode:-apply}: one line naming both keys"
			done
		done
	done
	is "$(tree_snapshot "$root")" "$before" "$kind: nothing under the root changed"
done
done_testing
