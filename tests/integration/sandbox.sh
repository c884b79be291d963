#!/bin/bash
# The Quick start's first command runs sandbox/demo.sh: it must keep
# working (every step exits as the demo expects, and the second apply
# writes nothing), and its RoCE part (sandbox/roce.sh) configures the
# E810 pair and the ConnectX node of examples/ on the simulated NIC, and
# prints the env file (state.env_file) of E810 node 1 and the ConnectX node.
source "$top_srcdir/tests/lib/tap.sh"

# The simulator make check built (the demo would otherwise make it).
NICSIM_SO=$(find "$top_builddir" -name 'nicsim*.so' -print -quit 2>/dev/null)
[ -n "$NICSIM_SO" ] || { echo "1..0 # SKIP nicsim not built (make check builds it)"; exit 0; }
export NICSIM_SO

out=$("$top_srcdir/sandbox/demo.sh" "$HALO" 2>&1)
rc=$?
is "$rc" 0 "sandbox/demo.sh: every step behaved as expected"
[ "$rc" = 0 ] || diag "$(printf '%s\n' "$out" | grep -B3 UNEXPECTED | tr -d '\033')"
is "$(grep -c 'no file under the root was written' <<<"$out")" 2 \
	"the second apply wrote nothing on either node"
like "$out" '8980 bytes from 192\.168\.100\.2' "jumbo frames crossed the sandbox link"

# RoCE: the E810 pair and the ConnectX node.
is "$(grep -c '8980 bytes from 192\.168\.100\.2' <<<"$out")" 2 "jumbo frames crossed the E810 link too"
nic() { grep -A200 "== $1" <<<"$out" | grep -m1 '^(the NIC now: ' | sed 's/^(the NIC now: //; s/)$//'; }
e810=$(nic 'E810 pair')
is "$(jq -c '[.dcbx, .pfc_enabled, .app, .trust, .devlink, .fw_lldp_agent]' <<<"$e810")" \
	'["host",[3],["26->3"],"dscp",{"enable_roce":true,"enable_iwarp":false},false]' \
	"E810: host DCB, PFC 3, DSCP 26 -> 3, RoCE not iWARP, agent off"
cx=$(nic 'ConnectX node')
is "$(jq -c '[.dcbx, .pfc_enabled, .app, .trust, .link_flaps]' <<<"$cx")" \
	'["host",[3],["26->3"],"dscp",1]' "ConnectX: host DCB, PFC 3, DSCP 26 -> 3, one flap"
like "$out" 'roce/cx0/pfc .*carrier back after [0-9]+ ms' "ConnectX: the flap was waited for"
like "$out" 'ECN np/rp enable/3: 1/1' "ConnectX: ECN on priority 3"
is "$(grep -c 'no SETDCB request reached the NIC' <<<"$out")" 2 \
	"the second apply sent no SETDCB to either NIC"

# rdma: E810 node 1 (irdma, GID 1) and the ConnectX node (mlx5, GID 3) get
# an RDMA device under their root; the printed env file has the computed
# index, of the GID of the address the links phase configured.
section() { sed -n "/== $1/,/== $2/p" <<<"$out"; }
env_line() { grep -A12 '^\$ cat /etc/halo-provision/rccl.env' | grep -m1 "^$1="; }
e810=$(section 'E810 pair' 'ConnectX node')
cx=$(section 'ConnectX node' '@@none@@')
is "$(env_line NCCL_IB_GID_INDEX <<<"$e810")" NCCL_IB_GID_INDEX=1 "E810 node 1: the env file says GID index 1"
is "$(env_line NCCL_IB_HCA <<<"$e810")" NCCL_IB_HCA==rocep194s0f0:1 "E810 node 1: the env file names rocep194s0f0 port 1"
like "$e810" 'rdma/rdma0/gid-index +the RoCE v2 GID of 192\.168\.100\.1' \
	"E810 node 1: the index is the GID of the configured address"
like "$e810" 'rocep194s0f0 1 1 0000:0000:0000:0000:0000:ffff:c0a8:6401 RoCE v2 ens1f0' \
	"E810 node 1: GID 1 holds 192.168.100.1 (the kernel filled it from the live link)"
is "$(env_line NCCL_IB_GID_INDEX <<<"$cx")" NCCL_IB_GID_INDEX=3 "ConnectX: the env file says GID index 3"
is "$(env_line NCCL_IB_HCA <<<"$cx")" NCCL_IB_HCA==rocep65s0f0:1 "ConnectX: the env file names rocep65s0f0 port 1"
like "$cx" 'rdma/cx0/gid-index +the RoCE v2 GID of 10\.10\.0\.11' \
	"ConnectX: the index is the GID of the configured address"
like "$cx" 'rdma/cx0/rdma-cm +RoCE v2, ToS 106' "ConnectX: rdma_cm RoCE v2, ToS 106"

done_testing
