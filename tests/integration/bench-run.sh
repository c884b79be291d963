#!/bin/bash
# bench/run's smoke test: RUNS=2, one host size (2 links), no Ansible. The
# table has its rows, every figure is a number, the no-op apply's counts
# are all 0. Then the same node with drift on purpose (the counting must
# be able to see a change): noop_counts on a real apply counts its write,
# rename and mutating netlink message.
source "$top_srcdir/tests/lib/tap.sh"

out=$(HALO=$HALO RUNS=2 SIZES=2 ANSIBLE_RUNS=0 TREE_FILLERS=200 bash "$top_srcdir/bench/run" 2>"$TEST_TMP/stderr")
rc=$?
is "$rc" 0 "bench/run exits 0"
[ "$rc" = 0 ] || diag "$(tail -5 "$TEST_TMP/stderr")"
num='[0-9]+(\.[0-9]+)?'
like "$out" "/bin/true \(floor\) +$num +[0-9]+ +1\.0" "floor row: median and RSS"
like "$out" "/bin/true, simulator preloaded \(sim floor\) +$num +$num" "simulator floor row: median and ratio"
like "$out" "halo-provision --check \(x sim floor\) +$num +<= 3x floor +(met|MISSED)" \
	"--check against the simulator floor: ratio and target"
like "$out" "halo-provision --check \(x /bin/true\) +$num +[0-9]+ +$num +<= 3x floor +(met|MISSED)" \
	"--check row: median, RSS, ratio, target, result"
like "$out" "  less the simulator's start-up \(x /bin/true\) +$num +<= 3x floor +(met|MISSED)" \
	"--check with the simulator's start-up taken out: ratio and target"
like "$out" "scripted audit, [1-9][0-9]* facts \(/ --check\) +$num +[0-9]+ +$num +>= 50x slower +(met|MISSED)" \
	"scripted audit row"
like "$out" "Ansible check mode .* skipped" "Ansible row present (skipped with ANSIBLE_RUNS=0)"
like "$out" "--check, 2 links +$num +[0-9]+ +[1-9][0-9]*" "size row: 2 links, median, RSS, netlink requests"
like "$out" "peak RSS of --check, largest +[0-9]+ +<= 8192 KiB" "peak RSS row"
for what in "files written under the root" "renamed under the root" "unlinked under the root" \
	"directories made under the root" "mutating netlink messages to the kernel" \
	"set requests the simulated NICs answered"; do
	is "$(sed -n "s/^  $what *//p" <<<"$out")" 0 "no-op apply: $what: 0"
done
like "$out" "  all +0 \(met\)" "no-op apply: all 0"
# The node's module tree swapped for plain, zstd and xz ones (200 fillers
# besides the node's 10 modules), each with its ratio and peak RSS.
for ext in .ko .ko.zst .ko.xz; do
	like "$out" "--check, 210 modules, ${ext//./\\.} \(x /bin/true\) +$num +[0-9]+ +$num +<= 3x floor +(met|MISSED)" \
		"module tree row, $ext: median, RSS, ratio, target"
done
is "$(grep -cE '^  peak RSS +[0-9]+ +<= 4096 KiB +(met|MISSED)$' <<<"$out")" 3 "module trees: three peak RSS rows"
is "$(grep -cE "^    less the simulator's start-up +$num +<= 3x floor +(met|MISSED)\$" <<<"$out")" 3 \
	"module trees at distribution size: three rows with the simulator's start-up taken out"
is "$(grep -cE "^  less the simulator's start-up +$num +<= 3x floor +(met|MISSED)\$" <<<"$out")" 3 \
	"module trees: three rows with the simulator's start-up taken out"
# Then each with the node's modules at a distribution's size.
is "$(grep -cE "^  the node's modules at distribution size +$num +[0-9]+ +$num +<= 3x floor +(met|MISSED)\$" <<<"$out")" 3 \
	"module trees at distribution size: three rows"
is "$(grep -cE '^    peak RSS +[0-9]+ +<= 4096 KiB +(met|MISSED)$' <<<"$out")" 3 \
	"module trees at distribution size: three peak RSS rows"
unlike "$(cat "$TEST_TMP/stderr")" "not in sync on the padded" "the padded trees are still in sync"
# The compressed ones again without apply's record of their parameter
# types: the check decodes the module with options.
is "$(grep -cE "^    before the first apply \(decoded\) +$num +[0-9]+ *\$" <<<"$out")" 2 \
	"compressed trees at distribution size, decoded: two rows"
like "$out" "--check, irdma 32, mlx5 256 entries +$num +[1-9][0-9]* +$num +\(none: sysfs's cost\)" \
	"GID tables as the drivers make them: median, system calls, ratio"
