# tests/lib/ansible.sh: simulated clusters driven by the real
# ansible-playbook, hermetically (sourced by bash after tests/lib/tap.sh).
#
# Interface (stable; tests/integration/ansible-*.sh and the seed cluster
# tests use it):
#   ansible_require            TAP skip (exit 0) unless ansible-core is installed
#   ansible_cluster_require    the same, and a skip in a sanitizer build
#   ansible_env                $ANS: a private Ansible home, config and
#                              collection tree (halo.provision from the source
#                              tree); exports the ANSIBLE_* variables; nothing
#                              is read from or written to ~/.ansible or
#                              /etc/ansible
#   ansible_module ARGS_JSON   runs the collection's module as Ansible runs it
#                              on a node (python3, the args on its command
#                              line; check mode and diff mode are the args'
#                              _ansible_check_mode and _ansible_diff): sets
#                              $out, $err, $rc
#   ansible_node NAME [KIND]   a node: a root from sandbox/mkroot.sh KIND
#                              (debian|fedora, default debian) with
#                              /etc/hostname NAME, a network namespace, and
#                              its own halo-provision: a copy of $HALO in
#                              $ANS/programs/NAME/, given to the role as
#                              halo_node_command (the module never runs the
#                              controller's file)
#   node_program NAME          that copy
#   node_root NAME, node_ns NAME   its root directory and namespace
#   ansible_cable A IFA B IFB  a veth cable from A's IFA to B's IFB
#   ansible_config NAME        stdin becomes NAME's config (on the controller;
#                              the role installs it into the node's root)
#   ansible_host_var NAME KEY VALUE   one more host variable (VALUE is YAML)
#   ansible_inventory          writes $ANS/inventory (group "cluster", every
#                              node, connection local, halo_netns/halo_root
#                              per host) and $ANS/site.yml (the role)
#   ansible_play [ARGS...]     ansible-playbook site.yml ARGS with the default
#                              (text) output: sets $out, $err, $rc
#   ansible_play_json [ARGS...]  the same with a JSON stdout callback
#                              (the shape of ansible.posix.json)
#   recap HOST FIELD           from the last ansible_play_json: HOST's
#                              PLAY RECAP counter (ok, changed, failures, ...)
#   task_result TASK HOST      from the last ansible_play_json: HOST's result
#                              of the task named TASK (JSON, "null" if none)
# Reboots are simulated: the role's handler runs $ANS/bin/reboot ROOT, which
# logs to $ANS/reboots.log ("start ROOT", "end ROOT"; "overlap ROOT" if
# another reboot was still running) and runs sandbox/reboot.sh ROOT (the new
# kernel command line becomes the root's /proc/cmdline).
# The cluster check runs $HALO --cluster over the state files fetched into
# $ANS/state.

ansible_require() {
	local p
	for p in ansible-playbook ansible-doc; do
		command -v "$p" >/dev/null 2>&1 || {
			echo "1..0 # SKIP $p not installed (Debian package ansible-core; ./quickstart installs it)"
			exit 0
		}
	done
}

# ansible_cluster_require: ansible_require, and a TAP skip in a sanitizer
# build. The cluster tests' time is ansible-playbook's Python (minutes per
# cluster on two cores); they run once per CI, in the plain build's suite
# (distcheck), while the module's own code runs under ASan and UBSan in
# tests/integration/ansible-module.sh. HALO_SANITIZER_CFLAGS: debian.mk.
ansible_cluster_require() {
	ansible_require
	if [ -n "${HALO_SANITIZER_CFLAGS:-}" ]; then
		echo "1..0 # SKIP sanitizer build: the simulated clusters run once, in the plain build's suite"
		exit 0
	fi
}

