#!/bin/bash
# outputs-unwritable.sh: every file an apply would write (the state file,
# the textfile, the reboot flag, each owned file) is proven writable
# before the first change. A read-only directory (a read-only bind mount
# in a private mount namespace), a missing parent that cannot be made,
# a parent that is a file: exit 4, one line naming the path (and, for the
# run's own outputs and records, what the file is and the config key
# that sets it), and nothing under the root changed.
source "$top_srcdir/tests/lib/tap.sh"

if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "1..0 # SKIP needs root and unshare -m"
	exit 0
fi

conf=$TEST_TMP/halo.conf
write_conf "$conf" <<'CONF'
version = 1;
boot = { loader = "auto"; iommu = "pt"; gtt_mib = 126976; regenerate = false; };
access = { gpu_group = "render"; memlock = "unlimited"; };
sysctl = { settings = [ "net.core.rmem_max=268435456" ]; };
state = {
  path = "/var/lib/halo-provision/state.json";
  prometheus = "/var/lib/node_exporter/textfile_collector/halo.prom";
};
CONF

# fresh [KIND]: a sandbox root (Debian unless KIND) with what the run reads.
fresh() {
	rm -rf "${TEST_TMP:?}/root"
	"$top_srcdir/sandbox/mkroot.sh" "${1:-debian}" "$TEST_TMP/root"
	mkdir -p "$TEST_TMP/root/proc/sys/net/core" "$TEST_TMP/root/var/lib/node_exporter/textfile_collector"
	echo 212992 >"$TEST_TMP/root/proc/sys/net/core/rmem_max"
	root=$TEST_TMP/root
}

# in_ns SETUP: SETUP (mounts under $R), then an apply, in a private mount
# namespace; sets out, err, rc.
in_ns() {
	out=$(unshare -m bash -c '
		set -e
		R=$1
		eval "$2"
		set +e
		"$HALO" --root "$1" -c "$3" 2>"$4"
	' _ "$root" "$1" "$conf" "$TEST_TMP/stderr")
	rc=$?
	err=$(sed -e 's/^halo-provision: //' "$TEST_TMP/stderr")
}

ro_bind() {	# the mount command making directory $R/$1 read-only
	echo "mkdir -p \"\$R/$1\"; mount --bind \"\$R/$1\" \"\$R/$1\"; mount -o remount,ro,bind \"\$R/$1\" \"\$R/$1\""
}

# The design allows the run lock to exist after a refusal.
snapshot() { tree_snapshot "$root" | grep -v '/run/halo-provision\.lock$'; }

refused() {	# refused WHAT PATH-REGEX
	is "$rc" 4 "$1: exit 4"
	is "$(printf '%s\n' "$err" | wc -l)" 1 "$1: one line"
	like "$err" "^$2" "$1: the line names the path ($err)"
	is "$(snapshot)" "$before" "$1: nothing under the root changed"
}

# named DIR: how the line about the file in DIR names it before its path
# (a regex): the outputs and the boot edits' record say what they are and
# which config key sets them; an owned file's path says it.
named() {
	case $1 in
	var/lib/halo-provision) echo 'the state file \(state\.path\) ' ;;
	var/lib/node_exporter/textfile_collector) echo 'the Prometheus textfile \(state\.prometheus\) ' ;;
	esac
}

# Each directory an owned file or output goes to, read-only.
for dir in etc/default/grub.d etc/udev/rules.d etc/security/limits.d \
	etc/systemd/system.conf.d etc/systemd/user.conf.d etc/sysctl.d \
	var/lib/halo-provision var/lib/node_exporter/textfile_collector; do
	fresh
	mkdir -p "$root/$dir"
	before=$(snapshot)
	in_ns "$(ro_bind "$dir")"
	refused "read-only $dir" "$(named "$dir")${root//./\\.}/$dir/[^ ]* cannot be written: Read-only file system; nothing was changed$"
done

# The record of the boot edits (Fedora's command line is edited, so the
# apply keeps one), with the state file elsewhere: the same line names
# the record and the key that makes the run keep it.
conf_record=$TEST_TMP/record.conf
sed 's|path = "/var/lib/halo-provision/state.json"|path = "/srv/halo/state.json"|' "$conf" >"$conf_record"
fresh fedora
mkdir -p "$root/var/lib/halo-provision"
before=$(snapshot)
conf=$conf_record in_ns "$(ro_bind var/lib/halo-provision)"
refused "read-only var/lib/halo-provision, the state file elsewhere" \
	"the record of the command-line edits \\(boot\\) ${root//./\\.}/var/lib/halo-provision/cmdline-edits cannot be written: Read-only file system; nothing was changed$"

