#!/bin/bash
# The halo.provision collection as Galaxy and Ansible's own tools see it,
# offline, with Debian's packages:
#   - ansible-test's sanity tests that need no download (compile, the
#     boilerplate tests, shebang, symlinks, line endings, ...), run by
#     ansible-test itself;
#   - the ones whose environment ansible-test would download (pip) run as
#     ansible-test runs them, with the system Python and Debian's
#     python3-voluptuous, pycodestyle and yamllint: validate-modules,
#     pep8, yamllint, runtime-metadata; tests/sanity/ignore-X.Y.txt (X.Y
#     the ansible-core release) applies to them as ansible-test applies
#     it, and an entry that ignores nothing fails;
#   - ansible-galaxy collection build, then install of the tarball: the
#     installed module documents itself and runs;
#   - make install: Ansible finds the module with the one setting the
#     collection's README gives, and the packages' prefix (/usr) is a
#     place ansible-core looks by default.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/lib/ansible.sh"
ansible_cluster_require
for p in ansible-test ansible-galaxy ansible; do
	command -v "$p" >/dev/null || { echo "1..0 # SKIP $p not installed (Debian package ansible-core)"; exit 0; }
done
ansible_env
# Debian's Python and tools, never a python3 first on PATH that is
# someone's virtual environment or shim.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
PY=/usr/bin/python3
PYVER=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
CORE=$("$PY" -c 'import ansible.release as r; print(".".join(r.__version__.split(".")[:2]))')
SANITY=$("$PY" -c 'import ansible_test, os; print(os.path.dirname(ansible_test.__file__))')/_util/controller/sanity

# Ansible's defaults: no ansible.cfg of this machine's.
: >"$TEST_TMP/empty.cfg"
C=$TEST_TMP/sanity/ansible_collections/halo/provision
mkdir -p "${C%/*}"
cp -R "$top_srcdir/ansible" "$C"
chmod -R u+w "$C"
cd "$C" || exit 1

# --- ansible-test's own sanity tests ---
offline=(action-plugin-docs compile empty-init future-import-boilerplate ignores line-endings
	metaclass-boilerplate no-assert no-basestring no-dict-iteritems no-dict-iterkeys
	no-dict-itervalues no-get-exception no-illegal-filenames no-main-display no-smart-quotes
	no-unicode-literals replace-urlopen shebang symlinks use-argspec-type-path use-compat-six)
ansible-test sanity --python "$PYVER" "${offline[@]/#/--test=}" >"$TEST_TMP/ansible-test.log" 2>&1
r=$?
ok $r "ansible-test sanity: ${#offline[@]} tests pass (${offline[*]})"
[ $r -eq 0 ] || diag "$(grep -v locale "$TEST_TMP/ansible-test.log" | tail -n 20)"
is "$(grep -c '^Running sanity test' "$TEST_TMP/ansible-test.log")" "${#offline[@]}" "... each of them ran"