unlike "$(cat "$TEST_TMP/stderr")" "not in sync with the long GID tables" "the long GID tables are still in sync"
like "$out" "  halo-provision's +[1-9][0-9]* \(<= 800: (met|MISSED)\)" "system calls of a --check, the tool's own"
like "$out" "the simulated NIC's own \(strace -k\) +[0-9]+" "system calls the simulator made itself"
# A --check only reads: NICSIM_DEFER_GETS=drop makes the simulator write
# nothing (with =1 it wrote both state files at exit).
like "$out" "  state files the simulator wrote +0 \(met\)" "a --check makes the simulator write no state file"
like "$out" "\(made or written outside the root\) +0" "no-op apply: nothing made or written outside the root"

# The counter sees changes: a made-up strace log of an apply that took
# the run lock (reopened through /proc/self/fd, as the lock is), wrote
# and renamed a file under the root, made a nameless one in /etc and one
# in /run (neither is the lock), set
# an MTU (RTM_NEWLINK) and asked nlctrl for a family (read-only), and
# wrote a file outside the root;
# made a directory and a link on a mount of its own (fsmount: not the
# host's), and, once that descriptor was closed, a directory in a "/"
# that is the host's; and the simulator wrote its state file.
# strace pads the pid column (two spaces) when pids differ in length.
source "$top_srcdir/bench/run-lib.sh"
R=/tmp/r
cat >"$TEST_TMP/s.log" <<'LOG'
7 socket(AF_NETLINK, SOCK_RAW|SOCK_CLOEXEC, NETLINK_ROUTE) = 5<NETLINK:[1]>
7 socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC) = 6<NETLINK:[2]>
7 openat2(3</tmp/r>, "/run/halo-provision.lock", {flags=O_RDWR|O_CREAT|O_NOFOLLOW|O_CLOEXEC, mode=0600, resolve=RESOLVE_IN_ROOT}, 24) = 4</tmp/r/run/halo-provision.lock>
7 openat(AT_FDCWD</tmp>, "/proc/self/fd/4", O_RDWR|O_NOCTTY|O_NONBLOCK|O_CLOEXEC) = 5</tmp/r/run/halo-provision.lock>
7 pwrite64(5</tmp/r/run/halo-provision.lock>, "pid 7         \nmode apply"..., 71, 0) = 71
7 openat(5</tmp/r/run>, ".", O_WRONLY|O_CLOEXEC|O_TMPFILE, 0644) = 14</tmp/r/run/#5318193>(deleted)
7 openat(3</tmp/r/etc>, ".", O_WRONLY|O_CLOEXEC|O_TMPFILE, 0644) = 15</tmp/r/etc/#5318194>(deleted)
7 openat(3</tmp/r/etc>, ".x.tmp", O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC, 0644) = 8</tmp/r/etc/.x.tmp>
7  renameat(3</tmp/r/etc>, ".x.tmp", 3</tmp/r/etc>, "x") = 0
7 openat(AT_FDCWD</tmp>, "/tmp/elsewhere", O_WRONLY|O_CREAT, 0600) = 9</tmp/elsewhere>
7 openat(AT_FDCWD</tmp>, "/tmp/r/etc/y", O_RDONLY) = 10</tmp/r/etc/y>
7 unlinkat(3</tmp/r/etc>, "gone", 0) = -1 ENOENT (No such file or directory)
7 sendto(5<NETLINK:[1]>, [{nlmsg_len=40, nlmsg_type=0x12 /* NLMSG_??? */, nlmsg_flags=NLM_F_REQUEST|0x300, nlmsg_seq=1, nlmsg_pid=1}, "\x00"], 40, 0, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12) = 40
7 sendto(5<NETLINK:[1]>, [{nlmsg_len=40, nlmsg_type=0x10 /* NLMSG_??? */, nlmsg_flags=NLM_F_REQUEST|NLM_F_ACK, nlmsg_seq=2, nlmsg_pid=1}, "\x00"], 40, 0, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12) = 40
7 sendto(6<NETLINK:[2]>, [{nlmsg_len=32, nlmsg_type=0x10 /* NLMSG_??? */, nlmsg_flags=NLM_F_REQUEST|NLM_F_ACK, nlmsg_seq=6, nlmsg_pid=7}, "\x03\x01\x00\x00"], 32, 0, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12) = 32
7 fsmount(11<anon_inode:[fscontext]>, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID) = 12</>
7  mkdirat(12</>, "m", 0700) = 0
7 symlinkat("/proc/self/fd/5", 12</>, "m/x") = 0
7 openat(AT_FDCWD</tmp>, "/tmp/sim/e.json.7.tmp", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0644) = 13</tmp/sim/e.json.7.tmp>
7 rename("/tmp/sim/e.json.7.tmp", "/tmp/sim/e.json") = 0
7 close(12</>) = 0
7 mkdirat(12</>, "evil", 0700) = 0
LOG
is "$(noop_counts "$TEST_TMP/s.log" "$R" /tmp/sim)" "3 1 0 0 1 2 2" \
	"noop_counts: written, renamed, unlinked, mkdir, netlink mutating, lock (its holder record in it), outside (the detached mount and the simulator's files aside)"
