#!/bin/bash
# The role over SSH into a real node: a Debian 12 root (debootstrap,
# cached; tests/lib/debian-root.sh) with sshd, python3 and python3-apt,
# booted with systemd-nspawn --boot --register=no in a network namespace
# of the test's, reached from the controller (this test) over a veth.
# ansible-playbook runs the halo.provision.node role with
# halo_package_file set to the project's .deb, as an operator does on a
# fresh node:
#
#   1. check mode: apt would install the package and does not (the node's
#      dpkg database is unchanged), the node cannot be audited yet, and
#      nothing on it changes;
#   2. the play: the package is installed by the node's real apt and dpkg
#      (its maintainer scripts enable the units), the config is installed
#      and validated by the node's own program, the module converges the
#      node (rdma0's MTU and address, read from outside with ip);
#   3. the play again: nothing changes (the package is there, the node
#      is converged), and the package file copied to the node is gone;
#   4. the package purged and halo_package set instead: the node's apt
#      installs it by name from the node's repository (a local one that
#      holds the .deb), and a second play changes nothing.
#
# Like units-boot.sh it runs once per CI: it skips in a sanitizer build
# (the node runs the packaged binary).
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/ansible.sh"
. "$top_srcdir/tests/lib/debian-deb.sh"
. "$top_srcdir/tests/lib/debian-root.sh"
. "$top_srcdir/tests/lib/container.sh"

ansible_cluster_require
container_require ssh ssh-keygen
t0=$SECONDS

deb_for_test
ok 0 "the .deb: ${deb##*/}"
pkg=$(dpkg-deb -f "$deb" Package) arch=$(dpkg-deb -f "$deb" Architecture)

# The node: the package's dependencies are there (a node's own
# repositories would provide them; the root has no package lists), the
# package is not. sshd and what Ansible's apt module needs on a node.
mapfile -t depends < <(deb_depends "$deb")
base=$(debian_root openssh-server python3 python3-apt "${depends[@]}")
ok $? "a Debian 12 root with sshd, python3-apt and ${depends[*]}"
[ -d "$base" ] || { done_testing; exit 1; }
root=$TEST_TMP/root
cp -a "$base" "$root"
ok $? "the root copied for this run"
dpkg_status() { sed -n "/^Package: $pkg\$/,/^\$/s/^Status: //p" "$root/var/lib/dpkg/status"; }
is "$(dpkg_status)" "" "the node has no $pkg package yet"

# The controller's key is the node's root's only way in. pam_loginuid
# cannot set a login UID in a container without CAP_AUDIT_CONTROL: the
# node's sshd is told to go on without it, as container images do.
ssh-keygen -q -t ed25519 -N '' -f "$TEST_TMP/id" &&
	install -d -m 0700 "$root/root/.ssh" &&
	install -m 0600 "$TEST_TMP/id.pub" "$root/root/.ssh/authorized_keys" &&
	sed -i 's/^session[[:space:]]\+required[[:space:]]\+pam_loginuid\.so/session optional pam_loginuid.so/' \
		"$root/etc/pam.d/sshd"
ok $? "the controller's key in the node's /root/.ssh/authorized_keys"

# The cable to the controller (ctl0 here, eth0 on the node) and the
# node's RDMA link (rdma0, its peer peer0), in the node's namespace.
NS=$(new_netns node)
ip link add ctl0 type veth peer name eth0 netns "$NS" &&
	ip addr add 192.168.78.1/24 dev ctl0 && ip link set ctl0 up &&
	ip -n "$NS" addr add 192.168.78.2/24 dev eth0 && ip -n "$NS" link set eth0 up &&
	ip -n "$NS" link add rdma0 type veth peer name peer0 &&
	ip -n "$NS" link set peer0 up
ok $? "veth ctl0 / eth0 (192.168.78.2) and rdma0 / peer0 in $NS"

# The node boots and stays up until the test powers it off.
container_run "$TEST_TMP/console.log" 600 -D "$root" --boot \
	--network-namespace-path="/run/netns/$NS" --capability=CAP_NET_ADMIN \
	--console=passive &
node_pid=$!
node_ssh() {
	ssh -q -i "$TEST_TMP/id" -o BatchMode=yes -o ConnectTimeout=2 \
		-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
		root@192.168.78.2 "$@"
}
# stop_node: asks the node to power off (over SSH), and if it is still up
# 30 s later, has systemd-nspawn halt it (SIGTERM to the timeout command
# container_run runs it under); the container's exit status.
stop_node() {
	node_ssh systemctl poweroff >/dev/null 2>&1
	for _ in $(seq 60); do
		kill -0 "$node_pid" 2>/dev/null || break
		sleep 0.5
	done
	kill -0 "$node_pid" 2>/dev/null && pkill -TERM -P "$node_pid"
	wait "$node_pid"
}
trap 'stop_node; tap_cleanup' EXIT
for _ in $(seq 120); do
	node_ssh true && break
	kill -0 "$node_pid" 2>/dev/null || break
	sleep 0.5
done
node_ssh true
ok $? "the node booted and answers on SSH ($((SECONDS - t0)) s)"
if [ "$tap_failed" -gt 0 ]; then
	tail -30 "$TEST_TMP/console.log" | sed 's/^/#   console: /'
	done_testing
	exit 1
fi

