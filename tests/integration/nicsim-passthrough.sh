#!/bin/bash
# Everything not about a simulated interface reaches the real kernel
# unchanged under the preload: rtnetlink (ip link / ip addr), dcbnl on a
# plain veth (EOPNOTSUPP), a simulated name absent from the namespace
# (ENODEV), ethtool on a real device; the ethtool family keeps the kernel's
# id. A bad NICSIM_CONFIG stops the program with a one-line error.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

NS=$(new_netns pass) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
veth_pair "$NS" sim0 && veth_pair "$NS" plain0 || { echo "1..0 # SKIP no veth"; exit 0; }
export NICSIM_STATE=$TEST_TMP/state NICSIM_CONFIG=$TEST_TMP/nicsim.conf
mkdir -p "$NICSIM_STATE"
printf 'sim0 e810 fw_lldp_agent=off\nghost0 connectx\n' >"$NICSIM_CONFIG"

out=$(nicsim "$NS" ip -j link show dev plain0 | jq -r '.[0].ifname')
is "$out" plain0 "ip link works under the preload"
nicsim "$NS" ip addr add 192.0.2.1/24 dev plain0
ok $? "ip addr add works under the preload"
is "$(ip -n "$NS" -j addr show dev plain0 | jq -r '.[0].addr_info[] | select(.family=="inet") | .local')" \
	192.0.2.1 "... and the kernel holds the address (ip -j, no preload)"
out=$(nicsim "$NS" ip -j link show | jq -r '[.[].ifname] | sort | join(",")')
is "$out" "lo,plain0,plain0-p,sim0,sim0-p" "an rtnetlink dump is the kernel's, whole"

probe "$NS" dcb-get plain0
is "$rc" 1 "dcbnl on a plain veth: an error ACK"
like "$out" 'error -95' "... the kernel's EOPNOTSUPP"
probe "$NS" dcb-get ghost0
like "$out" 'error -19' "a simulated name the namespace lacks: the kernel's ENODEV"
probe "$NS" dcb-get sim0
is "$rc" 0 "the simulated one answers in the same process shape"

real_id=$(genl ctrl get name ethtool 2>/dev/null | sed -n 's/.*ID: *\(0x[0-9a-f]*\).*/\1/p' | head -1)
probe "$NS" family ethtool
if [ -n "$real_id" ]; then
	is "$(sed -n 's/^id //p' <<<"$out")" "$((real_id))" "ethtool family: the kernel's own id"
else
	like "$out" 'id 3275[0-9]' "ethtool family: the simulator's id (the kernel has none)"
fi
probe "$NS" privflags-get plain0
is "$rc" 1 "ethtool privflags on a plain veth: an error ACK"
like "$out" 'error -95' "... the kernel's EOPNOTSUPP"
probe "$NS" privflags-get "@$(ip -n "$NS" -j link show dev sim0 | jq -r '.[0].ifindex')"
like "$out" 'flag fw-lldp-agent off' "ethtool by ifindex reaches the simulated NIC"
if genl ctrl get name devlink >/dev/null 2>&1; then
	ok 0 "# SKIP the kernel has devlink: its own id is used"
else
	probe "$NS" family devlink
	like "$out" 'id 32752' "devlink family: the simulator's id above the kernel's range"
fi

# A process that renames a simulated link itself sees it at the next
# request: the name it had looked up no longer exists, so the kernel
# answers (ENODEV); named again, the link is simulated again.
printf 'sim0 e810 fw_lldp_agent=off\nghost0 connectx\nren0 connectx\n' >"$NICSIM_CONFIG"
ip -n "$NS" link add ren0 type veth peer name ren0-p
before() { sed -n '/^renamed /q;p' <<<"$out"; }
after() { sed -n '/^renamed /,$p' <<<"$out"; }
probe "$NS" renamed ren0 ren9 dcb-get ren0
is "$rc" 1 "renamed by the process: an error ACK after the rename"
like "$(before)" 'pfc_en' "... the simulated answer before it"
is "$(after)" "renamed ren0 ren9: 0
error -19 No such device" "... the rename taken, then the kernel's ENODEV for the old name"
probe "$NS" renamed ren9 ren0 dcb-get ren0
is "$rc" 0 "named again by the process: the simulated answer"
is "$(before)" "error -19 No such device" "... the kernel's ENODEV before the rename"
like "$(after)" 'pfc_en' "... the simulated answer after it"

# Without NICSIM_CONFIG the library answers nothing.
out=$(NICSIM_CONFIG= nicsim "$NS" "$NICSIM_PROBE" dcb-get sim0)
like "$out" 'error -95' "no NICSIM_CONFIG: the kernel answers (EOPNOTSUPP)"

# A bad configuration is the test's mistake: a clear error, exit 99.
printf 'sim0 e9000\n' >"$TEST_TMP/bad.conf"
out=$(NICSIM_CONFIG=$TEST_TMP/bad.conf nicsim "$NS" "$NICSIM_PROBE" dcb-get sim0 2>&1)
is "$?" 99 "unknown profile: exit 99"
like "$out" "bad.conf:1: unknown profile 'e9000'" "... naming file, line and profile"
printf 'sim0 connectx bonded=yes\n' >"$TEST_TMP/bad.conf"
out=$(NICSIM_CONFIG=$TEST_TMP/bad.conf nicsim "$NS" "$NICSIM_PROBE" dcb-get sim0 2>&1)
like "$out" "unknown key 'bonded' for profile connectx" "a key the profile lacks is refused"
printf 'sim0 e810 enable_iwarp=true\n' >"$TEST_TMP/bad.conf"
out=$(NICSIM_CONFIG=$TEST_TMP/bad.conf nicsim "$NS" "$NICSIM_PROBE" dcb-get sim0 2>&1)
like "$out" "exclusive" "enable_roce and enable_iwarp both on is refused"
done_testing
