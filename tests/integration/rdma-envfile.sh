#!/bin/bash
# The env file (state.env_file): computed after the links phase added the
# address (a stand-in for the kernel fills the GID table a moment after
# the address appears on the live veth), read back by systemd's own
# environment-file parser, within podman's --env-file rules; an IPv6
# address that shifts the index; two interfaces; a GID that never comes.
source "$top_srcdir/tests/integration/rdma-lib.sh"

NS=$(new_netns rdmaenv) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add eth-a type veth peer name eth-b
CONF=$ROOT/etc/halo-provision/halo.conf
ENV=$ROOT/etc/halo-provision/rccl.env

fake_nic eth-a 0000:c2:00.0 ice
fake_ibdev rocep194s0f0 0000:c2:00.0
set_gid rocep194s0f0 0 $FE80_GID "RoCE v2" eth-a
cm_dev rocep194s0f0
write_conf "$CONF" <<'EOF'
version = 1;
interfaces = (
  { name = "rdma0"; match = { pci = "0000:c2:00.0"; }; mtu = 9000;
    addresses = [ "192.168.100.1/30" ]; roce = { tos = 106; }; }
);
state = { env_file = "/etc/halo-provision/rccl.env"; };
EOF
halo() { run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only links,rdma "$@"; }

# The kernel's part: the IPv4 GID shows up after the address is on eth-a.
gid_follows_address() { # IBDEV INDEX ADDRESS IFNAME
	for _ in $(seq 300); do
		if ip -n "$NS" -j addr show dev "$4" | jq -e --arg a "$3" \
			'.[0].addr_info[] | select(.local == $a)' >/dev/null; then
			sleep 0.3
			set_gid "$1" "$2" "$(v4gid "$3")" "RoCE v2" "$4"
			return 0
		fi
		sleep 0.02
	done
}

halo --check --json
is "$rc" 2 "check before apply: exit 2 (drift)"
like "$(item file/etc/halo-provision/rccl.env .message)" \
	'cannot compute the content: no RoCE v2 GID of 192\.168\.100\.1 on eth-a yet' \
	"check: the env file cannot be computed before the address is up"
test ! -e "$ENV"
ok $? "check wrote no env file"

gid_follows_address rocep194s0f0 1 192.168.100.1 eth-a &
kernel=$!
halo --json
wait "$kernel"
is "$rc" 2 "apply: exit 2 (changed)"
[ -n "$err" ] && diag "$err"
is "$(item rdma/rdma0/gid-index .observed)/$(item rdma/rdma0/gid-index .outcome)" "1/changed" \
	"apply waited for the GID table: index 1"
is "$(item file/etc/halo-provision/rccl.env .outcome)" changed "the env file was written"
is "$(grep -v '^#' "$ENV")" "NCCL_IB_HCA==rocep194s0f0:1
NCCL_IB_GID_INDEX=1
NCCL_IB_TC=106
NCCL_SOCKET_IFNAME==eth-a
GLOO_SOCKET_IFNAME=eth-a
NCCL_IB_TIMEOUT=23
NCCL_IB_RETRY_CNT=7" "the env file's assignments"
head -1 "$ENV" | grep -q 'Managed by halo-provision'
ok $? "the env file carries the managed header"
is "$(stat -c %a "$ENV")" 644 "mode 0644"

# systemd's parser (the one behind EnvironmentFile=, here through the
# environment.d generator, which reads the same grammar): exactly the
# same assignments.
GEN=/usr/lib/systemd/user-environment-generators/30-systemd-environment-d-generator
if [ -x "$GEN" ]; then
	mkdir -p "$TEST_TMP/xdg/environment.d"
	cp "$ENV" "$TEST_TMP/xdg/environment.d/50-rccl.conf"
	parsed=$(env -i XDG_CONFIG_HOME="$TEST_TMP/xdg" "$GEN" | grep -E '^(NCCL|GLOO)_' | sort)
	is "$parsed" "$(grep -v '^#' "$ENV" | sort)" \
		"systemd's environment-file parser reads every assignment verbatim"
else
	ok 0 "# SKIP systemd's environment-d generator is not installed"
fi
# podman's --env-file rules (pkg/env ParseFile; podman itself is not in
# quickstart's packages): lines split at the first "=", the value taken
# verbatim, "#" lines skipped, no quotes, no leading blanks, no "$".
bad=$(grep -v '^#' "$ENV" | grep -Ev '^[A-Z_]+=[A-Za-z0-9._:,=+@-]+$')
is "$bad" "" "every line is KEY=VALUE with nothing podman or systemd would unquote"

halo
is "$rc" 0 "apply again: exit 0"
halo --check
is "$rc" 0 "check: exit 0"