ansible_env() {
	ANS=$TEST_TMP/ansible
	local coll=$ANS/collections/ansible_collections/halo/provision
	mkdir -p "$ANS"/{home,tmp,remote,bin,state,configs,host_vars} "${coll%/*}"
	cp -R "$top_srcdir/ansible" "$coll"
	# distcheck's source tree is read-only, and cp keeps that.
	chmod -R u+w "$coll"
	# Modules run by Debian's python3, the one ansible-core is built for
	# (a python3 first on PATH may be a wrapper such as pyenv's shim, which
	# costs a start-up per task).
	cat >"$ANS/ansible.cfg" <<-CFG
	[defaults]
	inventory = $ANS/inventory
	collections_path = $ANS/collections
	collections_scan_sys_path = False
	roles_path = $ANS/roles
	library = $ANS/library
	local_tmp = $ANS/tmp
	remote_tmp = $ANS/remote
	interpreter_python = /usr/bin/python3
	retry_files_enabled = False
	nocolor = True
	forks = 5
	gathering = explicit
	fact_caching = memory
	[connection]
	pipelining = True
	[galaxy]
	cache_dir = $ANS/home/galaxy-cache
	[persistent_connection]
	control_path_dir = $ANS/home/pc
	CFG
	export HOME=$ANS/home ANSIBLE_HOME=$ANS/home ANSIBLE_CONFIG=$ANS/ansible.cfg
	export ANSIBLE_COLLECTIONS_PATH=$ANS/collections ANSIBLE_LOCAL_TEMP=$ANS/tmp
	export ANSIBLE_REMOTE_TEMP=$ANS/remote ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0
	export ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_GALAXY_CACHE_DIR=$ANS/home/galaxy-cache
	export ANSIBLE_PERSISTENT_CONTROL_PATH_DIR=$ANS/home/pc ANSIBLE_SSH_CONTROL_PATH_DIR=$ANS/home/cp
	export ANSIBLE_LOG_PATH=$ANS/ansible.log ANSIBLE_CALLBACK_PLUGINS=$ANS/callback_plugins
	unset ANSIBLE_STDOUT_CALLBACK ANSIBLE_INVENTORY ANSIBLE_ROLES_PATH ANSIBLE_LIBRARY

	# The simulated reboot: logs overlaps (a second reboot starting while
	# one runs), takes long enough that unthrottled reboots would overlap.
	cat >"$ANS/bin/reboot" <<-SH
	#!/bin/bash
	set -e
	if mkdir "$ANS/rebooting" 2>/dev/null; then
		echo "start \$1" >>"$ANS/reboots.log"
	else
		echo "overlap \$1" >>"$ANS/reboots.log"
	fi
	sleep 0.5
	"$top_srcdir/sandbox/reboot.sh" "\$1"
	echo "end \$1" >>"$ANS/reboots.log"
	rmdir "$ANS/rebooting" 2>/dev/null || true
	SH
	chmod 0755 "$ANS/bin/reboot"
	: >"$ANS/nodes.list"

	# Debian's ansible-core has no json stdout callback (it is in
	# ansible.posix): a small one, the same shape, for the tests.
	mkdir -p "$ANS/callback_plugins"
	cat >"$ANS/callback_plugins/halo_json.py" <<-'PY'
	from __future__ import annotations
	import json
	from ansible.parsing.ajson import AnsibleJSONEncoder
	from ansible.plugins.callback import CallbackBase

	DOCUMENTATION = """
	name: halo_json
	type: stdout
	short_description: every task's per-host results and the recap as one JSON document
	description: [for tests/lib/ansible.sh]
	"""

	class CallbackModule(CallbackBase):
	    CALLBACK_VERSION = 2.0
	    CALLBACK_TYPE = "stdout"
	    CALLBACK_NAME = "halo_json"

	    def __init__(self):
	        super().__init__()
	        self.plays = []

	    def v2_playbook_on_play_start(self, play):
	        self.plays.append({"play": {"name": play.get_name()}, "tasks": []})

	    def v2_playbook_on_task_start(self, task, is_conditional):
	        self.plays[-1]["tasks"].append({"task": {"name": task.get_name()}, "hosts": {}})

	    v2_playbook_on_handler_task_start = lambda self, task: self.v2_playbook_on_task_start(task, False)

	    def _record(self, result, **flags):
	        res = dict(result._result)
	        res.update(flags)
	        self.plays[-1]["tasks"][-1]["hosts"][result._host.get_name()] = res

	    def v2_runner_on_ok(self, result, **kw):
	        self._record(result)

	    def v2_runner_on_failed(self, result, ignore_errors=False, **kw):
	        self._record(result, failed=True)

	    def v2_runner_on_skipped(self, result, **kw):
	        self._record(result, skipped=True)

	    def v2_runner_on_unreachable(self, result, **kw):
	        self._record(result, unreachable=True)

	    def v2_playbook_on_stats(self, stats):
	        hosts = sorted(stats.processed.keys())
	        out = {"plays": self.plays,
	               "stats": {h: stats.summarize(h) for h in hosts}}
	        self._display.display(json.dumps(out, cls=AnsibleJSONEncoder, indent=1, sort_keys=True))
	PY
}

