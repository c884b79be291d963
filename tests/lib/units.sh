# tests/lib/units.sh: the built units in a scratch directory (sourced by
# tests/integration/units.sh and units-security.sh; needs tap.sh).

# units_scratch DIR: the rendered services (made when missing) and the
# timer, copied to DIR with ExecStart pointing at $HALO (systemd-analyze
# verify checks that it exists); the template as its instance
# halo-provision@eth0.service.
units_scratch() {
	local units="$top_builddir/systemd" u f
	for u in halo-provision-firstboot.service halo-provision.service \
		 halo-provision@.service halo-provision-check.service; do
		[ -f "$units/$u" ] || make -C "$top_builddir" -s "systemd/$u" >/dev/null
	done
	mkdir -p "$1"
	for f in "$units"/*.service "$top_srcdir"/systemd/*.timer; do
		sed -e "s|^ExecStart=[^ ]*halo-provision|ExecStart=$HALO|" "$f" \
			>"$1/$(basename "$f")"
	done
	mv "$1/halo-provision@.service" "$1/halo-provision@eth0.service"
}
