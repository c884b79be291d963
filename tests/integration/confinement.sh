#!/bin/bash
# confinement.sh: root confinement under planted symlinks, FIFOs, devices
# and huge files, a sample; bench/confinement.sh runs every
# path x every plant. First the list of paths: a traced apply and --check
# of the reference root (tests/lib/confine.sh) must touch the paths below,
# each opened through the root's descriptor (openat2 RESOLVE_IN_ROOT).
# Then each trial (confine_trial): no hang, no crash, every descriptor
# inside the root (strace -y), the outside target unchanged, a refusal
# naming the path (or a harmless follow inside the root), and a rerun
# that converges once the plant is gone.
source "${top_srcdir:?}/tests/lib/tap.sh" || exit 1
source "$top_srcdir/tests/lib/confine.sh" || exit 1
command -v strace >/dev/null || { echo "1..0 # SKIP strace is not installed"; exit 0; }
NS=$(new_netns confine) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
confine_netns "$NS"
export TMPDIR=$TEST_TMP

old=$TEST_TMP/old
confine_make_root "$old"
cp -a "$old" "$TEST_TMP/new"
run_halo --root "$TEST_TMP/new" --netns "$NS" --kernel-release "$CONFINE_KR" -q
is "$rc" 10 "the reference apply converges (changed, reboot pending)"
want=$(confine_managed "$TEST_TMP/new")

cp -a "$old" "$TEST_TMP/t"
confine_run "$NS" "$TEST_TMP/t" "$TEST_TMP/apply.trace"
is "$?" 10 "a traced apply: exit 10"
confine_run "$NS" "$TEST_TMP/t" "$TEST_TMP/check.trace" --check
is "$?" 8 "a traced check: exit 8 (reboot pending)"
for t in apply check; do
	is "$(confine_trace_check "$TEST_TMP/$t.trace" "$TEST_TMP/t" "$TEST_TMP/none")" "" \
		"$t: every descriptor and path inside the root"
done
paths=$({ confine_paths "$TEST_TMP/apply.trace" "$TEST_TMP/t"
	  confine_paths "$TEST_TMP/check.trace" "$TEST_TMP/t"; } | sort -k2 -k1,1r | sort -u -k2,2)
for p in "w /etc/default/grub" "w /etc/udev/rules.d/70-halo-access.rules" \
	"w /etc/halo-provision/rccl.env" "w /var/lib/halo-provision/state.json" \
	"w /proc/sys/vm/swappiness" "r /etc/group" "r /etc/halo-provision/halo.conf" \
	"w /etc/nftables.d/halo-provision.nft" "w /run/halo-provision.lock" "d /sys/class/infiniband" \
	"l /sys/class/net/eth-a"; do
	grep -qxF "$p" <<<"$paths"
	ok $? "the traced runs touch $p"
done

# The sample: each plant at a few paths; one of each kind (file written,
# file read, directory created, directory looked up, sysfs followed), and
# the files whose errors once named no path (boot's grub.cfg, links'
# NetworkManager state, rdma's sysfs, the links' sysfs class entries, a
# FIFO or device at a GID entry, a symlink out at rdma_cm configfs).
while read -r plant path; do
	why=$(confine_trial "$NS" "$old" "$want" "$path" "$plant")
	ok $? "$plant at $path: confined, refused or harmless, converges${why:+ ($why)}"
done <<'EOF'
abs-file /etc/udev/rules.d/70-halo-access.rules
rel-file /etc/halo-provision/rccl.env
abs-dir /etc/security
rel-dir /var/lib
abs-file /etc/group
rel-file /proc/sys/vm/swappiness
abs-dir /sys/class/infiniband/rocep194s0f0
rel-dir /etc/default
abs-file /run/halo-provision.lock
fifo /etc/group
device /etc/default/grub
huge /etc/halo-provision/halo.conf
fifo /proc/sys/vm/swappiness
huge /var/lib/halo-provision/state.json
fifo /boot/grub/grub.cfg
huge /boot/grub2/grub.cfg
fifo /etc/NetworkManager/conf.d/90-halo-provision-unmanaged.conf
huge /sys/class/infiniband/rocep194s0f0/ports/1/gid_attrs/types/1
fifo /sys/class/infiniband/rocep194s0f0/ports/1/gids/1
device /sys/class/infiniband/rocep194s0f0/ports/1/gid_attrs/ndevs/1
abs-dir /sys/kernel/config/rdma_cm
rel-file /sys/kernel/config/rdma_cm/rocep194s0f0/ports/1/default_roce_mode
device /sys/class/infiniband/rocep194s0f0/ports/1/state
rel-dir /sys/class/net/eth-a/device/infiniband
abs-dir /sys/class/net
rel-file /sys/class/net/eth-a/device
EOF
# NetworkManager's runtime record of the link is named by its ifindex.
idx=$(ip -n "$NS" -o link show eth-a | cut -d: -f1)
why=$(confine_trial "$NS" "$old" "$want" "/run/NetworkManager/devices/$idx" device)
ok $? "device at /run/NetworkManager/devices/$idx: confined, refused, converges${why:+ ($why)}"
why=$(confine_trial "$NS" "$old" "$want" /etc/group fifo --check)
ok $? "fifo at /etc/group, --check: confined, refused, converges${why:+ ($why)}"
done_testing
