#!/bin/bash
# ansible-doc renders the halo.provision collection, and its documentation
# says what the module does: every documented option is accepted by the
# module (a dry run with it succeeds), an undocumented one is refused, and
# the documented return values are exactly the keys the module returns. The
# role's documented variables are its defaults.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/lib/ansible.sh"
ansible_require
ansible_env

MOD=halo.provision.halo_provision
out=$(ansible-doc "$MOD" 2>&1)
is "$?" 0 "ansible-doc $MOD exits 0"
is "$(head -n 1 <<<"$out" | cut -d' ' -f1-2)" "> HALO.PROVISION.HALO_PROVISION" "it renders the module's page"
like "$out" 'OPTIONS \(= is mandatory\)' "with its options"
like "$out" 'RETURN VALUES' "and its return values"
like "$(ansible-doc -l halo.provision 2>&1)" "^$MOD " "ansible-doc -l lists the module"

doc=$(ansible-doc --json "$MOD" 2>/dev/null)
options=$(jq -r --arg m "$MOD" '.[$m].doc.options | keys[]' <<<"$doc")
ok "$([ "$(wc -l <<<"$options")" -ge 5 ]; echo $?)" "the options parse ($(echo $options))"

# A node to dry-run against: a root, a namespace with the interface.
ROOT=$TEST_TMP/root
"$top_srcdir/sandbox/mkroot.sh" debian "$ROOT" >/dev/null
NS=$(new_netns doc) || { echo "1..0 # SKIP cannot create network namespaces"; exit 0; }
ip -n "$NS" link add rdma0 type veth peer name rdma1
CONF='version = 1; interfaces = ( { name = "rdma0"; mtu = 9000; } );'
write_conf "$ROOT/etc/halo-provision/halo.conf" <<<"$CONF"

# module ARGS_JQ: runs the module as Ansible does, in check mode, with the
# build's program; sets $out.
module() {
	ansible_module "$(jq -n --arg root "$ROOT" --arg ns "$NS" --arg halo "$HALO" \
		"{_ansible_check_mode: true, executable: \$halo, root: \$root, netns: \$ns} + $1")"
}
# A valid value for each option, by name (a new option needs one here).
value() {
	case $1 in
	executable) jq -n --arg h "$HALO" '{executable: $h}' ;;
	config) jq -n --arg c "$ROOT/etc/halo-provision/halo.conf" '{config: $c}' ;;
	config_text) jq -n --arg c "$CONF" '{config_text: $c}' ;;
	config_data) echo '{config_data: {version: 1, interfaces: [{name: "rdma0", mtu: "9000"}]}}' ;;
	only) echo '{only: ["links"]}' ;;
	root | netns) echo '{}' ;;
	kernel_release) echo '{kernel_release: "6.12.48+deb12-amd64"}' ;;
	revert) echo '{revert: false}' ;;
	interface) echo '{interface: "rdma0"}' ;;
	wait) echo '{wait: 1}' ;;
	*) echo '{}' ;;
	esac
}
for o in $options; do
	v=$(value "$o")
	[ "$v" != '{}' ] || [ "$o" = root ] || [ "$o" = netns ] || { ok 1 "no test value for option $o"; continue; }
	module "$v"
	res=$(jq -r '"\(.failed) \(.msg)"' <<<"$out" 2>/dev/null)
	like "$res" '^false ' "the module accepts the documented option $o"
done

module '{config_text: "version = 1;", no_such_option: 1}'
is "$(jq -r '.failed' <<<"$out" 2>/dev/null)" true "an undocumented option fails the module"
like "$(jq -r '.msg' <<<"$out" 2>/dev/null)" 'no_such_option' "naming the option"

# The documented return values, by when they are returned, against the
# keys the module returns on success, in diff mode and on a config error
# (but Ansible's own "invocation", which AnsibleModule adds). "success,
# in a run of every subsystem ..." (the node facts) is success for a run
# of every subsystem, which config_data (the args-file mode) is not.
doc_keys() { jq -r --arg m "$MOD" ".[\$m].return | to_entries | map(select($1)) | map(.key) | sort | join(\" \")" <<<"$doc"; }
got_keys() { jq -r 'del(.invocation) | keys | sort | join(" ")' <<<"$out" 2>/dev/null; }
module '{config_text: "version = 1;"}'
is "$(got_keys)" "$(doc_keys '.value.returned == "always" or (.value.returned | startswith("success"))')" \
	"success: the keys printed are the documented ones (always, success)"
module '{config_text: "version = 1;", _ansible_diff: true}'
is "$(got_keys)" "$(doc_keys '.value.returned != "on a config or usage error"')" \
	"diff mode: diff as well"
module '{config_text: "version = 1; x = ;"}'
is "$(got_keys)" "$(doc_keys '.value.returned == "always" or .value.returned == "on a config or usage error"')" \
	"config error: the documented ones (always, on error)"
# config_data runs through the program's args-file mode: the same keys.
module '{config_data: {version: 1}}'
is "$(got_keys)" "$(doc_keys '.value.returned == "always" or .value.returned == "success"')" \
	"config_data, success: the documented ones (always, success)"
module '{config_data: {version: 1, x: 1}, _ansible_diff: true}'
is "$(got_keys)" "$(doc_keys '.value.returned | startswith("success") | not')" \
	"config_data, config error in diff mode: the documented ones (always, on error, in diff mode)"
# An option the module refuses itself, before any run: the same keys.
module '{only: []}'
is "$(got_keys)" "$(doc_keys '.value.returned == "always" or .value.returned == "on a config or usage error"')" \
	"a bad option: the documented ones (always, on error)"

role=$(ansible-doc -t role halo.provision.node 2>&1)
is "$?" 0 "ansible-doc -t role halo.provision.node exits 0"
like "$role" 'halo_reboot_command' "it lists the role's variables"
is "$(ansible-doc -t role --json halo.provision.node 2>/dev/null |
	jq -r '.["halo.provision.node"].entry_points.main.options | keys | join(" ")')" \
	"$(sed -n 's/^\(halo_[a-z_]*\):.*/\1/p' "$top_srcdir/ansible/roles/node/defaults/main.yml" | sort | tr '\n' ' ' | sed 's/ $//')" \
	"the role documents exactly its defaults' variables"

done_testing
