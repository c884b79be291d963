#!/bin/bash
# access.memlock: the pam_limits drop-in
# /etc/security/limits.d/90-halo-provision.conf and the DefaultLimitMEMLOCK=
# drop-ins of the system and user managers, in a --root fixture tree that
# starts with RHEL 9.2's 8 MiB default in limits.conf. Read back by what
# reads them: ready/memlock (what pam_limits gives a login session) turns
# from drift to ok, `systemd-analyze cat-config --root` shows each drop-in
# under its manager's config, systemd's own rlimit parser accepts the value
# (the same parser behind LimitMEMLOCK=, run by `systemd-analyze verify`),
# and every limits line has pam_limits' four fields. Apply is idempotent,
# --check and --diff see a manual edit, bad inputs change nothing.
source "$top_srcdir/tests/lib/tap.sh"

ROOT=$TEST_TMP/root
CONF=$TEST_TMP/halo.conf
LIMITS=$ROOT/etc/security/limits.d/90-halo-provision.conf
SYSTEM=$ROOT/etc/systemd/system.conf.d/90-halo-provision.conf
USER=$ROOT/etc/systemd/user.conf.d/90-halo-provision.conf
mkdir -p "$ROOT/etc/security/limits.d" "$ROOT/sys/class/net"
printf '# RHEL 9.2 defaults\n*  soft  memlock  8192\n*  hard  memlock  8192\n' \
	>"$ROOT/etc/security/limits.conf"

conf() { # conf MEMLOCK-VALUE
	write_conf "$CONF" <<EOF
version = 1;
access = {
  memlock = $1;
};
EOF
}
halo() { run_halo -c "$CONF" --root "$ROOT" "$@"; }
item() { jq -r --arg k "$1" ".items[] | select(.key == \$k) | .$2" <<<"$out"; }
key() { echo "file${1#"$ROOT"}"; }

