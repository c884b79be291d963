# tests/nicsim/nicsim-lib.sh: run programs on the simulated NIC (sourced
# after tests/lib/tap.sh). LD_PRELOAD is set for one command at a time,
# never for the harness.
NICSIM_SO=$(find "$top_builddir" -name 'nicsim*.so' -print -quit 2>/dev/null)
NICSIM_PROBE=$top_builddir/tests/nicsim/nicsim-probe
[ -n "$NICSIM_SO" ] && [ -x "$NICSIM_PROBE" ] || {
	echo "1..0 # SKIP nicsim not built (make check builds it)"; exit 0; }

# nicsim NS CMD...: CMD in namespace NS under the simulator. The library
# is not sanitized; the sanitized program must accept it before libasan.
nicsim() {
	local ns=$1; shift
	ip netns exec "$ns" env \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		LD_PRELOAD="$NICSIM_SO" "$@"
}

# probe NS ARGS...: nicsim-probe under the simulator; sets $out, $err, $rc.
probe() {
	local ns=$1; shift
	out=$(nicsim "$ns" "$NICSIM_PROBE" "$@" 2>"$TEST_TMP/probe.err")
	rc=$?
	err=$(cat "$TEST_TMP/probe.err")
}

# veth_pair NS NAME: NAME (and its peer NAME-p) up in NS.
veth_pair() {
	ip -n "$1" link add "$2" type veth peer name "$2-p" &&
	ip -n "$1" link set "$2-p" up && ip -n "$1" link set "$2" up
}

# state IFNAME JQ-FILTER: a member of the simulated NIC's state file.
state() { jq -c "$2" "$NICSIM_STATE/$1.json"; }
