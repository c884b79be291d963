# tests/integration/rdma-lib.sh: fixture sysfs and configfs trees for the
# rdma tests, shaped like the kernel's (sourced after setting nothing; it
# sources tests/lib/tap.sh itself).
#
# The empty entries of a GID table must read EINVAL, as the kernel's do
# (drivers/infiniband/core/sysfs.c). A mode-000 file does not fail for
# root, so the test runs in a mount namespace of its own and bind-mounts a
# real kernel attribute that reads EINVAL over those entries: the "speed"
# of a loopback device (no link settings: speed_show returns -EINVAL), from
# a sysfs mounted for the test's own network namespace.
if [ -z "${HALO_RDMA_MNTNS:-}" ] && unshare --mount --propagation private true 2>/dev/null; then
	export HALO_RDMA_MNTNS=1
	exec unshare --mount --propagation private "${BASH:-bash}" "$0" "$@"
fi
source "$top_srcdir/tests/lib/tap.sh"

# The bind mounts and the sysfs go before tap.sh removes the scratch tree
# (rm -rf must never walk into a mounted sysfs).
rdma_cleanup() {
	awk -v t="$TEST_TMP" 'index($5, t) == 1 { print $5 }' /proc/self/mountinfo |
		sort -r | xargs -r -n1 umount -l 2>/dev/null
	tap_cleanup
}
trap rdma_cleanup EXIT

ROOT=$TEST_TMP/root
mkdir -p "$ROOT/etc/halo-provision" "$ROOT/sys/class/net" "$ROOT/sys/class/infiniband" \
	"$ROOT/sys/module"

# EINVAL_SRC: a real file whose read fails with EINVAL, or "" if none.
EINVAL_SRC=
mkdir -p "$TEST_TMP/sysfs"
if [ -n "${HALO_RDMA_MNTNS:-}" ] && mount -t sysfs sysfs "$TEST_TMP/sysfs" 2>/dev/null; then
	if ! cat "$TEST_TMP/sysfs/class/net/lo/speed" >/dev/null 2>"$TEST_TMP/einval.err" &&
	   grep -q 'Invalid argument' "$TEST_TMP/einval.err"; then
		EINVAL_SRC=$TEST_TMP/sysfs/class/net/lo/speed
	fi
fi

ZERO_GID=0000:0000:0000:0000:0000:0000:0000:0000

# v4gid A.B.C.D: the IPv4-mapped GID as sysfs prints it (%pI6).
v4gid() {
	local IFS=.
	set -- $1
	printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n' "$1" "$2" "$3" "$4"
}

# empty FILE: an empty GID entry's attribute (reads EINVAL when possible).
empty() {
	umount "$1" 2>/dev/null
	: >"$1"
	[ -n "$EINVAL_SRC" ] && mount --bind "$EINVAL_SRC" "$1"
	return 0
}


# fake_ibdev IBDEV BDF [NODE_TYPE]: an RDMA device of the PCI function BDF,
# port 1 ACTIVE/LinkUp, a GID table of 8 empty entries.
fake_ibdev() {
	local ib=$1 rel=devices/pci0000:00/$2/infiniband/$1 type=${3:-1: CA} i
	local port=$ROOT/sys/$rel/ports/1
	mkdir -p "$port/gids" "$port/gid_attrs/types" "$port/gid_attrs/ndevs"
	echo "$type" >"$ROOT/sys/$rel/node_type"
	echo "4: ACTIVE" >"$port/state"
	echo "5: LinkUp" >"$port/phys_state"
	echo Ethernet >"$port/link_layer"
	for i in 0 1 2 3 4 5 6 7; do
		echo "$ZERO_GID" >"$port/gids/$i"
		empty "$port/gid_attrs/types/$i"
		empty "$port/gid_attrs/ndevs/$i"
	done
	ln -s "../../$rel" "$ROOT/sys/class/infiniband/$ib"
}

# set_gid IBDEV INDEX GID TYPE NDEV: fills entry INDEX of port 1.
set_gid() {
	local port=$ROOT/sys/class/infiniband/$1/ports/1
	echo "$3" >"$port/gids/$2"
	umount "$port/gid_attrs/types/$2" 2>/dev/null
	umount "$port/gid_attrs/ndevs/$2" 2>/dev/null
	echo "$4" >"$port/gid_attrs/types/$2"
	echo "$5" >"$port/gid_attrs/ndevs/$2"
}

# clear_gid IBDEV INDEX: an empty entry again.
clear_gid() {
	local port=$ROOT/sys/class/infiniband/$1/ports/1
	echo "$ZERO_GID" >"$port/gids/$2"
	empty "$port/gid_attrs/types/$2"
	empty "$port/gid_attrs/ndevs/$2"
}

# fe80gid IFNAME: the link-local GID of a link (any fe80 will do).
FE80_GID=fe80:0000:0000:0000:b696:91ff:feaa:bb01

# cm_dev IBDEV [TOS MODE]: rdma_cm/<ibdev>/ports/1 as the kernel makes it.
cm_dev() {
	local d=$ROOT/sys/kernel/config/rdma_cm/$1/ports/1
	mkdir -p "$d"
	echo "${2:-0}" >"$d/default_roce_tos"
	echo "${3:-IB/RoCE v1}" >"$d/default_roce_mode"
}

# item KEY JQ: a field of an item of the last --json run.
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }
