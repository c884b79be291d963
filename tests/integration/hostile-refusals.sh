#!/bin/bash
# hostile-refusals.sh: the refusals an operator met in words that named
# nothing, or not at all. A FIFO, a directory or a symlink out of the root
# where the run reads a file is refused naming the file and what it is,
# in every mode that reads it; never the bare errno text, never taken for
# "absent", never a hang; and nothing under the root changes.
source "$top_srcdir/tests/lib/tap.sh"

conf() {	# conf ROOT: the sandbox's boot and access, inside the root
	install -m 0600 /dev/stdin "$1/etc/halo-provision/halo.conf" <<'CONF'
version = 1;
boot = { loader = "auto"; iommu = "pt"; gtt_mib = "auto"; regenerate = false; };
access = {
  memlock = "unlimited";
  gpu_group = "render";
};
CONF
}

fresh() {	# fresh KIND: $root, a sandbox root of that kind
	root=${TEST_TMP:?}/$1
	rm -rf "${root:?}"
	"$top_srcdir/sandbox/mkroot.sh" "$1" "$root"
	conf "$root"
}

snapshot() { tree_snapshot "$root" | grep -v '/run/halo-provision\.lock$'; }

# refused DESC WANT ARGS...: a run with ARGS ends (20 s), exit 1, one
# line, exactly WANT (after the program's name), nothing changed.
refused() {
	local desc=$1 want=$2 before
	shift 2
	before=$(snapshot)
	out=$(timeout -k 2 20 "$HALO" --root "$root" "$@" 2>"$TEST_TMP/stderr")
	rc=$?
	err=$(sed 's/^halo-provision: //' "$TEST_TMP/stderr")
	is "$rc" 1 "$desc: exit 1"
	is "$err" "$want" "$desc: one line naming the file"
	is "$(snapshot)" "$before" "$desc: nothing under the root changed"
}

fresh debian
rm "$root/etc/os-release" && mkfifo "$root/etc/os-release"
refused "os-release a FIFO" "$root/etc/os-release: a FIFO, not a regular file"

fresh debian
rm "$root/etc/group" && mkfifo "$root/etc/group"
refused "/etc/group a FIFO" \
	"$root/etc/halo-provision/halo.conf:5: access.gpu_group: cannot check group \"render\": $root/etc/group: a FIFO, not a regular file"

fresh debian
echo "render:x:105:" >"$TEST_TMP/outside-group"
rm "$root/etc/group" && ln -s "$TEST_TMP/outside-group" "$root/etc/group"
refused "/etc/group a symlink out of the root" \
	"$root/etc/halo-provision/halo.conf:5: access.gpu_group: cannot check group \"render\": $root/etc/group: symlink to '$TEST_TMP/outside-group' does not resolve inside the root"

# The GPU's uevent says which card is amdgpu; a FIFO there was skipped.
fresh debian
rm "$root/sys/class/drm/card1/device/uevent" && mkfifo "$root/sys/class/drm/card1/device/uevent"
refused "the GPU's uevent a FIFO" "$root/sys/class/drm/card1/device/uevent: a FIFO, not a regular file"

# libblkid's cache resolves root=UUID= on Fedora.
fresh fedora
rm "$root/run/blkid/blkid.tab" && mkfifo "$root/run/blkid/blkid.tab"
refused "blkid.tab a FIFO" "$root/run/blkid/blkid.tab: a FIFO, not a regular file"

# The records of an applied root: the state file under --check and
# --status, the boot edits' record under --revert.
fresh fedora
"$HALO" --root "$root" >/dev/null 2>&1
like "$?" '^(2|10)$' "fedora: the apply converges"
test -f "$root/var/lib/halo-provision/cmdline-edits"
ok $? "fedora: the apply recorded its command-line edits"
mv "$root/var/lib/halo-provision/state.json" "$TEST_TMP/state.json"
mkfifo "$root/var/lib/halo-provision/state.json"
refused "state file a FIFO, --check" \
	"the state file (state.path) $root/var/lib/halo-provision/state.json: a FIFO, not a regular file" --check
out=$(timeout 20 "$HALO" --root "$root" --status 2>&1)
is "$?/$out" "1/halo-provision: cannot read state file: $root/var/lib/halo-provision/state.json: a FIFO, not a regular file" \
	"state file a FIFO, --status: exit 1, named"
rm "$root/var/lib/halo-provision/state.json"
ln -s "$TEST_TMP/state.json" "$root/var/lib/halo-provision/state.json"
refused "state file a symlink out of the root, --check" \
	"the state file (state.path) $root/var/lib/halo-provision/state.json: symlink to '$TEST_TMP/state.json' does not resolve inside the root" --check
out=$(timeout 20 "$HALO" --root "$root" --status 2>&1)
is "$?/$out" "1/halo-provision: cannot read state file: $root/var/lib/halo-provision/state.json: symlink to '$TEST_TMP/state.json' does not resolve inside the root" \
	"state file a symlink out of the root, --status: exit 1, named"
