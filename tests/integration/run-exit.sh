#!/bin/bash
# run-exit: exit 1 means nothing was touched (only the run lock may exist),
# operational failures are exit 4 and also change nothing, a killed run's
# temp files are cleaned by the next, and configured sections without a
# subsystem yet are warnings in every view.
source "${top_srcdir:?}/tests/lib/tap.sh" || exit 1
source "$top_srcdir/tests/fixtures/boot/lib.sh"

# full_snapshot DIR: every file, directory and link with its inode, mtime,
# mode and size, and every file's checksum; the run lock (and so the mtime
# of /run, which holds it) left out.
full_snapshot() {
	(cd "$1" && find . -path ./run/halo-provision.lock -prune -o -path ./run -printf '%y %p\n' -o -printf '%y %i %T@ %m %s %p\n' | sort -k6
	 cd "$1" && find . -type f ! -path ./run/halo-provision.lock -print0 | sort -z | xargs -0 -r sha256sum)
}

# kcmdline_root NAME: the kernel-cmdline fixture with its root= resolvable
# and the /run a real root has.
kcmdline_root() {
	local r
	r=$(boot_root kcmdline "$1")
	boot_image "$r" >/dev/null
	mkdir -p "$r/run"
	echo "$r"
}

NS=$(new_netns exit)
R=$(kcmdline_root k1)
PROM=/var/lib/prometheus/node-exporter/halo-provision.prom

# 1. validation errors found after parsing: exit 1, nothing created but
# the lock, not even the textfile or its directory.
for case in \
	'gtt|boot = { loader = "kernel-cmdline"; gtt_mib = 16000000; };|gtt_mib' \
	'iface|interfaces = ( { name = "nosuch0"; mtu = 9000; } );|nosuch0'; do
	IFS='|' read -r name section re <<<"$case"
	write_conf "$TEST_TMP/$name.conf" <<EOF2
version = 1;
state = { prometheus = "$PROM"; };
$section
EOF2
	before=$(full_snapshot "$R")
	run_halo --root "$R" --netns "$NS" -c "$TEST_TMP/$name.conf"
	is "$rc" 1 "$name: validation error is exit 1"
	like "$err" "$re" "$name: the error says why"
	is "$(full_snapshot "$R")" "$before" "$name: nothing created or changed (lock aside)"
	run_halo --root "$R" --netns "$NS" -c "$TEST_TMP/$name.conf" --check
	if [ "$name" = iface ]; then
		# An audit reports a NIC that is gone as a failed item.
		is "$rc" 4 "$name --check: a failed item, exit 4"
		like "$(cat "$R$PROM")" 'halo_item_in_sync\{key="link/nosuch0/present",subsystem="links"\} 0' \
			"$name --check: the textfile carries it"
		rm -rf "$R/var/lib/prometheus"
	else
		is "$rc" 1 "$name --check: exit 1"
		is "$(full_snapshot "$R")" "$before" "$name --check: no textfile written"
	fi
done

# 2. an output that cannot be written is found before the first change:
# exit 4 (the host's fault, not the config's), the boot file untouched.
write_conf "$TEST_TMP/ro.conf" <<EOF2
version = 1;
boot = { loader = "kernel-cmdline"; iommu = "pt"; };
state = { path = "/var/lib/halo-provision/state.json"; prometheus = "$PROM"; };
EOF2
mkdir -p "$R/var/lib/halo-provision"
before=$(full_snapshot "$R")
unshare -m bash -c 'mount -t tmpfs -o ro tmpfs "$1/var/lib/halo-provision" && "$2" --root "$1" -c "$3"' \
	_ "$R" "$HALO" "$TEST_TMP/ro.conf" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
err=$(cat "$TEST_TMP/err")
is "$rc" 4 "read-only state directory: exit 4"
is "$err" "halo-provision: the state file (state.path) $R/var/lib/halo-provision/state.json cannot be written: Read-only file system; nothing was changed" \
	"read-only state directory: one line naming the output, its key and its path"
is "$(full_snapshot "$R")" "$before" "read-only state directory: /etc/kernel/cmdline untouched"