# pam_limits_check FILE: every non-comment line is "domain type item value"
# with a known type, the memlock item and a value pam_limits takes for it.
pam_limits_check() {
	awk '
		/^[ \t]*(#|$)/ { next }
		NF != 4 { print FILENAME ":" FNR ": " NF " fields"; bad = 1; next }
		$2 !~ /^(soft|hard|-)$/ { print FILENAME ":" FNR ": type " $2; bad = 1 }
		$3 != "memlock" { print FILENAME ":" FNR ": item " $3; bad = 1 }
		$4 !~ /^(unlimited|infinity|-1|[0-9]+)$/ { print FILENAME ":" FNR ": value " $4; bad = 1 }
		{ n++ }
		END { if (!n) print FILENAME ": no limit line"; exit bad || !n }
	' "$1"
}
# systemd_value_check VALUE: systemd's rlimit parser on VALUE; prints its
# complaint, if any.
systemd_value_check() {
	mkdir -p "$TEST_TMP/units"
	printf '[Service]\nExecStart=/bin/true\nLimitMEMLOCK=%s\n' "$1" >"$TEST_TMP/units/memlock-probe.service"
	systemd-analyze verify --man=no "$TEST_TMP/units/memlock-probe.service" 2>&1 | grep -i 'memlock\|resource'
}

conf '"unlimited"'

# --- before: ready/memlock sees the 8 MiB default ---
halo --check --only ready --json
is "$(item ready/memlock outcome)" drift "before: ready/memlock is drift"
like "$(item ready/memlock observed)" '^soft 8192 KiB, hard 8192 KiB$' "before: 8 MiB for a session"

# --- apply ---
halo --only files --json
is "$rc" 2 "apply: exit 2 (changed)"
[ -n "$err" ] && diag "$err"
for f in "$LIMITS" "$SYSTEM" "$USER"; do
	is "$(item "$(key "$f")" outcome)" changed "$(key "$f"): changed"
	head -1 "$f" | grep -q '^# Managed by halo-provision'
	ok $? "$(key "$f"): the managed header"
	is "$(stat -c %a "$f")" 644 "$(key "$f"): mode 0644"
done
like "$(item "$(key "$LIMITS")" note)" 'log in again' "limits.d item: a re-login is needed"
like "$(item "$(key "$USER")" note)" 'log out .* and in again' "user.conf.d item: a re-login is needed"
like "$(item "$(key "$SYSTEM")" note)" 'reboot' "system.conf.d item: a reboot (or re-exec) is needed"
is "$(grep -v '^#' "$LIMITS")" "$(printf '*\tsoft\tmemlock\tunlimited\n*\thard\tmemlock\tunlimited')" \
	"limits.d: soft and hard unlimited for every login"
msg=$(pam_limits_check "$LIMITS")
is "$?:$msg" "0:" "limits.d: pam_limits' four fields on every line"

# ready/memlock reads what pam_limits would: now ok.
halo --check --only ready --json
is "$(item ready/memlock outcome)" ok "after: ready/memlock is ok"
like "$(item ready/memlock observed)" '^soft unlimited, hard unlimited$' "after: unlimited for a session"

# systemd: each drop-in under its manager's configuration.
if command -v systemd-analyze >/dev/null; then
	for m in system user; do
		cat=$(systemd-analyze cat-config --root="$ROOT" "systemd/$m.conf" 2>&1)
		like "$cat" "^# $ROOT/etc/systemd/$m\.conf\.d/90-halo-provision\.conf\$" \
			"cat-config $m.conf: lists our drop-in"
		is "$(sed -n '/90-halo-provision.conf$/,$p' <<<"$cat" | grep -v '^#')" \
			"$(printf '[Manager]\nDefaultLimitMEMLOCK=infinity')" "cat-config $m.conf: [Manager] DefaultLimitMEMLOCK=infinity"
	done
	is "$(systemd_value_check infinity)" "" "systemd's rlimit parser takes infinity"
	like "$(systemd_value_check 8192Q)" 'Failed to parse' "... and refuses 8192Q (the check can fail)"
else
	ok 0 "# SKIP systemd-analyze not installed"
fi

# --- a second apply writes nothing ---
snap=$(tree_snapshot "$ROOT")
halo --only files --json
is "$rc" 0 "second apply: exit 0"
is "$(jq -r '.summary.changed, .stats.files_written' <<<"$out" | paste -sd/)" "0/0" \
	"second apply: changed=0, no file written"
is "$(tree_snapshot "$ROOT")" "$snap" "second apply: the tree snapshot is identical"

# --- drift: a manual edit ---
sed -i 's/^\*\thard\tmemlock\tunlimited$/*\thard\tmemlock\t8192/' "$LIMITS"
snap=$(tree_snapshot "$ROOT")
halo --only files --check --diff
is "$rc" 2 "check after a manual edit: exit 2 (drift)"
like "$out" '^drift +file/etc/security/limits.d/90-halo-provision.conf' "check names the limits drop-in"
like "$out" "^-\*	hard	memlock	8192" "--diff: the edited line goes"
like "$out" "^\+\*	hard	memlock	unlimited" "--diff: the wanted line comes"
is "$(tree_snapshot "$ROOT")" "$snap" "check changed nothing"
halo --only files
is "$rc" 2 "apply repairs it: exit 2"

# --- a size in KiB ---
conf 134217728
halo --only files
is "$rc" 2 "memlock = 134217728: exit 2"
is "$(grep -v '^#' "$LIMITS")" "$(printf '*\tsoft\tmemlock\t134217728\n*\thard\tmemlock\t134217728')" \
	"limits.d: the size in KiB"
msg=$(pam_limits_check "$LIMITS")
is "$?:$msg" "0:" "limits.d (KiB): pam_limits' four fields"
is "$(grep '^DefaultLimitMEMLOCK=' "$SYSTEM" "$USER" | sed 's/.*://')" \
	"$(printf 'DefaultLimitMEMLOCK=134217728K\nDefaultLimitMEMLOCK=134217728K')" \
	"systemd drop-ins: the size with systemd's K (KiB) suffix"
if command -v systemd-analyze >/dev/null; then
	is "$(systemd_value_check 134217728K)" "" "systemd's rlimit parser takes 134217728K"
fi
halo --check --only ready --json
is "$(item ready/memlock outcome)" ok "ready/memlock wants the configured size: ok..."
like "$(item ready/memlock observed)" '^soft 134217728 KiB, hard 134217728 KiB$' "... with the session's 128 GiB"

# --- bad inputs: exit 1, one line, nothing changed ---
bad() { # bad DESCRIPTION REGEX
	local before
	before=$(tree_snapshot "$ROOT")
	halo --only files
	is "$rc" 1 "$1: exit 1"
	is "$(printf '%s\n' "$err" | grep -c .)" 1 "$1: one line on stderr"
	like "$err" "$2" "$1: the message"
	is "$(tree_snapshot "$ROOT")" "$before" "$1: the root is unchanged"
}
conf '"lots"'
bad "a size that is not a size" 'halo\.conf:3: access\.memlock: "lots" is neither "unlimited" nor an integer'
conf 8
bad "below the kernel's default" 'halo\.conf:3: access\.memlock: 8 is out of range'
conf '"unlimited"'
echo 'precious' >"$TEST_TMP/target"
rm "$USER"
ln -s "$TEST_TMP/target" "$USER"
bad "a symlink at the user drop-in's path" 'refusing to write through a symlink: .*user\.conf\.d/90-halo-provision\.conf'
is "$(cat "$TEST_TMP/target")" precious "the symlink's target is untouched"
rm "$USER"

# --- memlock no longer configured: our drop-ins go ---
halo --only files
is "$rc" 2 "drop-ins written again"
write_conf "$CONF" <<'EOF'
version = 1;
access = { };
EOF
halo --only files
is "$rc" 2 "memlock unset: exit 2"
test ! -e "$LIMITS" && test ! -e "$SYSTEM" && test ! -e "$USER"
ok $? "memlock unset: the three drop-ins are removed"
test -e "$ROOT/etc/security/limits.conf"
ok $? "limits.conf (not ours) stays"

# An admin's drop-in at our path (no managed header) is not ours to remove.
echo '* - memlock 65536' >"$LIMITS"
before=$(stat -c '%i %.9Y' "$LIMITS"; cat "$LIMITS")
halo --only files --json
is "$rc" 0 "an admin's limits drop-in, memlock unset: exit 0"
is "$(stat -c '%i %.9Y' "$LIMITS"; cat "$LIMITS")" "$before" "... it is left as it is"
like "$(jq -r '.items[] | select(.key == "file/etc/security/limits.d/90-halo-provision.conf") | .message' <<<"$out")" \
	'not ours \(no .* header\)' "... and the item says it is not ours"

done_testing
