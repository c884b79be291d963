#!/bin/bash
# roce on a plain veth, no simulator: the kernel's own answers. The
# fixture sysfs says mlx5_core (so the section is accepted), but the link
# has no dcbnl ops (EOPNOTSUPP) and no devlink instance: every knob is
# unsupported (exit 0), and with required = true failed (exit 4).
source "$top_srcdir/tests/lib/tap.sh"

NS=$(new_netns roceveth) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add v0 type veth peer name v0-p || { echo "1..0 # SKIP no veth"; exit 0; }
ROOT=$TEST_TMP/root
CONF=$ROOT/etc/halo-provision/halo.conf
mkdir -p "$ROOT/etc/halo-provision"
fake_nic v0 0000:c1:00.0 mlx5_core

conf() {
	write_conf "$CONF" <<CONF
version = 1;
interfaces = (
  { name = "v0";
    roce = { enable = true; dcbx = "host"; pfc = [ 3 ]; trust = "dscp";
             dscp_prio = ( [ 26, 3 ] ); ecn = [ 3 ]; required = $1; }; }
);
CONF
}
halo() { run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only roce "$@"; }
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }
roce_outcomes() { jq -c '[.items[] | select(.subsystem=="roce") | .outcome] | unique' <<<"$out"; }

conf false
halo --json
is "$rc" 0 "not required: exit 0"
[ "$rc" = 0 ] || diag "$out $err"
is "$(roce_outcomes)" '["unsupported"]' "every roce item is unsupported"
is "$(jq -c '[.items[] | select(.subsystem=="roce") | .wanted]' <<<"$out")" \
	'["true","host","[ 3 ]","26:3","dscp","[ 3 ] on, the others as found"]' \
	"each item says what it wants (enable, dcbx, pfc, dscp-prio, trust, ecn)"
is "$(item roce/v0/pfc .message)" "v0 has no DCB (dcbnl: Operation not supported)" \
	"pfc: the kernel's EOPNOTSUPP, said"
like "$(item roce/v0/enable .message)" '^devlink pci/0000:c1:00.0 has no driverinit param enable_roce: ' \
	"enable: no devlink instance or family"
like "$(item roce/v0/ecn .message)" 'no /sys/class/net/v0/ecn/roce_np/enable: ' "ecn: no vendor sysfs"
halo --check
is "$rc" 0 "check: exit 0"

conf true
halo --json
is "$rc" 4 "required = true: exit 4"
is "$(roce_outcomes)" '["failed"]' "every roce item failed"
is "$(jq -r .failed <<<"$out")" true "the run failed"

done_testing
