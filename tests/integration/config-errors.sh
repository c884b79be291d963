#!/bin/bash
# config-errors.sh: `halo-provision --validate` over every config fixture.
# A bad config: exit 1, exactly one line on stderr, "FILE:LINE: message" as
# the fixture's "# expect: LINE: message" header says, nothing written under
# the root. A good config (and halo.conf.example): exit 0.
source "$top_srcdir/tests/lib/tap.sh"

fixtures="$top_srcdir/tests/fixtures/config"
root="$TEST_TMP/root"
mkdir -p "$root/etc/default" "$root/etc/modprobe.d" "$root/proc" "$root/run"
# Something to overwrite, so that a write would show in the snapshot.
printf 'GRUB_CMDLINE_LINUX_DEFAULT="quiet"\n' >"$root/etc/default/grub"
printf 'options ice foo=1\n' >"$root/etc/modprobe.d/ice.conf"
before=$(tree_snapshot "$root")

# The binary may prefix its name ("halo-provision: "); the rest is the
# loader's line.
strip_prog() { sed -e 's/^halo-provision: //'; }

for f in "$fixtures"/bad/*.conf; do
	name=$(basename "$f")
	conf="$TEST_TMP/$name"
	write_conf "$conf" <"$f"
	expect=$(sed -n '1s/^# expect: //p' "$f")
	run_halo --validate -c "$conf" --root "$root"
	is "$rc" 1 "bad/$name: exit 1"
	is "$(printf '%s\n' "$err" | wc -l)" 1 "bad/$name: one line on stderr"
	is "$(printf '%s' "$err" | strip_prog)" "$conf:$expect" "bad/$name: $expect"
	# The same file given to a real run: the same line, exit 1, and the
	# root byte for byte as it was (not even the run lock).
	for mode in apply --check --dry-run; do
		if [ "$mode" = apply ]; then run_halo -c "$conf" --root "$root"
		else run_halo "$mode" -c "$conf" --root "$root"; fi
		is "$rc:$(printf '%s' "$err" | strip_prog)" "1:$conf:$expect" "bad/$name: $mode: exit 1, the same line"
	done
	is "$(tree_snapshot "$root")" "$before" "bad/$name: nothing written"
done

for f in "$fixtures"/good/*.conf "$top_srcdir/halo.conf.example"; do
	name=$(basename "$f")
	conf="$TEST_TMP/good-$name"
	write_conf "$conf" <"$f"
	run_halo --validate -c "$conf" --root "$root"
	is "$rc" 0 "good/$name: exit 0"
	is "$err" "" "good/$name: nothing on stderr"
done

# Writable by group or others: refused before it is parsed.
for mode in 0666 0620 0602; do
	conf="$TEST_TMP/mode-$mode.conf"
	write_conf "$conf" <"$fixtures/good/minimal.conf"
	chmod "$mode" "$conf"
	run_halo --validate -c "$conf" --root "$root"
	is "$rc" 1 "mode $mode: exit 1"
	is "$(printf '%s' "$err" | strip_prog)" \
		"$conf: refusing a config file writable by group or others (mode $mode)" \
		"mode $mode: refused, one line"
done

# Not a regular file.
run_halo --validate -c "$TEST_TMP" --root "$root"
is "$rc" 1 "directory: exit 1"
is "$(printf '%s' "$err" | strip_prog)" \
	"$TEST_TMP: a directory, not a regular file: refused as the config file" "directory: refused"

# Three errors: all reported at once, each on its own line.
conf="$TEST_TMP/three.conf"
write_conf "$conf" <<'CONF'
boot = { loader = "grub2"; };
interfaces = ( { name = "rdma0"; mtu = 9001000; } );
firewall = { allow_udp = [ 4791, 4791 ]; };
CONF
run_halo --validate -c "$conf" --root "$root"
is "$rc" 1 "three errors: exit 1"
is "$(printf '%s\n' "$err" | strip_prog | cut -d: -f1-2 | tr '\n' ' ')" \
	"$conf:1 $conf:2 $conf:3 " "three errors: three lines, in file order"

is "$(tree_snapshot "$root")" "$before" "nothing written under the root"

done_testing
