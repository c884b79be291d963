#!/bin/bash
# rdma_cm defaults in the root's configfs: default_roce_mode "RoCE v2" and
# default_roce_tos from roce.tos, read back; the device directory created
# when absent (a stand-in for the kernel fills ports/ the way mkdir(2)
# makes the kernel do it); a kernel that never fills it; configfs not
# mounted; a check that writes nothing; the ToS the env file cannot carry.
source "$top_srcdir/tests/integration/rdma-lib.sh"

NS=$(new_netns rdmacm) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add eth-a type veth peer name eth-b
CONF=$ROOT/etc/halo-provision/halo.conf
CM=$ROOT/sys/kernel/config/rdma_cm

fake_nic eth-a 0000:c3:00.0 ice
fake_ibdev irdma0 0000:c3:00.0
set_gid irdma0 0 $FE80_GID "RoCE v2" eth-a
set_gid irdma0 1 "$(v4gid 192.168.100.1)" "RoCE v2" eth-a
fake_nic eth-b 0000:c2:00.0 mlx5_core
fake_ibdev rocep194s0f0 0000:c2:00.0
set_gid rocep194s0f0 1 $FE80_GID "RoCE v2" eth-b
set_gid rocep194s0f0 3 "$(v4gid 192.168.100.2)" "RoCE v2" eth-b
# irdma0's directory exists (made by an earlier run), mlx5's does not.
cm_dev irdma0 0 "IB/RoCE v1"

write_conf "$CONF" <<'EOF'
version = 1;
interfaces = (
  { name = "rdma0"; match = { pci = "0000:c3:00.0"; }; addresses = [ "192.168.100.1/30" ];
    roce = { tos = 106; }; },
  { name = "cx0"; match = { pci = "0000:c2:00.0"; }; addresses = [ "192.168.100.2/30" ];
    roce = { tos = 106; }; }
);
EOF
halo() { run_halo -c "$CONF" --root "$ROOT" --netns "$NS" --only rdma "$@"; }

snap=$(cd "$ROOT" && find sys/kernel/config -printf '%p %s\n' | sort)
halo --check --json
is "$rc" 2 "check: exit 2 (drift)"
is "$(item rdma/rdma0/rdma-cm .observed)/$(item rdma/rdma0/rdma-cm .outcome)" \
	"IB/RoCE v1, ToS 0/drift" "check: rdma0 reads IB/RoCE v1, ToS 0"
is "$(item rdma/cx0/rdma-cm .outcome)" drift "check: no directory for the mlx5 device: drift"
like "$(item rdma/cx0/rdma-cm .message)" \
	'/sys/kernel/config/rdma_cm/rocep194s0f0 does not exist: the values are unknown' \
	"... saying the values are unknown"
is "$(item rdma/cx0/rdma-cm .wanted)" "RoCE v2, ToS 106" "wanted: RoCE v2, ToS 106"
is "$(cd "$ROOT" && find sys/kernel/config -printf '%p %s\n' | sort)" "$snap" \
	"check: configfs untouched (no mkdir)"

# The kernel's part: mkdir of rdma_cm/<ibdev> fills ports/1. The tool
# allows a second for it; at a higher priority than the test's other
# processes, this stand-in keeps to that on a loaded machine too.
export CM
nice -n -10 bash -c '
	for _ in $(seq 200); do
		if [ -d "$CM/rocep194s0f0" ]; then
			mkdir -p "$CM/rocep194s0f0/ports/1"
			echo 0 >"$CM/rocep194s0f0/ports/1/default_roce_tos"
			echo "IB/RoCE v1" >"$CM/rocep194s0f0/ports/1/default_roce_mode"
			exit 0
		fi
		sleep 0.02
	done' &
kernel=$!
halo --json
wait "$kernel"
is "$rc" 2 "apply: exit 2 (changed)"
[ -n "$err" ] && diag "$err"
is "$(item rdma/rdma0/rdma-cm .outcome)/$(item rdma/cx0/rdma-cm .outcome)" "changed/changed" \
	"apply: both changed"