# The controller: the project's role and module, an inventory of one
# node reached by SSH.
ansible_env
cat >"$ANS/inventory" <<INV
[cluster]
node ansible_host=192.168.78.2 ansible_user=root ansible_connection=ssh ansible_ssh_private_key_file=$TEST_TMP/id ansible_ssh_common_args='-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o ControlMaster=no'
INV
cat >"$ANS/host_vars/node.yml" <<YML
halo_package_file: $deb
halo_config: |
  version = 1;
  interfaces = (
    { name = "rdma0"; mtu = 9000; addresses = [ "192.168.79.1/24" ]; }
  );
YML
cat >"$ANS/site.yml" <<YML
- name: Provision the node
  hosts: cluster
  gather_facts: false
  roles:
    - halo.provision.node
YML
changed_tasks() {
	jq -r '.plays[].tasks[] | select(.hosts.node.changed == true) | .task.name' <<<"$out"
}
mtu() { ip -n "$NS" -j link show dev rdma0 | jq -r '.[0].mtu'; }
node_files() { tree_snapshot "$root/etc"; }

# 1. Check mode on the fresh node.
etc_before=$(node_files)
ansible_play_json --check
is "$rc" 0 "check mode: ansible-playbook exits 0"
[ "$rc" -eq 0 ] || diag "$(tail -20 <<<"$err")"
is "$(task_result 'halo.provision.node : Install the package file (Debian, Ubuntu)' node | jq -r '.changed')" true \
	"check mode: the node's apt would install the package"
is "$(dpkg_status)" "" "check mode: and did not (the node's dpkg database has no $pkg)"
like "$(task_result 'halo.provision.node : Note that check mode cannot audit the node yet' node | jq -r '.msg')" \
	'node: /usr/sbin/halo-provision is not installed yet' "check mode: no program yet, noted"
is "$(node_files) $(mtu)" "$etc_before 1500" "check mode: nothing changed on the node (its /etc, rdma0)"

# 2. The play.
ansible_play_json
is "$rc" 0 "the play: ansible-playbook exits 0"
[ "$rc" -eq 0 ] || diag "$(tail -20 <<<"$err")"
is "$(dpkg_status)" "install ok installed" "the play: the node's dpkg installed $pkg"
is "$(task_result 'halo.provision.node : Install the package file (Debian, Ubuntu)' node | jq -r '.changed')" true \
	"the play: the package task reports changed"
[ -L "$root/etc/systemd/system/multi-user.target.wants/halo-provision.service" ]
ok $? "the play: the package's maintainer scripts enabled the every-boot unit"
is "$(stat -c '%a %U' "$root/etc/halo-provision/halo.conf" 2>/dev/null)" "600 root" \
	"the play: the config is installed, 0600 root"
is "$(task_result 'halo.provision.node : Converge the node' node | jq -c '[.changed, .rc]')" '[true,2]' \
	"the play: the module converged the node (changed, exit 2)"
is "$(mtu)" 9000 "the play: rdma0 has MTU 9000 (ip, outside the node)"
like "$(ip -n "$NS" -o addr show dev rdma0)" 'inet 192\.168\.79\.1/24 ' "the play: rdma0 has 192.168.79.1/24"
[ -f "$root/var/lib/halo-provision/state.json" ]
ok $? "the play: the node's program wrote its state file"

# 3. Again: nothing to do.
ansible_play_json
is "$rc" 0 "again: ansible-playbook exits 0"
is "$(changed_tasks)" "" "again: no task reports changed"
is "$(recap node changed) $(recap node failures)" "0 0" "again: the recap: nothing changed, nothing failed"
is "$(task_result 'halo.provision.node : Converge the node' node | jq -c '[.changed, .rc]')" '[false,0]' \
	"again: the module found the node converged (exit 0)"
left=$(node_ssh "find /tmp /var/tmp -name '*.halo-provision' 2>/dev/null")
is "$left" "" "again: no copy of the package file is left on the node"

# 4. By name from the node's repositories: the package removed, the
# node's only source a local repository that holds the .deb.
node_ssh "dpkg --purge $pkg" >/dev/null 2>&1
is "$(dpkg_status)" "" "by name: $pkg purged from the node"
mkdir -p "$root/srv/repo" && cp "$deb" "$root/srv/repo/" &&
	(cd "$root/srv/repo" && dpkg-scanpackages --multiversion . >Packages 2>/dev/null) &&
	echo 'deb [trusted=yes] file:/srv/repo ./' >"$root/etc/apt/sources.list" &&
	node_ssh 'apt-get -qq update' >/dev/null 2>&1
ok $? "by name: the node's apt knows a local repository with $pkg"
sed -i '/^halo_package_file:/d' "$ANS/host_vars/node.yml" &&
	echo "halo_package: $pkg" >>"$ANS/host_vars/node.yml"
ansible_play_json
is "$rc" 0 "by name: ansible-playbook exits 0"
[ "$rc" -eq 0 ] || diag "$(tail -20 <<<"$err")"
is "$(task_result 'halo.provision.node : Install the package from the node'"'"'s repositories' node | jq -r '.changed')" true \
	"by name: the package task reports changed"
is "$(dpkg_status)" "install ok installed" "by name: the node's apt installed $pkg"
like "$(cat "$root/var/log/apt/history.log" 2>/dev/null)" "Install: $pkg:$arch " \
	"by name: apt's history on the node names the install"
ansible_play_json
is "$(changed_tasks)" "" "by name, again: no task reports changed"

stop_node
ok $? "the node powered off"
trap tap_cleanup EXIT
diag "whole test in $((SECONDS - t0)) s; CPU user and system: $(times | tail -1)"
done_testing
