#!/bin/bash
# Usage errors: exactly one "halo-provision: " line on stderr, nothing on
# stdout (or one JSON document with --json), exit 1, nothing written.
source "${top_srcdir:?}/tests/lib/tap.sh" || exit 1

root="$TEST_TMP/root"
mkdir -p "$root/etc/halo-provision"
echo 'version = 1;' | write_conf "$root/etc/halo-provision/halo.conf"
before=$(tree_snapshot "$root")

# usage_error WANT_LINE ARGS...: one specific line, exit 1, empty stdout.
usage_error() {
	local want="$1"
	shift
	run_halo --root "$root" "$@"
	is "$rc" 1 "exit 1: $*"
	is "$err" "halo-provision: $want" "one line: $*"
	is "$out" "" "nothing on stdout: $*"
}

usage_error "unknown option '--bogus'" --bogus
usage_error "unknown option '-x'" -x
usage_error "unknown option '--chec' (did you mean --check?)" --chec
usage_error "unknown option '--chek' (did you mean --check?)" --chek
# One dash where two were meant: not the config file "heck", not -j.
usage_error "unknown option '-check' (did you mean --check?)" -check
usage_error "unknown option '-json' (did you mean --json?)" --check -json
usage_error "unknown option '-Q' (did you mean -q?)" -Q
usage_error "--check and --dry-run cannot be used together" --check --dry-run
usage_error "--dry-run and --validate cannot be used together" --dry-run --validate
usage_error "--check and --status cannot be used together" --check --status
usage_error "unknown subsystem 'network' in --only (known: boot, modules, links, roce, rdma, files, storage, ready)" \
	--only boot,network
usage_error "unknown subsystem 'bot' in --only (did you mean boot? known: boot, modules, links, roce, rdma, files, storage, ready)" \
	--only links --only bot
usage_error "--revert and --interface cannot be used together (a revert undoes the whole host; --only limits it)" \
	--revert --interface rdma0
usage_error "unknown command 'check' (did you mean --check?)" check
usage_error "unknown command 'apply' (apply is the default: run without a command)" apply
usage_error "unexpected argument 'extra'" --check extra
usage_error "option '--only' needs an argument" --only
usage_error "option '--config' needs an argument" --config
usage_error "option '-c' needs an argument" -c
usage_error "option '--json' takes no argument" --json=1 --check
usage_error "-q and -v cannot be used together" -q -v
# The modes that read a file whole take no option that limits a run.
usage_error "--only has no effect with --status, which summarizes the whole state file" \
	--status --only links
usage_error "--interface has no effect with --status, which summarizes the whole state file" \
	--status --interface rdma0
usage_error "--diff has no effect with --validate, which checks the whole config" --validate --diff
usage_error "--only has no effect with --validate, which checks the whole config" \
	--only boot --validate

# A typo after the --cluster files: the option meant, as before them.
run_halo --cluster "$TEST_TMP/a.json" "$TEST_TMP/b.json" --jsno
is "$rc" 1 "--cluster FILES --jsno: exit 1"
is "$err" "halo-provision: unknown option '--jsno' (did you mean --json?)" "--cluster FILES --jsno: one line"
is "$out" "" "--cluster FILES --jsno: nothing on stdout"
# A short option after the files: the one --cluster takes that was meant,
# or the ones it takes.
run_halo --cluster "$TEST_TMP/a.json" "$TEST_TMP/b.json" -Q
is "$rc:$err" "1:halo-provision: unknown option '-Q' (did you mean -q?)" "--cluster FILES -Q: exit 1, one line"
is "$out" "" "--cluster FILES -Q: nothing on stdout"
run_halo --cluster "$TEST_TMP/a.json" "$TEST_TMP/b.json" -x
is "$rc:$err" "1:halo-provision: unknown option '-x' (--cluster takes only --json, --dot, -q and -v)" \
	"--cluster FILES -x: exit 1, one line"
is "$out" "" "--cluster FILES -x: nothing on stdout"

# "-chek" is -c hek to getopt: with no file "hek" the line says which
# option was probably meant; a file of that name is a config like any.
mkdir -p "$TEST_TMP/cwd"
pushd "$TEST_TMP/cwd" >/dev/null || exit 1
run_halo --root "$root" -chek
is "$rc:$err" "1:halo-provision: hek: cannot open the config file: No such file or directory (-chek: did you mean --check?)" \
	"-chek, no file hek: exit 1, one line naming --check"
is "$out" "" "-chek, no file hek: nothing on stdout"
echo 'version = 1;' | write_conf "$TEST_TMP/cwd/hek"
run_halo --root "$root" --dry-run -chek
is "$rc" 0 "-chek with a file hek: the file is the config"
is "$err" "" "-chek with a file hek: no hint"
popd >/dev/null || exit 1

# A missing -c file: the loader's one line, naming the file.
run_halo --root "$root" --check -c "$TEST_TMP/nonexistent.conf"
is "$rc" 1 "missing -c file: exit 1"
is "$(printf '%s\n' "$err" | wc -l)" 1 "missing -c file: one line"
like "$err" "^halo-provision: .*nonexistent\.conf" "missing -c file: names the file"

# A --root that does not exist.
run_halo --root "$TEST_TMP/nowhere" --check
is "$rc" 1 "missing --root: exit 1"
is "$(printf '%s\n' "$err" | wc -l)" 1 "missing --root: one line"
like "$err" "^halo-provision: --root .*nowhere: No such file or directory$" "missing --root: says so"

# --help and --version.
run_halo --cluster "$TEST_TMP/a.json" "$TEST_TMP/b.json" --help
is "$rc" 0 "--cluster FILES --help: exit 0"
like "$out" "^Usage: halo-provision" "--cluster FILES --help: the usage, as before the files"
is "$err" "" "--cluster FILES --help: nothing on stderr"
run_halo --help
is "$rc" 0 "--help: exit 0"
like "$out" "^Usage: halo-provision" "--help: usage on stdout"
like "$out" "--kernel-release V" "--help: lists --kernel-release"
is "$err" "" "--help: nothing on stderr"
run_halo --version
is "$rc" 0 "--version: exit 0"
like "$out" "^halo-provision [0-9]+\.[0-9]+" "--version: name and version"

# With --json even a usage error is one JSON document on stdout.
run_halo --root "$root" --json --check check
is "$rc" 1 "--json usage error: exit 1"
is "$err" "halo-provision: unknown command 'check' (did you mean --check?)" "--json usage error: the line on stderr"
is "$(jq -r '.failed, .changed, .exit_code, .schema_version, .tool' <<<"$out" | tr '\n' ' ')" \
	"true false 1 1 halo-provision " "--json usage error: failed, not changed, exit_code 1"
is "$(jq -r '.msg' <<<"$out")" "unknown command 'check' (did you mean --check?)" "--json usage error: msg is the error"
is "$(jq -r '.errors | length' <<<"$out")" 1 "--json usage error: errors list"
is "$(jq -s 'length' <<<"$out")" 1 "--json usage error: exactly one document"

after=$(tree_snapshot "$root")
is "$after" "$before" "no usage error wrote anything under the root"

done_testing