is "$(cat "$CM/irdma0/ports/1/default_roce_mode")" "RoCE v2" "irdma0: default_roce_mode RoCE v2"
is "$(cat "$CM/irdma0/ports/1/default_roce_tos")" 106 "irdma0: default_roce_tos 106"
is "$(cat "$CM/rocep194s0f0/ports/1/default_roce_mode")" "RoCE v2" \
	"rocep194s0f0: created, default_roce_mode RoCE v2"
is "$(cat "$CM/rocep194s0f0/ports/1/default_roce_tos")" 106 "rocep194s0f0: default_roce_tos 106"
is "$(item rdma/cx0/rdma-cm .observed)" "RoCE v2, ToS 106" "apply: read back"

halo --check
is "$rc" 0 "check after apply: exit 0"
halo
is "$rc" 0 "apply again: exit 0 (nothing written)"

# The kernel does not fill the directory (not an rdma_cm device).
rm -rf "$CM/rocep194s0f0"
halo --json
is "$rc" 4 "ports/ never appears: exit 4 (failed)"
is "$(item rdma/cx0/rdma-cm .message)" \
	"the kernel did not create /sys/kernel/config/rdma_cm/rocep194s0f0/ports/1/default_roce_tos after mkdir of /sys/kernel/config/rdma_cm/rocep194s0f0: No such file or directory" \
	"... the failure says what is missing"
is "$(jq -r '[.items[] | select(.outcome=="failed") | .key] | join(" ")' <<<"$out")" \
	"rdma/cx0/rdma-cm" "... and only that item failed"

# A symlink that leads out of the root, planted at rdma_cm itself, at the
# device directory or at either attribute: it may resolve on
# the host, so it is neither read nor taken for "absent"; apply and check
# fail naming it, without waiting for the kernel.
cm_dev irdma0 106 "RoCE v2"
cm_dev rocep194s0f0 106 "RoCE v2"
mkdir -p "$TEST_TMP/outside/rdma_cm/irdma0/ports/1"
echo "RoCE v2" >"$TEST_TMP/outside/mode"
for p in /sys/kernel/config/rdma_cm /sys/kernel/config/rdma_cm/irdma0 \
	/sys/kernel/config/rdma_cm/irdma0/ports/1/default_roce_mode \
	/sys/kernel/config/rdma_cm/irdma0/ports/1/default_roce_tos; do
	cp -a "$ROOT/sys/kernel/config" "$TEST_TMP/config.saved"
	rm -rf "${ROOT:?}$p"
	ln -s "$TEST_TMP/outside/mode" "$ROOT$p"
	for mode in --check ""; do
		halo $mode --json
		is "$rc" 4 "symlink out at $p${mode:+ ($mode)}: exit 4"
		msg=$(item rdma/rdma0/rdma-cm .message)
		[[ $msg == ?(reading )"$ROOT$p: symlink to '$TEST_TMP/outside/mode' does not resolve inside the root" ]]
		ok $? "... naming it: $msg"
	done
	is "$(cat "$TEST_TMP/outside/mode")" "RoCE v2" "... the outside file untouched"
	rm -rf "$ROOT/sys/kernel/config"
	mv "$TEST_TMP/config.saved" "$ROOT/sys/kernel/config"
done