# An IPv6 address added before the IPv4 one shifts the GID (the kernel
# re-adds the entries): the file drifts and apply follows.
set_gid rocep194s0f0 1 2001:0db8:0000:0000:0000:0000:0000:0001 "RoCE v2" eth-a
set_gid rocep194s0f0 2 "$(v4gid 192.168.100.1)" "RoCE v2" eth-a
halo --check --json --diff
is "$rc" 2 "shifted GID: check exit 2"
is "$(item rdma/rdma0/gid-index .observed)" 2 "check: index 2"
like "$(item file/etc/halo-provision/rccl.env .diff)" '\+NCCL_IB_GID_INDEX=2' \
	"the env file's diff shows the new index"
halo
is "$rc" 2 "apply: exit 2"
is "$(grep '^NCCL_IB_GID_INDEX=' "$ENV")" "NCCL_IB_GID_INDEX=2" "the env file follows"

# Two RDMA interfaces: comma lists in config order; different GID indexes.
ip -n "$NS" link add eth-c type veth peer name eth-d
fake_nic eth-c 0000:c3:00.0 mlx5_core
fake_ibdev mlx5_1 0000:c3:00.0
set_gid mlx5_1 0 $FE80_GID "IB/RoCE v1" eth-c
set_gid mlx5_1 1 $FE80_GID "RoCE v2" eth-c
set_gid mlx5_1 2 "$(v4gid 192.168.101.1)" "IB/RoCE v1" eth-c
set_gid mlx5_1 3 "$(v4gid 192.168.101.1)" "RoCE v2" eth-c
cm_dev mlx5_1
sed -i 's|^);|  ,{ name = "rdma1"; match = { pci = "0000:c3:00.0"; }; addresses = [ "192.168.101.1/30" ]; roce = { tos = 106; }; }\n);|' "$CONF"
halo
is "$rc" 2 "a second interface: exit 2"
[ -n "$err" ] && diag "$err"
is "$(grep -E '^(NCCL_IB_HCA|NCCL_SOCKET_IFNAME|GLOO_SOCKET_IFNAME)=' "$ENV")" \
	"NCCL_IB_HCA==rocep194s0f0:1,mlx5_1:1
NCCL_SOCKET_IFNAME==eth-a,eth-c
GLOO_SOCKET_IFNAME=eth-a,eth-c" "comma lists in config order"
is "$(grep -c '^NCCL_IB_GID_INDEX=' "$ENV")" 0 "different GID indexes: no single NCCL_IB_GID_INDEX"
like "$(cat "$ENV")" '# NCCL_IB_GID_INDEX is not set: the GID indexes differ \(eth-a 2, eth-c 3\)' \
	"... and the file says why"

# A GID that never comes: apply fails after waiting, the file is kept.
before=$(sha256sum <"$ENV")
clear_gid mlx5_1 3
clear_gid mlx5_1 2
halo --json
is "$rc" 4 "the GID never appears: exit 4"
like "$(item rdma/rdma1/gid-index .message)" 'no RoCE v2 GID of 192\.168\.101\.1 on eth-c in mlx5_1 port 1' \
	"gid-index fails with what is missing"
is "$(item file/etc/halo-provision/rccl.env .outcome)" failed "the env file item failed"
like "$(item file/etc/halo-provision/rccl.env .message)" 'not written: no RoCE v2 GID of 192\.168\.101\.1 on eth-c' \
	"... saying why it was not written"
is "$(sha256sum <"$ENV")" "$before" "the old env file is untouched"

# No address configured, and the link has two IPv4 GIDs: the env file
# says the choice is ambiguous, as gid-index does, not that a GID is
# still to come.
set_gid mlx5_1 2 "$(v4gid 192.168.101.1)" "RoCE v2" eth-c
set_gid mlx5_1 3 "$(v4gid 192.168.101.9)" "RoCE v2" eth-c
sed -i 's|addresses = \[ "192.168.101.1/30" \]; ||' "$CONF"
grep -q "192.168.101.1/30" "$CONF" && diag "the config still lists the address"
halo --check --json
like "$(item rdma/rdma1/gid-index .message)" '^eth-c has 2 RoCE v2 IPv4 GIDs on mlx5_1 port 1' \
	"two IPv4 GIDs, no address: gid-index says which choice is missing"
is "$(item file/etc/halo-provision/rccl.env .message)" \
	"cannot compute the content: eth-c has 2 RoCE v2 IPv4 GIDs: list the address NCCL should use in the entry's addresses (rdma/rdma1/gid-index)" \
	"... and so does the env file"

# A hotplug run (--interface) leaves the env file to the full runs.
halo --interface rdma0 --json
is "$(jq -r '[.items[] | select(.key | startswith("file/"))] | length' <<<"$out")" 0 \
	"--interface: no env file item"

done_testing