is "$(noop_counts "$TEST_TMP/s.log" "$R")" "3 1 0 0 1 2 4" \
	"noop_counts without SIM_DIR: the simulator's two writes are outside too"

# sim_out_ratio: per run, the sim floor's excess over /bin/true comes off
# the check, then the median of the ratios (runs 2 and 3 out of order, so
# a ratio of medians would differ).
printf '%s\n' 1000 1000 2000 >"$TEST_TMP/r.true"
printf '%s\n' 1300 1100 2600 >"$TEST_TMP/r.sim"
printf '%s\n' 3500 4100 5000 >"$TEST_TMP/r.check"
is "$(sim_out_ratio "$TEST_TMP/r.true" "$TEST_TMP/r.sim" "$TEST_TMP/r.check")" 3.20 \
	"sim_out_ratio: the median of (check - (sim - true)) / true, run by run"

# pad_node_modules: the node's modules grow to a distribution's size and
# stay modules (kmod's own modinfo reads them, the parameters unchanged).
for kind in ko zst xz; do
	ext=.ko args=()
	[ "$kind" = ko ] || { ext=.ko.$kind; args=("compress=$kind"); }
	"$top_srcdir/tests/fixtures/modules/mkfixture.sh" "$TEST_TMP/pad-$kind" "$REL" "${args[@]}" \
		>/dev/null 2>&1 || echo "Bail out! mkfixture.sh failed"
	mlx=$(find "$TEST_TMP/pad-$kind" -name "mlx5_core$ext")
	before=$(modinfo -F parmtype "$mlx")
	pad_node_modules "$TEST_TMP/pad-$kind/lib/modules/$REL" "$kind"
	is "$?" 0 "pad_node_modules $kind: done"
	case $kind in
	ko) size=$(stat -c %s "$mlx") ;;
	zst) size=$(zstd -q -d -c "$mlx" | wc -c) ;;
	xz) size=$(xz -d -c "$mlx" | wc -c) ;;
	esac
	[ "$size" -gt $((2800 * 1024)) ]
	ok $? "pad_node_modules $kind: mlx5_core is now $size bytes"
	is "$(modinfo -F parmtype "$mlx")" "$before" "pad_node_modules $kind: still a module, same parameters"
done

# gid_tables: the node's two tables lengthened with empty entries, and
# back; a used entry is never removed.
G=$TEST_TMP/gidroot
for ib in rocep194s0f0 rocep65s0f0; do
	mkdir -p "$G/sys/class/infiniband/$ib/ports/1/gids" "$G/sys/class/infiniband/$ib/ports/1/gid_attrs/types"
	for i in 0 1 2 3 4 5 6 7; do echo 0000:0000:0000:0000:0000:0000:0000:0000 >"$G/sys/class/infiniband/$ib/ports/1/gids/$i"; done
	echo "RoCE v2" >"$G/sys/class/infiniband/$ib/ports/1/gid_attrs/types/1"
done
gid_tables "$G" 32 256
is "$?/$(ls "$G/sys/class/infiniband/rocep194s0f0/ports/1/gids" | wc -l)/$(ls "$G/sys/class/infiniband/rocep65s0f0/ports/1/gids" | wc -l)" \
	0/32/256 "gid_tables 32 256: irdma's table 32 entries, mlx5's 256"
is "$(cat "$G/sys/class/infiniband/rocep65s0f0/ports/1/gids/255")" 0000:0000:0000:0000:0000:0000:0000:0000 \
	"gid_tables: an added entry is empty"
gid_tables "$G" 8 8
is "$?/$(ls "$G/sys/class/infiniband/rocep194s0f0/ports/1/gids" | wc -l)/$(ls "$G/sys/class/infiniband/rocep65s0f0/ports/1/gids" | wc -l)" \
	0/8/8 "gid_tables 8 8: back to 8 entries each"
echo "RoCE v2" >"$G/sys/class/infiniband/rocep65s0f0/ports/1/gid_attrs/types/5"
gid_tables "$G" 8 4
[ "$?" != 0 ] && [ -e "$G/sys/class/infiniband/rocep65s0f0/ports/1/gids/5" ]
ok $? "gid_tables: a used entry is not removed"
done_testing