# --- the others, with the system Python, as ansible-test runs them ---
IGNORE=tests/sanity/ignore-$CORE.txt
ok "$([ -f "$IGNORE" ]; echo $?)" "an ignore file for ansible-core $CORE ($IGNORE)"
sed 's/ *#.*//; /^$/d' "$IGNORE" 2>/dev/null >"$TEST_TMP/ignores"
is "$(grep -vcE '^[^ ]+ [a-z-]+(:[A-Za-z0-9-]+)?$' "$TEST_TMP/ignores")" 0 "every ignore entry is PATH TEST:CODE"
is "$(grep -c '#' "$IGNORE" 2>/dev/null)" "$(wc -l <"$TEST_TMP/ignores")" "every ignore entry gives its reason"
: >"$TEST_TMP/used"
# findings TEST: stdin "PATH:LINE:COL: CODE: message" lines; prints those no
# ignore entry covers, records the entries used.
findings() {
	local line path code
	while IFS= read -r line; do
		path=${line%%:*}
		code=${line#*:*:*: }
		code=${code%%: *}
		if grep -qxF "$path $1:$code" "$TEST_TMP/ignores"; then
			echo "$path $1:$code" >>"$TEST_TMP/used"
		else
			echo "$line"
		fi
	done
}
modules=$(find plugins/modules -name '*.py' | sort)
out=$(env -i PATH="$PATH" HOME="$HOME" ANSIBLE_CONFIG="$TEST_TMP/empty.cfg" ANSIBLE_COLLECTIONS_PATH="$TEST_TMP/sanity" \
	PYTHONPATH="$SANITY/validate-modules" "$PY" "$SANITY/validate-modules/validate.py" --format json --arg-spec \
	--collection ansible_collections/halo/provision \
	--collection-version "$(sed -n 's/^version: //p' galaxy.yml)" $modules 2>"$TEST_TMP/vm.err")
r=$?
ok "$([ $r -eq 0 ] || [ $r -eq 3 ]; echo $?)" "validate-modules ran (exit $r)"
[ ! -s "$TEST_TMP/vm.err" ] || diag "$(head -n 20 "$TEST_TMP/vm.err")"
is "$(jq -r 'to_entries[] | .key as $p | .value.errors[] | "\($p):\(.line // 0):\(.column // 0): \(.code): \(.msg)"' \
	<<<"$out" | findings validate-modules)" "" "validate-modules: no finding (arguments, documentation, return values)"
ignore_pep8=$(sed 's/#.*//; /^$/d' "$SANITY/pep8/current-ignore.txt" | sort | paste -sd,)
is "$(find . -name '*.py' | sed 's|^\./||' | sort | xargs "$PY" -m pycodestyle --max-line-length 160 \
	--config /dev/null --ignore "$ignore_pep8" | sed -E 's/^([^:]*:[0-9]+:[0-9]+: )([EW][0-9]+) /\1\2: /' |
	findings pep8)" "" "pep8 (pycodestyle, ansible-test's settings): no finding"
is "$({ find . \( -name '*.yml' -o -name '*.yaml' \) -not -path './tests/output/*'; echo "$modules"; } |
	sed 's|^\./||' | sort -u | "$PY" "$SANITY/yamllint/yamllinter.py" |
	jq -r '.messages[] | "\(.path):\(.line):\(.column): \(.code): \(.message)"' | findings yamllint)" "" \
	"yamllint (the YAML files and the modules' documentation): no finding"
is "$(find meta -name '*.yml' | "$PY" "$SANITY/code-smell/runtime-metadata.py" 2>&1 |
	sed -E 's/^([^:]*:[0-9]+:[0-9]+: )/\1runtime-metadata: /' | findings runtime-metadata)" "" \
	"runtime-metadata (meta/runtime.yml): no finding"
is "$(sort -u "$TEST_TMP/used")" "$(grep -E ' (validate-modules|pep8|yamllint|runtime-metadata)' "$TEST_TMP/ignores" | sort -u)" \
	"every ignore entry of these tests ignores a finding"
# These checks can fail: an undocumented option and a long line.
sed -i "s/^    wait=dict(type='int'),/    wait=dict(type='int'),\n    undocumented=dict(type='str'),/" plugins/modules/halo_provision.py
printf 'LONG = "%0200d"\n' 0 >>plugins/module_utils/halo_diff.py
like "$(env -i PATH="$PATH" HOME="$HOME" ANSIBLE_CONFIG="$TEST_TMP/empty.cfg" ANSIBLE_COLLECTIONS_PATH="$TEST_TMP/sanity" \
	PYTHONPATH="$SANITY/validate-modules" "$PY" "$SANITY/validate-modules/validate.py" --format json --arg-spec \
	--collection ansible_collections/halo/provision $modules 2>&1 | jq -r '.[].errors[].code' | sort | paste -sd' ')" \
	'undocumented-parameter' "validate-modules finds an undocumented option"
like "$("$PY" -m pycodestyle --max-line-length 160 --config /dev/null plugins/module_utils/halo_diff.py)" \
	'E501 line too long' "pycodestyle finds a long line"
cp "$top_srcdir/ansible/plugins/modules/halo_provision.py" plugins/modules/
cp "$top_srcdir/ansible/plugins/module_utils/halo_diff.py" plugins/module_utils/

# --- Galaxy: build, install the tarball, use it ---
G=$TEST_TMP/galaxy
mkdir -p "$G"
cp -R "$top_srcdir/ansible" "$G/src"
chmod -R u+w "$G/src"
ansible-galaxy collection build "$G/src" --output-path "$G" >"$G/build.log" 2>&1
ok $? "ansible-galaxy collection build"
tarball=$G/halo-provision-$(sed -n 's/^version: //p' "$G/src/galaxy.yml").tar.gz
ok "$([ -f "$tarball" ]; echo $?)" "the tarball is ${tarball##*/}"
tar tzf "$tarball" | sort >"$G/contents"
missing=
for f in MANIFEST.json FILES.json README.md meta/runtime.yml plugins/modules/halo_provision.py \
	plugins/module_utils/halo_diff.py roles/node/tasks/main.yml roles/node/tasks/package.yml \
	roles/node/tasks/cluster.yml roles/node/meta/argument_specs.yml "tests/sanity/ignore-$CORE.txt"; do
	grep -qxF "$f" "$G/contents" || missing+="$f "
done
is "$missing" "" "the tarball holds the module, its shared code, the role and the manifest"
ansible-galaxy collection install "$tarball" -p "$G/installed" >"$G/install.log" 2>&1
ok $? "ansible-galaxy collection install of the tarball (offline)"
export ANSIBLE_COLLECTIONS_PATH=$G/installed
like "$(ansible-galaxy collection list halo.provision 2>&1)" 'halo\.provision +0\.1\.0' "ansible-galaxy lists it"
doc=$(ansible-doc --json halo.provision.halo_provision 2>&1)
is "$(jq -r '.["halo.provision.halo_provision"].doc.filename' <<<"$doc" 2>/dev/null)" \
	"$G/installed/ansible_collections/halo/provision/plugins/modules/halo_provision.py" \
	"ansible-doc documents the installed module"
ansible-doc -t role halo.provision.node >/dev/null 2>&1
ok $? "ansible-doc documents the installed role"
out=$(cd "$ANS" && ansible localhost -c local -m halo.provision.halo_provision \
	-a "executable=$TEST_TMP/none/halo-provision" 2>&1)
like "$out" "halo-provision is not installed on this node \\($TEST_TMP/none/halo-provision does not exist\\): install the halo-provision package" \
	"the installed module runs (and names the package a node without the program needs)"

# --- make install: where Ansible looks ---
build_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$top_builddir" "$@"
}
printf 'print-dir:\n\t@echo $(ansiblecollectionsdir)\n' >"$TEST_TMP/print.mk"
dir=$(build_make -f Makefile -f "$TEST_TMP/print.mk" print-dir)
is "$(build_make -f Makefile -f "$TEST_TMP/print.mk" print-dir prefix=/usr datadir=/usr/share)" \
	/usr/share/ansible/collections "prefix /usr (the packages) installs it in /usr/share/ansible/collections"
defaults=$(env -u ANSIBLE_COLLECTIONS_PATH ANSIBLE_CONFIG="$TEST_TMP/empty.cfg" ansible-config dump 2>/dev/null |
	sed -n 's/^COLLECTIONS_PATHS(default) = //p')
like "$defaults" "'/usr/share/ansible/collections'" "... where ansible-core looks by default ($defaults)"
build_make install DESTDIR="$TEST_TMP/inst" >"$TEST_TMP/install.log" 2>&1
ok $? "make install DESTDIR"
# The setting the README gives for the default prefix, with this build's
# directory (and DESTDIR) in place of /usr/local/share/ansible/collections.
setting=$(grep -o 'ANSIBLE_COLLECTIONS_PATH=[^` ]*' "$top_srcdir/ansible/README.md" | head -n 1)
like "$setting" '^ANSIBLE_COLLECTIONS_PATH=/usr/local/share/ansible/collections:' \
	"the README gives one setting for the default prefix ($setting)"
value=${setting#*=}
value=${value/\/usr\/local\/share\/ansible\/collections/$TEST_TMP/inst$dir}
doc=$(env ANSIBLE_CONFIG="$TEST_TMP/empty.cfg" ANSIBLE_COLLECTIONS_PATH="$value" ansible-doc --json halo.provision.halo_provision 2>&1)
is "$(jq -r '.["halo.provision.halo_provision"].doc.filename' <<<"$doc" 2>/dev/null)" \
	"$TEST_TMP/inst$dir/ansible_collections/halo/provision/plugins/modules/halo_provision.py" \
	"with it, ansible-doc finds the module make install installed"

done_testing
