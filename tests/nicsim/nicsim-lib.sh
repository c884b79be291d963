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

# sim_node PREFIX IFNAME PCI DRIVER: a node with one simulated port:
# IFNAME, a veth in a new namespace $NS (named after PREFIX), at PCI
# under DRIVER in the sysfs of $ROOT; $CONF the config's path there; the
# simulator's state in $NICSIM_STATE, its config file $NICSIM_CONFIG
# (left to the test to write). Skips the test where namespaces or veth
# are missing.
sim_node() {
	NS=$(new_netns "$1") || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
	veth_pair "$NS" "$2" || { echo "1..0 # SKIP no veth"; exit 0; }
	export NICSIM_STATE=$TEST_TMP/state NICSIM_CONFIG=$TEST_TMP/nicsim.conf
	mkdir -p "$NICSIM_STATE"
	ROOT=$TEST_TMP/root
	CONF=$ROOT/etc/halo-provision/halo.conf
	mkdir -p "$ROOT/etc/halo-provision"
	fake_nic "$2" "$3" "$4"
}

# e810_node PREFIX: sim_node with one E810 port, e810a at 0000:3b:00.0
# under ice.
e810_node() { sim_node "$1" e810a 0000:3b:00.0 ice; }

# nicsim_halo ARGS...: halo-provision under the simulator with $CONF,
# --root $ROOT and --netns $NS (not ip netns exec: the driver and PCI
# facts come from --root); sets $out, $rc, $err.
nicsim_halo() {
	out=$(env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		LD_PRELOAD="$NICSIM_SO" "$HALO" -c "$CONF" --root "$ROOT" --netns "$NS" "$@" \
		2>"$TEST_TMP/stderr")
	rc=$?
	err=$(cat "$TEST_TMP/stderr")
}
