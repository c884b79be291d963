#!/bin/bash
# ice hands irdma an iWARP device (or none) until devlink's enable_roce is
# set. With roce.enable = true in the config, a --check finds the enable
# item drifting and the rdma items drifting with it: the apply would bring
# the RoCE device. They are not failed with advice to set roce.enable =
# true, which the config already says. Without roce.enable the same host
# fails them, naming the key.
source "$top_srcdir/tests/integration/rdma-lib.sh"
source "$top_srcdir/tests/nicsim/nicsim-lib.sh"

sim_node rdmaiw e810a 0000:3b:00.0 ice
echo "e810a e810 pci=0000:3b:00.0 enable_roce=false enable_iwarp=true" >"$NICSIM_CONFIG"
fake_ibdev iwp59s0f0 0000:3b:00.0 "4: RNIC"
mkdir -p "$ROOT/sys/module/irdma" "$ROOT/sys/kernel/config/rdma_cm"

conf() {
	write_conf "$CONF" <<CONF
version = 1;
interfaces = (
  { name = "rdma0"; match = { driver = "ice"; }; addresses = [ "192.168.60.1/24" ];
    roce = { $1 tos = 106; }; }
);
CONF
}
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }

conf "enable = true;"
nicsim_halo --only roce,rdma --check --json
is "$rc" 2 "iWARP mode, roce.enable = true: check exit 2 (drift only)"
[ "$rc" = 2 ] || diag "$out $err"
is "$(item roce/rdma0/enable .outcome)" drift "roce/rdma0/enable: drift"
is "$(jq -c '[.items[] | select(.key | startswith("rdma/")) | .outcome] | unique' <<<"$out")" \
	'["drift"]' "every rdma item: drift, none failed"
is "$(item rdma/rdma0/device .message)" \
	"iwp59s0f0 on e810a is an iWARP device, not RoCE (roce/rdma0/enable has work to do first)" \
	"... the device item names the item to apply first"
is "$(state e810a .devlink.enable_roce)" false "the check changed nothing"

# --only rdma: nothing in this run turns RoCE on; the line says which
# subsystem would.
nicsim_halo --only rdma --check --json
is "$rc" 4 "iWARP mode, roce.enable = true, --only rdma: check exit 4"
is "$(item rdma/rdma0/device .message)" \
	"iwp59s0f0 on e810a is an iWARP device, not RoCE: the roce subsystem applies roce.enable = true (include roce in --only)" \
	"... the device item says which subsystem turns RoCE on"

# enable_roce already on and the device still iWARP: nothing to apply,
# and no advice to set what is set.
jq '.devlink.enable_roce = true | .devlink.enable_iwarp = false' "$NICSIM_STATE/e810a.json" >"$TEST_TMP/s" &&
	mv "$TEST_TMP/s" "$NICSIM_STATE/e810a.json"
nicsim_halo --only roce,rdma --check --json
is "$(item roce/rdma0/enable .outcome)" ok "enable_roce on: roce/rdma0/enable ok"
is "$(item rdma/rdma0/device .outcome)/$(item rdma/rdma0/device .message)" \
	"failed/iwp59s0f0 on e810a is an iWARP device, not RoCE, although devlink enable_roce is on" \
	"... the device item fails, saying enable_roce is on"

conf ""
nicsim_halo --only roce,rdma --check --json
is "$rc" 4 "iWARP mode, no roce.enable: check exit 4"
is "$(item rdma/rdma0/device .outcome)" failed "rdma/rdma0/device: failed"
like "$(item rdma/rdma0/device .message)" \
	'^iwp59s0f0 on e810a is an iWARP device, not RoCE: set roce.enable = true' "... naming the key"

# mlx5's enable_roce is driverinit: set, it waits for a devlink reload,
# so this run brings no RDMA device, and a check says so (failed), not
# drift that an apply would not clear.
veth_pair "$NS" cx0
fake_nic cx0 0000:41:00.0 mlx5_core
mkdir -p "$ROOT/sys/module/mlx5_ib"
echo "cx0 connectx pci=0000:41:00.0 enable_roce=false" >>"$NICSIM_CONFIG"
write_conf "$CONF" <<'CONF'
version = 1;
interfaces = (
  { name = "cx"; match = { driver = "mlx5_core"; }; addresses = [ "192.168.61.1/24" ];
    roce = { enable = true; tos = 106; }; }
);
CONF
nicsim_halo --only roce,rdma --check --json
is "$(item roce/cx/enable .outcome)" drift "mlx5, enable_roce off: roce/cx/enable drift"
is "$(item rdma/cx/device .outcome)" failed "... rdma/cx/device failed: the reload, not this run, brings it"

done_testing
