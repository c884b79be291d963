#!/bin/bash
# The shipped systemd units are valid for systemd itself, and the rendered
# units point at the configured binary.
source "$top_srcdir/tests/lib/tap.sh"

units="$top_builddir/systemd"
for u in halo-provision-firstboot.service halo-provision.service \
	 halo-provision@.service halo-provision-check.service; do
	[ -f "$units/$u" ] || make -C "$top_builddir" -s "systemd/$u" >/dev/null
done

# systemd-analyze verify checks that ExecStart exists: point it at the
# built binary through a copy of each unit in a scratch unit directory.
mkdir -p "$TEST_TMP/units"
for f in "$units"/*.service "$top_srcdir"/systemd/*.timer; do
	sed -e "s|^ExecStart=[^ ]*halo-provision|ExecStart=$HALO|" "$f" \
		>"$TEST_TMP/units/$(basename "$f")"
done
cp "$TEST_TMP/units/halo-provision@.service" "$TEST_TMP/units/halo-provision@eth0.service"
rm "$TEST_TMP/units/halo-provision@.service"

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

grep -q 'SYSTEMD_WANTS}+="halo-provision@%k.service"' "$top_srcdir/udev/70-halo-provision.rules"
ok $? "udev rule starts the per-interface unit"

done_testing