ansible_node() {
	local name=$1 kind=${2:-debian} root ns
	root=$ANS/nodes/$name
	"$top_srcdir/sandbox/mkroot.sh" "$kind" "$root" >/dev/null || return 1
	echo "$name" >"$root/etc/hostname"
	ns=$(new_netns "$name") || return 1
	mkdir -p "$ANS/programs/$name"
	cp "$HALO" "$ANS/programs/$name/halo-provision"
	printf '%s %s %s\n' "$name" "$ns" "$root" >>"$ANS/nodes.list"
	cat >"$ANS/host_vars/$name.yml" <<-YML
	halo_netns: $ns
	halo_root: $root
	halo_node_command: $(node_program "$name")
	YML
}
node_ns() { awk -v n="$1" '$1 == n { print $2 }' "$ANS/nodes.list"; }
node_root() { awk -v n="$1" '$1 == n { print $3 }' "$ANS/nodes.list"; }
node_program() { echo "$ANS/programs/$1/halo-provision"; }

ansible_module() {
	jq -n --argjson a "$1" '{ANSIBLE_MODULE_ARGS: $a}' >"$ANS/module-args.json" || return 1
	out=$(cd "$ANS/remote" && PYTHONPATH=$ANS/collections /usr/bin/python3 \
		"$ANS/collections/ansible_collections/halo/provision/plugins/modules/halo_provision.py" \
		"$ANS/module-args.json" 2>"$ANS/stderr")
	rc=$?
	err=$(cat "$ANS/stderr")
}

ansible_cable() {
	ip -n "$(node_ns "$1")" link add "$2" type veth peer name "$4" netns "$(node_ns "$3")"
}

ansible_config() {
	cat >"$ANS/configs/$1.conf"
	grep -q '^halo_config_src:' "$ANS/host_vars/$1.yml" ||
		echo "halo_config_src: $ANS/configs/$1.conf" >>"$ANS/host_vars/$1.yml"
}

ansible_host_var() {
	echo "$2: $3" >>"$ANS/host_vars/$1.yml"
}

ansible_inventory() {
	local name
	# host_vars/ next to the inventory file are the per-host variables.
	{
		echo "[cluster]"
		while read -r name _; do
			echo "$name ansible_connection=local"
		done <"$ANS/nodes.list"
	} >"$ANS/inventory"
	cat >"$ANS/site.yml" <<-YML
	- name: Provision the cluster
	  hosts: cluster
	  gather_facts: false
	  vars:
	    halo_cluster_command: $HALO
	    halo_cluster_dir: $ANS/state
	    halo_reboot_command: $ANS/bin/reboot {{ halo_root }}
	  roles:
	    - halo.provision.node
	YML
}

ansible_play() {
	out=$(cd "$ANS" && ansible-playbook site.yml "$@" 2>"$ANS/stderr")
	rc=$?
	err=$(cat "$ANS/stderr")
}

ansible_play_json() {
	out=$(cd "$ANS" && ANSIBLE_STDOUT_CALLBACK=halo_json ansible-playbook site.yml "$@" 2>"$ANS/stderr")
	rc=$?
	err=$(cat "$ANS/stderr")
}

recap() {
	jq -r --arg h "$1" --arg f "$2" '.stats[$h][$f] // "none"' <<<"$out"
}

task_result() {
	jq -c --arg t "$1" --arg h "$2" \
		'[.plays[].tasks[] | select(.task.name == $t) | .hosts[$h] // empty] | last' <<<"$out"
}
