# tests/integration/modules-lib.sh: shared by the modules-*.sh tests (sourced
# after tap.sh). A fake module tree built by mkfixture.sh, and a way to run
# halo-provision under the finit_module trap: LD_PRELOAD is set for that one
# process only, never for the harness or for the tools that read back.

REL=6.99.0-halo
FX="$TEST_TMP/root"
CONF="$TEST_TMP/halo.conf"
TRAP_SO="$top_builddir/tests/preload/.libs/halo-kmod-trap.so"
TRAP_FAIL=""
TRAP_CMDLINE="" # a file standing for the running kernel's /proc/cmdline

if [ ! -f "$TRAP_SO" ]; then
	echo "Bail out! $TRAP_SO missing (make check builds it)"
	exit 1
fi

# mkfx [dkms] [bulk=N] [compress=zst|xz]: a fresh fixture root.
mkfx() {
	rm -rf "$FX"
	"$top_srcdir/tests/fixtures/modules/mkfixture.sh" "$FX" "$REL" "$@" \
		>"$TEST_TMP/mkfixture.log" 2>&1 || {
		cat "$TEST_TMP/mkfixture.log"
		echo "Bail out! mkfixture.sh failed"
		exit 1
	}
}

# preload MODULE [param=value...]: the module is already live (as if udev or
# rdma-core had loaded it), with these parameter values.
preload() {
	local m=$1 kv
	shift
	mkdir -p "$FX/sys/module/$m/parameters" "$FX/sys/module/$m/holders"
	for kv in "$@"; do
		echo "${kv#*=}" >"$FX/sys/module/$m/parameters/${kv%%=*}"
	done
	echo live >"$FX/sys/module/$m/initstate"
}

# run_trap ARGS...: halo-provision on the fixture under the trap; sets $out,
# $err, $rc like run_halo. TRAP_FAIL="name:ERRNO,..." makes those loads fail;
# RUN_TIMEOUT=SECONDS stops a hung run (rc 124).
run_trap() {
	out=$(${RUN_TIMEOUT:+timeout "$RUN_TIMEOUT"} env \
		HALO_TRAP_ROOT="$FX" HALO_TRAP_LOG="$FX/trap.log" \
		HALO_TRAP_FAIL="$TRAP_FAIL" ${TRAP_CMDLINE:+HALO_TRAP_CMDLINE="$TRAP_CMDLINE"} \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		LD_PRELOAD="$TRAP_SO" \
		"$HALO" --root "$FX" --kernel-release "$REL" -c "$CONF" "$@" \
		2>"$TEST_TMP/stderr")
	rc=$?
	err=$(cat "$TEST_TMP/stderr")
}

# The modules the trap loaded, in order, space-separated.
loads() {
	[ -f "$FX/trap.log" ] || return 0
	awk '$1 == "load" { print $2 }' "$FX/trap.log" | paste -sd' ' -
}

# initstate of MODULE as the fixture's sysfs shows it ("" if absent).
initstate() {
	cat "$FX/sys/module/$1/initstate" 2>/dev/null
}

# item KEY FIELD: a field of an item of the last --json output.
item() {
	printf '%s' "$out" | jq -r --arg k "$1" ".items[] | select(.key == \$k) | .$2"
}