# An attribute the apply may write is rewritten in place in a fixture, so
# it must be a file of its own: one hard-linked to a file outside the
# root, or a symlink to another file of the root, is refused when
# observed, by --check and apply alike: exit 1, one line naming it, and
# nothing changed (not rdma0's ToS, which the run would have set first,
# not the file behind the link).
cm_dev irdma0 0 "RoCE v2"
cm_dev rocep194s0f0 106 "RoCE v2"
P=/sys/kernel/config/rdma_cm/rocep194s0f0/ports/1
mkdir -p "$ROOT/etc/kept"
cm_now() {
	(cd "$CM" && find . -printf '%p %i %n %s %T@\n' | sort && cat ./*/ports/1/*)
	tree_snapshot "$ROOT"
	cat "$TEST_TMP/decoy"
}
for attr in default_roce_mode default_roce_tos; do
	old=$([ $attr = default_roce_tos ] && echo 0 || echo "IB/RoCE v1")
	for link in hard symbolic; do
		f=$ROOT$P/$attr
		mv "$f" "$TEST_TMP/saved"
		echo "$old" >"$TEST_TMP/decoy"
		echo "$old" >"$ROOT/etc/kept/$attr"
		if [ $link = hard ]; then
			ln "$TEST_TMP/decoy" "$f"
			why="refusing to write a file with other hard links: $f"
		else
			ln -s "/etc/kept/$attr" "$f"
			why="refusing to write through a symlink: $f (not a kernel file system)"
		fi
		before=$(cm_now)
		for mode in --check ""; do
			halo $mode
			is "$rc" 1 "$attr a $link link${mode:+ ($mode)}: exit 1"
			is "$err" "halo-provision: rdma/cx0/rdma-cm: $why" "... one line naming it"
		done
		is "$(cm_now)" "$before" "... nothing changed"
		rm "$f"
		mv "$TEST_TMP/saved" "$f"
	done
done
rm -r "$ROOT/etc/kept"
halo --json
is "$rc/$(item rdma/rdma0/rdma-cm .outcome)" 2/changed \
	"each attribute a file of its own again: apply sets rdma0's ToS"

# configfs not mounted (or rdma_cm not loaded): one clear failure per item.
rm -rf "$ROOT/sys/kernel/config"
mkdir -p "$ROOT/sys/kernel/config"
halo --check --json
is "$rc" 4 "configfs not mounted: exit 4"
is "$(item rdma/rdma0/rdma-cm .message)" \
	"configfs is not mounted on /sys/kernel/config (mount -t configfs none /sys/kernel/config): No such file or directory" \
	"... says configfs is not mounted, and how to mount it"
is "$(jq -r '[.items[] | select(.outcome=="failed")] | length' <<<"$out")" 2 \
	"... one failed item per interface"
halo --json
is "$rc" 4 "apply: the same failure, nothing else changed (exit 4)"
is "$(find "$ROOT/sys/kernel/config" | wc -l)" 1 "apply did not create anything in configfs"

# ToS unset: only the mode is managed; roce.enable = false: no rdma items.
sed -i -e '0,/tos = 106;/s/tos = 106;//' -e 's/roce = { tos = 106; }/roce = { enable = false; }/' "$CONF"
cm_dev irdma0 106 "RoCE v2"
cm_dev rocep194s0f0 0 "RoCE v2"
halo --check --json
is "$(item rdma/rdma0/rdma-cm .wanted)/$(item rdma/rdma0/rdma-cm .outcome)" "RoCE v2/ok" \
	"no roce.tos: only the mode is wanted"
is "$(jq -r '[.items[] | select(.key | startswith("rdma/cx0/"))] | length' <<<"$out")" 0 \
	"roce.enable = false: no rdma items"

# The env file carries one NCCL_IB_TC: different ToS values are refused.
write_conf "$CONF" <<'EOF'
version = 1;
interfaces = (
  { name = "rdma0"; match = { pci = "0000:c3:00.0"; }; roce = { tos = 106; }; },
  { name = "cx0"; match = { pci = "0000:c2:00.0"; };
    roce = { tos = 104; }; }
);
state = { env_file = "/etc/halo-provision/rccl.env"; };
EOF
snap=$(cd "$ROOT" && find . -printf '%p %s\n' | sort)
halo
is "$rc" 1 "two different ToS with an env file: exit 1"
is "$err" "halo-provision: $CONF:5: interface \"cx0\": roce.tos 104 differs from 106 of \"rdma0\": the env file's NCCL_IB_TC is one value for every device" \
	"... naming the line and both values"
is "$(cd "$ROOT" && find . -printf '%p %s\n' | sort)" "$snap" "... and nothing changed"

done_testing
