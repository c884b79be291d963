# Sourced by the firewall backend tests (files-firewalld.sh,
# files-nftables.sh) after tests/lib/tap.sh: the node both are tested on.
#   firewall_node NAME   a namespace of its own (NS) with the veth pairs
#                        eth-a/eth-b and eth-c/eth-d, the root ROOT and the
#                        config path CONF
#   conf TRUSTED BACKEND the config: RoCE on eth-a, eth-c plain, the
#                        firewall group with these two values
#   halo ARGS...         the links and files subsystems on that node
#   item KEY FILTER      FILTER of item KEY in the last JSON report

firewall_node() {
	NS=$(new_netns "$1") || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
	ip -n "$NS" link add eth-a type veth peer name eth-b
	ip -n "$NS" link add eth-c type veth peer name eth-d
	ROOT=$TEST_TMP/root
	CONF=$ROOT/etc/halo-provision/halo.conf
	mkdir -p "$ROOT/etc/halo-provision" "$ROOT/sys/class/net"
}

conf() {
	write_conf "$CONF" <<EOF2
version = 1;
interfaces = (
  { name = "eth-a"; roce = { tos = 106; }; },
  { name = "eth-c"; }
);
firewall = { backend = "$2"; trusted_interfaces = $1;
             allow_udp = [ 4791 ]; allow_tcp = [ 6379, 8265 ]; };
EOF2
}

halo() { run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links,files "$@"; }
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }
