#!/bin/bash
# The modes end to end on a --root sandbox with a config that manages no
# subsystem: apply writes exactly the state file once and then nothing;
# check and dry-run write nothing; --status; --validate; the run lock; a
# world-writable config; the --json document; the Prometheus textfile.
source "${top_srcdir:?}/tests/lib/tap.sh" || exit 1

root="$TEST_TMP/root"
conf="$root/etc/halo-provision/halo.conf"
state="$root/var/lib/halo-provision/state.json"
mkdir -p "$root/etc/halo-provision"
echo 'version = 1;' | write_conf "$conf"

# --validate
run_halo --root "$root" --validate
is "$rc" 0 "--validate: exit 0"
is "$out" "$conf: valid" "--validate: says the file is valid"
run_halo --root "$root" --validate --json
is "$(jq -r '.mode, .failed, .exit_code' <<<"$out" | tr '\n' ' ')" "validate false 0 " \
	"--validate --json: mode, failed, exit_code"

# --status before any apply
run_halo --root "$root" --status
is "$rc" 1 "--status before apply: exit 1"
is "$err" "halo-provision: no state file at $root/var/lib/halo-provision/state.json (no apply has run on this host yet, or a revert removed it)" \
	"--status before apply: one clear line"

# check and dry-run write nothing and find nothing
snap0=$(tree_snapshot "$root")
run_halo --root "$root" --check
is "$rc" 0 "--check empty plan: exit 0"
is "$out" "check: 0 items" "--check: the summary line"
run_halo --root "$root" --dry-run --json
is "$rc" 0 "--dry-run empty plan: exit 0"
is "$(jq -r '.mode, .changed, .stats.files_written' <<<"$out" | tr '\n' ' ')" "dry-run false 0 " \
	"--dry-run --json: mode, changed, nothing written"
is "$(tree_snapshot "$root")" "$snap0" "check and dry-run wrote nothing"

# first apply: exactly the state file
run_halo --root "$root" --json
is "$rc" 0 "apply empty plan: exit 0"
is "$err" "" "apply: nothing on stderr"
is "$(jq -s 'length' <<<"$out")" 1 "apply --json: exactly one document on stdout"
is "$(jq -r '.schema_version, .tool, .mode, .root, .changed, .failed, .reboot_required, .exit_code' <<<"$out" | tr '\n' ' ')" \
	"1 halo-provision apply $root false false false 0 " "apply --json: the head fields"
is "$(jq -r '.config.path' <<<"$out")" "$conf" "apply --json: config path"
is "$(jq -r '.config.digest' <<<"$out")" "$(sha256sum <"$conf" | cut -d' ' -f1)" "apply --json: config digest is the file's sha256"
is "$(jq -r '.msg' <<<"$out")" "apply: 0 items" "apply --json: msg is the summary line"
is "$(jq -c '.summary' <<<"$out")" '{"ok":0,"changed":0,"drift":0,"pending-reboot":0,"unsupported":0,"failed":0}' \
	"apply --json: summary counts"
is "$(jq -c '[.items, .warnings]' <<<"$out")" '[[],[]]' "apply --json: no items, no warnings"
is "$(jq -r '.stats.files_written' <<<"$out")" 1 "first apply wrote exactly one file"
ok "$([ -f "$state" ]; echo $?)" "the state file exists"
is "$(find "$root" -type f -newer "$conf" ! -name halo-provision.lock | sort)" "$state" \
	"the state file is the only file written (besides the run lock)"
is "$(jq -r '.schema_version, .tool, .reboot_required, .exit_bits, (.items | length)' "$state" | tr '\n' ' ')" \
	"1 halo-provision false 0 0 " "state file: read back with jq"
is "$(jq -r '.config.digest' "$state")" "$(sha256sum <"$conf" | cut -d' ' -f1)" "state file: config digest"
ok "$(grep -qi time "$state"; [ $? -ne 0 ]; echo $?)" "state file: no timestamp"

# second apply: nothing written, state file untouched
snap1=$(tree_snapshot "$root")
run_halo --root "$root" --json
is "$rc" 0 "second apply: exit 0"
is "$(jq -r '.stats.files_written' <<<"$out")" 0 "second apply wrote nothing"
is "$(tree_snapshot "$root")" "$snap1" "second apply: no inode, mtime or content changed"
run_halo --root "$root"
is "$rc" 0 "third apply (text): exit 0"
is "$out" "apply: 0 items" "apply text: just the summary line"
is "$(tree_snapshot "$root")" "$snap1" "text apply: nothing changed either"
# The state file names the node's config path, not the one the run took
# to the root: another spelling of --root rewrites nothing.
is "$(jq -r '.config.path' "$state")" /etc/halo-provision/halo.conf \
	"state file: the config path inside the root"
(cd "$TEST_TMP" && run_halo --root ./root/ && echo "$rc" >"$TEST_TMP/rc.rel")
is "$(cat "$TEST_TMP/rc.rel")" 0 "apply with --root ./root/: exit 0"
is "$(tree_snapshot "$root")" "$snap1" "... and the state file is not rewritten"

# --status after the apply: a summary; --status --json prints the state
# file (cli-status.sh has the summary's lines)
run_halo --root "$root" --status
is "$rc" 0 "--status after apply: exit 0"
is "$(grep '^items ' <<<"$out")" "items           0 items" "--status: the summary's counts line"
run_halo --root "$root" --status --json
is "$rc" 0 "--status --json after apply: exit 0"
is "$out" "$(cat "$state")" "--status --json prints the state file"
is "$(jq -r '.tool' <<<"$out")" halo-provision "--status --json output parses as JSON"

# the run lock: every mode waits for it (--wait), then gives up with exit 4
# (the host is busy; the config is fine).
hold_lock "$root"
run_halo --root "$root" --wait 0
is "$rc" 4 "apply while the lock is held, --wait 0: exit 4"
is "$err" "halo-provision: another halo-provision run holds $root/run/halo-provision.lock" \
	"lock held: one line naming the lock"
run_halo --root "$root" --wait 1
is "$rc" 4 "apply while the lock is held, --wait 1: exit 4 after waiting"
is "$err" "halo-provision: another halo-provision run held $root/run/halo-provision.lock for 1 s (--wait); nothing was changed" \
	"lock held: says how long it waited"
run_halo --root "$root" --json --wait 0
is "$(jq -r '.failed, .exit_code, .msg' <<<"$out" | tr '\n' ' ')" \
	"true 4 another halo-provision run holds $root/run/halo-provision.lock " "lock held --json: the error document"
run_halo --root "$root" --check --wait 0
is "$rc" 4 "check while the lock is held: waits too (exit 4 with --wait 0)"
run_halo --root "$root" --wait 3
is "$err" "halo-provision: waiting for $root/run/halo-provision.lock, held by another run (it left no record of itself)
halo-provision: another halo-provision run held $root/run/halo-provision.lock for 3 s (--wait); nothing was changed" \
	"a holder without a record: said once after a second, then the exit line"
# The holder's record in the lock, as a run writes it: pid, mode, time;
# believed because /proc/locks shows that pid (flock(1)) holding the lock.
holder="$root/run/halo-provision.lock"
printf 'pid %s\nmode dry-run\nsince 1764252131\n' "$LOCK_HOLDER" >"$holder"
by="pid $LOCK_HOLDER, dry-run, since 2025-11-27 14:02:11 UTC"
run_halo --root "$root" --wait 3 --json
is "$rc" 4 "a recorded holder: still exit 4"
is "$err" "halo-provision: waiting for $root/run/halo-provision.lock, held by $by
halo-provision: another halo-provision run ($by) held $root/run/halo-provision.lock for 3 s (--wait); nothing was changed" \
	"a recorded holder: named once while waiting and in the exit line"
is "$(jq -r .msg <<<"$out")" "another halo-provision run ($by) held $root/run/halo-provision.lock for 3 s (--wait); nothing was changed" \
	"...and in the JSON document"
run_halo --root "$root" --wait 2 -q
is "$err" "halo-provision: another halo-provision run ($by) held $root/run/halo-provision.lock for 2 s (--wait); nothing was changed" \
	"-q: no waiting line, the exit line names the holder"
printf 'pid 1\nmode apply; rm -rf /\nsince 1\n' >"$holder"
run_halo --root "$root" --wait 0
is "$err" "halo-provision: another halo-provision run holds $root/run/halo-provision.lock" \
	"a record that is not one: ignored"
printf 'pid 999999999\nmode apply\nsince 1\n' >"$holder"
run_halo --root "$root" --wait 0
is "$err" "halo-provision: another halo-provision run holds $root/run/halo-provision.lock" \
	"the record of a run that is gone: ignored"
printf 'pid %s\nmode apply\nsince 1\n' "$(cat "$TEST_TMP/held")" >"$holder"
run_halo --root "$root" --wait 0
is "$err" "halo-provision: another halo-provision run holds $root/run/halo-provision.lock" \
	"the record of a live process that does not hold the lock: ignored"
: >"$holder"
# a run queued behind the holder goes on once it is released
( sleep 1; release_lock ) &
run_halo --root "$root" --wait 20
is "$rc" 0 "apply queued behind a run: runs when the lock is released"
wait
like "$(cat "$holder")" "^pid [0-9]+ *
mode apply *
since [0-9]+ *\$" "the run left its record in the lock, believed by nobody once it is over"
is "$(tree_snapshot "$root")" "$snap1" "refused runs wrote nothing"

# a world-writable config is refused, nothing changed
chmod 0666 "$conf"
snap2=$(tree_snapshot "$root")
run_halo --root "$root"
is "$rc" 1 "world-writable config: exit 1"
is "$(printf '%s\n' "$err" | wc -l)" 1 "world-writable config: one line"
like "$err" "^halo-provision: .*halo\.conf" "world-writable config: names the file"
run_halo --root "$root" --json
is "$(jq -r '.failed, .changed, .exit_code' <<<"$out" | tr '\n' ' ')" "true false 1 " \
	"world-writable config --json: failed document"
is "$(tree_snapshot "$root")" "$snap2" "world-writable config: nothing changed"
chmod 0600 "$conf"
snap2=$(tree_snapshot "$root")

# a config syntax error: exit 1, nothing changed, --validate agrees
bad="$TEST_TMP/bad.conf"
printf 'version = 1;\nboot = {\n' | write_conf "$bad"
run_halo --root "$root" -c "$bad"
is "$rc" 1 "syntax error: exit 1"
like "$err" "^halo-provision: .*bad\.conf:[0-9]+: " "syntax error: FILE:LINE"
is "$err" "halo-provision: $bad:2: the group's '{' on this line is never closed (the file ends at line 2)" \
	"an unclosed group: the line where it opened"
run_halo --root "$root" -c "$bad" --validate
is "$rc" 1 "syntax error --validate: exit 1"
is "$(tree_snapshot "$root")" "$snap2" "syntax error: nothing changed"

# -c FILE as given, a state path and a Prometheus textfile from the config
conf2="$TEST_TMP/other.conf"
write_conf "$conf2" <<'EOF'
version = 1;
state = {
  path = "/srv/halo/state.json";
  prometheus = "/var/lib/node_exporter/textfile_collector/halo.prom";
};
EOF
prom="$root/var/lib/node_exporter/textfile_collector/halo.prom"
run_halo --root "$root" -c "$conf2" --dry-run
is "$rc" 0 "dry-run with prometheus configured: exit 0"
ok "$([ ! -e "$prom" ]; echo $?)" "dry-run writes no textfile"
run_halo --root "$root" -c "$conf2" --check
is "$rc" 0 "check with prometheus configured: exit 0"
like "$(cat "$prom")" "halo_exit_code 0" "check wrote the textfile (exit code)"
like "$(cat "$prom")" "halo_last_run_timestamp_seconds [0-9]+" "textfile: run timestamp"
ok "$([ ! -e "$root/srv/halo/state.json" ]; echo $?)" "check wrote no state file"
run_halo --root "$root" -c "$conf2" --json
is "$rc" 0 "apply with -c: exit 0"
is "$(jq -r '.config.path' <<<"$out")" "$conf2" "apply --json: -c path as given"
is "$(jq -r '.config.path' "$root/srv/halo/state.json")" "$conf2" "state written at the configured path"
is "$(jq -r '.stats.files_written' <<<"$out")" 1 \
	"apply wrote the state file (the textfile, rewritten by every run, is not counted)"
run_halo --root "$root" -c "$conf2" --status --json
is "$rc" 0 "--status -c: exit 0"
is "$out" "$(cat "$root/srv/halo/state.json")" "--status reads the configured state path"