# 3. a read-only root: apply cannot take the lock (exit 4, not 1); a check
# still audits.
R2=$(kcmdline_root k2)
out=$(unshare -m bash -c 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" &&
	"$2" --root "$1" -c "$3"' _ "$R2" "$HALO" "$TEST_TMP/ro.conf" 2>"$TEST_TMP/err")
rc=$?
is "$rc" 4 "read-only root: apply exit 4"
like "$(cat "$TEST_TMP/err")" "^halo-provision: cannot take the run lock .*: Read-only file system$" \
	"read-only root: says why in one line"
write_conf "$TEST_TMP/ro-check.conf" <<<'version = 1; boot = { loader = "kernel-cmdline"; iommu = "pt"; };'
out=$(unshare -m bash -c 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" &&
	"$2" --root "$1" -c "$3" --check' _ "$R2" "$HALO" "$TEST_TMP/ro-check.conf" 2>"$TEST_TMP/err")
rc=$?
is "$rc" 2 "read-only root: --check runs and finds the drift (exit 2)"

# 4. temp files a killed run left (".#NAME.XXXXXX", what SIGKILL between
# create and rename leaves) are removed by the next apply; other names stay.
R3=$(kcmdline_root k3)
write_conf "$TEST_TMP/temps.conf" <<<'version = 1; boot = { loader = "kernel-cmdline"; iommu = "pt"; };'
run_halo --root "$R3" -c "$TEST_TMP/temps.conf"
is "$((rc & 3))" 2 "temps: first apply changes (exit 2, +8 reboot)"
echo torn >"$R3/etc/kernel/.#cmdline.Ab3dE9"
echo torn >"$R3/var/lib/halo-provision/.#state.json.zzzzzz"
echo keep >"$R3/etc/kernel/.#cmdline.notours"
echo keep >"$R3/etc/kernel/.#other.Ab3dE9"
run_halo --root "$R3" -c "$TEST_TMP/temps.conf" --json
is "$((rc & 3))" 0 "temps: second apply is converged (no change)"
ok "$([ ! -e "$R3/etc/kernel/.#cmdline.Ab3dE9" ] && [ ! -e "$R3/var/lib/halo-provision/.#state.json.zzzzzz" ]; echo $?)" \
	"temps: the stale temp files of managed files are gone"
ok "$([ -e "$R3/etc/kernel/.#cmdline.notours" ] && [ -e "$R3/etc/kernel/.#other.Ab3dE9" ]; echo $?)" \
	"temps: names that are not our temp files are kept"
run_halo --root "$R3" -c "$TEST_TMP/temps.conf" --json
is "$(jq -r '.stats.files_written' <<<"$out")" 0 "temps: the run after writes nothing"

# 5. the textfile on a converged host: rewritten by every apply and check
# (its timestamp is the liveness signal) but not counted as a change.
write_conf "$TEST_TMP/prom.conf" <<EOF2
version = 1;
boot = { loader = "kernel-cmdline"; iommu = "pt"; };
state = { prometheus = "$PROM"; };
EOF2
run_halo --root "$R3" -c "$TEST_TMP/prom.conf"
t1=$(grep '^halo_last_run_timestamp_seconds' "$R3$PROM")
sleep 0.05
run_halo --root "$R3" -c "$TEST_TMP/prom.conf" --json
is "$((rc & 3))" 0 "textfile: converged apply, no change"
is "$(jq -r '.stats.files_written' <<<"$out")" 0 "textfile: not counted as a file written"
ok "$([ "$t1" != "$(grep '^halo_last_run_timestamp_seconds' "$R3$PROM")" ]; echo $?)" \
	"textfile: the timestamp moved (the documented exception)"

# A run limited by --only or --interface (the every-boot and hotplug units)
# leaves the textfile of the last full run alone: rewritten with only its
# own items, the other items' series would vanish and their alerts resolve.
before=$(sha256sum <"$R3$PROM")
ok "$(grep -q '^halo_item_in_sync{key="boot/param/iommu"' "$R3$PROM"; echo $?)" \
	"textfile: the full run's boot item is there"
run_halo --root "$R3" -c "$TEST_TMP/prom.conf" --only modules
is "$rc" 0 "textfile: --only modules apply exit 0"
is "$(sha256sum <"$R3$PROM")" "$before" "textfile: untouched by an --only run"
run_halo --root "$R3" -c "$TEST_TMP/prom.conf" --check --only boot
is "$(sha256sum <"$R3$PROM")" "$before" "textfile: untouched by an --only check"
run_halo --root "$R3" -c "$TEST_TMP/prom.conf" --only links --interface rdma0
is "$(sha256sum <"$R3$PROM")" "$before" "textfile: untouched by an --interface run"

# 6. a setting that does nothing here is a warning, never silence: a
# firewall without interfaces, an env file without a RoCE interface.
write_conf "$TEST_TMP/warn.conf" <<EOF2
version = 1;
firewall = { backend = "nftables"; allow_udp = [ 4791 ]; };
state = { env_file = "/etc/halo-provision/rccl.env"; prometheus = "$PROM"; };
EOF2
run_halo --root "$R3" -c "$TEST_TMP/warn.conf" --check
is "$rc" 0 "warnings: check exit 0 (nothing it can check drifted)"
like "$out" "warning: firewall: no interfaces are configured" "warnings: text warning (firewall)"
like "$out" "warning: state.env_file is configured but no interface has a roce group" "warnings: text warning (env_file without a RoCE interface)"
run_halo --root "$R3" -c "$TEST_TMP/warn.conf" --check --json
is "$(jq -r '.warnings | length' <<<"$out")" 2 "warnings: two in JSON"
like "$(cat "$R3$PROM")" "halo_warnings 2" "warnings: the textfile counts them"
run_halo --root "$R3" -c "$TEST_TMP/warn.conf" --check --only boot
is "$(grep -c '^warning:' <<<"$out")" 0 "warnings: --only boot shows none of them"

done_testing