rm "$root/var/lib/halo-provision/state.json"
mv "$TEST_TMP/state.json" "$root/var/lib/halo-provision/state.json"
mv "$root/var/lib/halo-provision/cmdline-edits" "$TEST_TMP/cmdline-edits"
mkfifo "$root/var/lib/halo-provision/cmdline-edits"
# The line names the record as what it is, and the key that makes it.
refused "cmdline-edits a FIFO, --revert" \
	"the record of the command-line edits (boot) $root/var/lib/halo-provision/cmdline-edits: a FIFO, not a regular file" --revert
rm "$root/var/lib/halo-provision/cmdline-edits"
mkdir "$root/var/lib/halo-provision/cmdline-edits"
refused "cmdline-edits a directory, --revert" \
	"the record of the command-line edits (boot) $root/var/lib/halo-provision/cmdline-edits: a directory, not a regular file" --revert

# A refused run changes nothing, not even the temp files a killed run left
# beside the files it owns: those go only once every check before the
# first change has passed. The symlinked limits.d refuses the run.
fresh debian
mkdir -p "$root/etc/udev/rules.d" "$root/etc/security"
echo keep >"$root/etc/udev/rules.d/.#70-halo-access.rules.Ab12Cd"
rm -rf "$root/etc/security/limits.d" && ln -s /tmp "$root/etc/security/limits.d"
refused "limits.d a symlink, a stale temp file beside the udev rule" \
	"file/etc/security/limits.d/90-halo-provision.conf: refusing to write through a symlink: $root/etc/security/limits.d"
rm "$root/etc/security/limits.d"
"$HALO" --root "$root" >/dev/null 2>&1
ok "$([ ! -e "$root/etc/udev/rules.d/.#70-halo-access.rules.Ab12Cd" ]; echo $?)" \
	"... the apply that passes its checks removes the temp file"

# The outputs behind a symlink out of the root: one line per output,
# naming what it is, the config key that sets it, its path and why; the
# read of the last state file behind the same symlink is not said again.
# The record of the boot edits, read there too, is named as the record.
fresh debian
rm -rf "$root/var" && ln -s "$TEST_TMP/elsewhere" "$root/var"
refused "/var a symlink out of the root, apply" \
	"the state file (state.path) $root/var/lib/halo-provision/state.json: refusing to write through a symlink: $root/var
the record of the command-line edits (boot) $root/var/lib/halo-provision/cmdline-edits: $root/var: symlink to '$TEST_TMP/elsewhere' does not resolve inside the root"
refused "/var a symlink out of the root, --check" \
	"the state file (state.path) $root/var/lib/halo-provision/state.json: $root/var: symlink to '$TEST_TMP/elsewhere' does not resolve inside the root
the record of the command-line edits (boot) $root/var/lib/halo-provision/cmdline-edits: $root/var: symlink to '$TEST_TMP/elsewhere' does not resolve inside the root" --check
echo 'state = { prometheus = "/var/lib/node_exporter/halo.prom"; };' >>"$root/etc/halo-provision/halo.conf"
sed -i '/^boot = /d' "$root/etc/halo-provision/halo.conf"
refused "/var a symlink out of the root, apply with a textfile" \
	"the state file (state.path) $root/var/lib/halo-provision/state.json: refusing to write through a symlink: $root/var
the Prometheus textfile (state.prometheus) $root/var/lib/node_exporter/halo.prom: refusing to write through a symlink: $root/var"
out=$(timeout 20 "$HALO" --root "$root" --json 2>/dev/null)
is "$(jq -r '.errors[]' <<<"$out")" "$err" "... --json: the same lines in errors"
refused "/var a symlink out of the root, --check with a textfile" \
	"the Prometheus textfile (state.prometheus) $root/var/lib/node_exporter/halo.prom: refusing to write through a symlink: $root/var
the state file (state.path) $root/var/lib/halo-provision/state.json: $root/var: symlink to '$TEST_TMP/elsewhere' does not resolve inside the root" --check

# Something planted at the run lock is never opened (a FIFO, or a device
# such as a tty or a watchdog that an open alone would act on): every mode
# refuses it, and it stays as it was.
for kind in fifo chardev dir; do
	fresh debian
	lock=$root/run/halo-provision.lock
	case $kind in
	fifo) mkfifo "$lock"; what="a FIFO" ;;
	chardev) mknod "$lock" c 1 3; what="a character device" ;;
	dir) mkdir "$lock"; what="a directory" ;;
	esac
	for mode in "" --check --dry-run; do
		refused "the run lock $what${mode:+ ($mode)}" \
			"refusing the run lock $lock: $what, not a regular file" $mode
	done
	is "$(stat -c %F "$lock")" "$(case $kind in fifo) echo fifo ;; chardev) echo character special file ;; dir) echo directory ;; esac)" \
		"the run lock $what: left as it was"
done
# A symlink there (or on the way) is never followed, in any mode.
fresh debian
lock=$root/run/halo-provision.lock
ln -s /etc/passwd "$lock"
for mode in "" --check --dry-run; do
	refused "the run lock a symlink${mode:+ ($mode)}" \
		"refusing the run lock $lock: a symbolic link on its path, never followed" $mode
done
is "$(readlink "$lock")" /etc/passwd "the run lock a symlink: left as it was"

done_testing
