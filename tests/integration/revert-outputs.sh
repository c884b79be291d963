#!/bin/bash
# revert-outputs: --revert removes the run's own outputs (the state file,
# the Prometheus textfile) only when their content is recognisably this
# tool's: the configured paths may hold any file of the host (a state.path
# of /etc/motd, a textfile another exporter writes). Anything else there
# stays, byte for byte, said on its item; a dry-run says the same.
source "$top_srcdir/tests/lib/tap.sh"

root=$TEST_TMP/root
"$top_srcdir/sandbox/mkroot.sh" debian "$root"
mkdir -p "$root/var/lib/node_exporter"
CONF=$root/etc/halo-provision/halo.conf
write_conf "$CONF" <<'CONF'
version = 1;
state = { path = "/etc/motd"; prometheus = "/var/lib/node_exporter/halo.prom"; };
CONF
MOTD=$root/etc/motd
PROM=$root/var/lib/node_exporter/halo.prom
halo() { run_halo --root "$root" "$@"; }
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }

# kept DESC: after a --revert (and a --dry-run --revert) both files are
# as they were, and both items say why.
kept() {
	local before
	before=$(tree_snapshot "$root" | grep -v '/run/halo-provision\.lock$')
	halo --dry-run --revert --json
	is "$(item file/etc/motd .outcome)/$(item file/var/lib/node_exporter/halo.prom .outcome)" \
		ok/ok "$1, dry-run: both items ok, nothing to remove"
	halo --revert --json
	is "$rc" 0 "$1: revert exit 0"
	is "$(item file/etc/motd .outcome)/$(item file/var/lib/node_exporter/halo.prom .outcome)" \
		ok/ok "$1: both items ok"
	like "$(item file/etc/motd .message)" '^not ours \(not a halo-provision state file\): left as is$' \
		"$1: the state file's item says why it stays"
	like "$(item file/var/lib/node_exporter/halo.prom .message)" "^not ours \\($2\\): left as is\$" \
		"$1: the textfile's item says why it stays"
	is "$(tree_snapshot "$root" | grep -v '/run/halo-provision\.lock$')" "$before" \
		"$1: nothing under the root changed"
}

# No apply ever ran: the host's own files at the configured paths.
echo Welcome >"$MOTD"
printf '# HELP node_other x\nnode_other 1\n' >"$PROM"
kept "foreign files" "holds another program's series node_other"

# The tool's own files, but cut short (a state file that is no JSON: it
# cannot be told from anyone else's) or with another program's series
# added to the textfile: kept too.
halo
like "$rc" '^(0|2)$' "an apply writes both outputs"
grep -q '"tool": "halo-provision"' "$MOTD"
ok $? "... the state file at state.path"
head -c 40 "$MOTD" >"$TEST_TMP/cut" && cat "$TEST_TMP/cut" >"$MOTD"
echo 'node_other 1' >>"$PROM"
kept "a cut state file, a shared textfile" "holds another program's series node_other"

# An empty textfile is no one's in particular.
: >"$PROM"
kept "an empty textfile" "no series of halo-provision's"

# The control: what an apply wrote goes.
halo
halo --revert --json
is "$rc" 2 "the tool's own outputs: revert exit 2"
is "$(item file/etc/motd .outcome)/$(item file/var/lib/node_exporter/halo.prom .outcome)" \
	changed/changed "... both items changed"
ok "$([ ! -e "$MOTD" ] && [ ! -e "$PROM" ]; echo $?)" "... and both files are gone"

done_testing