# a state file that cannot be written is found before anything changes:
# exit 4, one line, nothing written
conf3="$TEST_TMP/unwritable.conf"
write_conf "$conf3" <<<'version = 1; state = { path = "/srv/plain/state.json"; };'
mkdir -p "$root/srv" && echo plain >"$root/srv/plain"
before=$(tree_snapshot "$root")
run_halo --root "$root" -c "$conf3" --json
is "$rc" 4 "state file under a plain file: exit 4 before any change"
like "$err" "^halo-provision: the state file \\(state\\.path\\) $root/srv/plain/state.json cannot be written: $root/srv/plain is not a directory; nothing was changed$" "... one line why"
is "$(jq -r '.failed, .exit_code' <<<"$out" | tr '\n' ' ')" "true 4 " "... --json: failed, exit 4"
is "$(tree_snapshot "$root")" "$before" "... nothing written"

# the same for a symlink on the way to the state file
write_conf "$conf3" <<<'version = 1; state = { path = "/srv/link/state.json"; };'
ln -s /tmp "$root/srv/link"
before=$(tree_snapshot "$root")
run_halo --root "$root" -c "$conf3"
is "$rc" 1 "state file behind a symlink: exit 1"
like "$err" "^halo-provision: the state file \\(state\\.path\\) $root/srv/link/state.json: refusing to write through a symlink: $root/srv/link$" \
	"... one line naming the output and why"
is "$(tree_snapshot "$root")" "$before" "... nothing written"

# the default config is resolved inside the root: an image's absolute
# symlink points into the image, never at the build host
r2="$TEST_TMP/r2"
mkdir -p "$r2/etc/halo-provision"
write_conf "$r2/halo-image.conf" <<<'version = 1;'
ln -s /halo-image.conf "$r2/etc/halo-provision/halo.conf"
run_halo --root "$r2" --validate
is "$rc" 0 "default config behind an absolute symlink: read inside the root"

# a FIFO where a file is read does not hang the run
install -d -m 0755 "$r2/var/lib" "$r2/var/lib/halo-provision"
mkfifo "$r2/var/lib/halo-provision/state.json"
out=$(timeout 10 "$HALO" --root "$r2" --status 2>&1)
rc=$?
is "$rc" 1 "a FIFO as the state file: --status fails at once (exit 1)"
like "$out" 'cannot read state file: .*/state\.json: a FIFO, not a regular file' "... saying so"
rm "$r2/var/lib/halo-provision/state.json"
rmdir "$r2/var/lib/halo-provision" # so that the run below creates it

# directories are created 0755 whatever the caller's umask
(umask 077; "$HALO" --root "$r2" -q >/dev/null 2>&1)
is "$(stat -c %a "$r2/var/lib/halo-provision" "$r2/run" | tr '\n' ' ')" "755 755 " \
	"umask 077: created directories are still 0755"

# a path with a newline still gives a one-line error
run_halo -c "$(printf '%s/no\nsuch' "$TEST_TMP")" --validate
is "$(printf '%s\n' "$err" | wc -l) $rc" "1 1" "a newline in -c: one error line, exit 1"

# --only keeps the run to the named subsystems
run_halo --root "$root" --check --only boot,modules --json
is "$(jq -r '.exit_code, (.items | length)' <<<"$out" | tr '\n' ' ')" "0 0 " "--only boot,modules: runs"
# Given again, the lists add up.
r3=$TEST_TMP/root3
mkdir -p "$r3/etc/halo-provision" "$r3/proc/sys/kernel"
echo 6.12.48+deb12-amd64 >"$r3/proc/sys/kernel/osrelease"
write_conf "$r3/etc/halo-provision/halo.conf" <<'CONF'
version = 1;
access = { memlock = "unlimited"; };
ready = { kernel_min = "6.1"; };
CONF
subsystems() { jq -c '[.items[].subsystem] | unique' <<<"$out"; }
run_halo --root "$r3" --check --json --only files
is "$(subsystems)" '["files"]' "--only files: the files items only"
run_halo --root "$r3" --check --json --only files --only ready
is "$(subsystems)" '["files","ready"]' "--only files --only ready: both"

done_testing