# run/ read-only: the run lock cannot be taken, which says so first.
fresh
before=$(snapshot)
in_ns "$(ro_bind run)"
refused "read-only run" "cannot take the run lock ${root//./\\.}/run/halo-provision\\.lock: Read-only file system$"

# A missing parent that cannot be made: etc/udev is there, read-only,
# without rules.d.
fresh
mkdir -p "$root/etc/udev"
before=$(snapshot)
in_ns "$(ro_bind etc/udev)"
refused "missing parent under a read-only directory" \
	"${root//./\\.}/etc/udev/rules\\.d/70-halo-access\\.rules cannot be written: Read-only file system"

# A parent that is a file: nothing can be written beneath it; found
# before the first change like a read-only directory, naming the file in
# the way.
for dir in etc/sysctl.d var/lib/halo-provision var/lib/node_exporter/textfile_collector; do
	fresh
	rm -rf "${root:?}/$dir"
	mkdir -p "$(dirname "$root/$dir")"
	echo "not a directory" >"$root/$dir"
	before=$(snapshot)
	in_ns true
	refused "$dir is a file" \
		"$(named "$dir")${root//./\\.}/$dir/[^ ]* cannot be written: ${root//./\\.}/$dir is not a directory; nothing was changed$"
done

# A file that is a mount point (a bind mount over it): writable, but a
# rename over it fails (EBUSY), so the file is replaced no more than a
# read-only one; found before the first change.
for f in etc/security/limits.d/90-halo-provision.conf var/lib/node_exporter/textfile_collector/halo.prom; do
	fresh
	mkdir -p "$(dirname "$root/$f")"
	echo "# someone else's" >"$root/$f"
	echo "# bound over it" >"$TEST_TMP/over"
	before=$(snapshot)
	in_ns "mount --bind \"$TEST_TMP/over\" \"\$R/$f\""
	refused "$f a mount point" \
		"$(named "$(dirname "$f")")${root//./\\.}/${f//./\\.} cannot be written: it is a mount point \\(a file mounted there\\), which cannot be replaced or removed; nothing was changed$"
done
# Read-only as well: the mount point is named, which making it writable
# would not cure.
f=etc/security/limits.d/90-halo-provision.conf
fresh
mkdir -p "$(dirname "$root/$f")"
echo "# someone else's" >"$root/$f"
before=$(snapshot)
in_ns "mount --bind \"$TEST_TMP/over\" \"\$R/$f\"; mount -o remount,ro,bind \"\$R/$f\""
refused "$f a read-only mount point" \
	"${root//./\\.}/${f//./\\.} cannot be written: it is a mount point \\(a file mounted there\\)"
# A directory that is a mount point is no refusal: files are made and
# renamed inside it (the textfile's directory often is one).
fresh
echo "# old" >"$root/var/lib/node_exporter/textfile_collector/halo.prom"
in_ns "mount --bind \"\$R/var/lib/node_exporter/textfile_collector\" \"\$R/var/lib/node_exporter/textfile_collector\""
is "$rc" 10 "the textfile's directory a mount point: the apply runs"
like "$(cat "$root/var/lib/node_exporter/textfile_collector/halo.prom")" 'halo_' "... and writes the textfile there"

# A check writes only its textfile, after the audit: the audit's drift
# and the failed write, one line naming the file in the way.
fresh
rm -rf "${root:?}/var/lib/node_exporter/textfile_collector"
echo "not a directory" >"$root/var/lib/node_exporter/textfile_collector"
before=$(snapshot)
"$HALO" --root "$root" -c "$conf" --check >/dev/null 2>"$TEST_TMP/stderr"
rc=$?
err=$(sed -e 's/^halo-provision: //' "$TEST_TMP/stderr")
is "$rc" 14 "check, the textfile's directory a file: drift, reboot pending and the failed write"
like "$err" "^writing the Prometheus textfile \\(state\\.prometheus\\) ${root//./\\.}/var/lib/node_exporter/textfile_collector/halo\\.prom: ${root//./\\.}/var/lib/node_exporter/textfile_collector is not a directory$" \
	"check: one line naming the file in the way"
is "$(snapshot)" "$before" "check: nothing under the root changed"

# The control: the same apply on a writable root changes it.
fresh
in_ns true
is "$rc" 10 "writable root: the apply changes the host, a reboot pending"
done_testing
