#!/bin/bash
# The Fedora spec (rpm/halo-provision.spec, written by configure): rpmspec
# parses it, its version is the build's, and its %files covers exactly what
# `make install` installs with the spec's own %configure directories, so
# a newly installed file that is not packaged fails here; that includes
# the alert rules, the Grafana dashboard, docs/ and examples/.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/docs.sh"

if ! command -v rpmspec >/dev/null; then
	echo "1..0 # SKIP rpmspec not installed (Debian package rpm)"
	exit 0
fi
spec=$top_builddir/rpm/halo-provision.spec
[ -r "$spec" ] || { echo "Bail out! $spec missing (configure writes it)"; exit 1; }
rpmspec -P "$spec" >"$TEST_TMP/spec" 2>"$TEST_TMP/spec.err"
ok $? "rpmspec -P parses the spec"
is "$(grep -iE 'error|warning' "$TEST_TMP/spec.err")" "" "rpmspec prints no error or warning"

version=$(rpmspec -q --srpm --qf '%{version}\n' "$spec" 2>/dev/null)
like "$("$HALO" --version)" "(^| )${version//./\\.}($| )" "the spec's version ($version) is the program's"

# make in the build directory, on its own: not the flags (-w, variables)
# of a make check that runs this test.
build_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -s --no-print-directory -C "$top_builddir" "$@"
}

# The directories the spec's %configure passes, as make variables.
vars=()
while read -r opt; do
	name=${opt%%=*}
	name=${name#--}
	value=${opt#*=}
	case $name in
	prefix | exec-prefix | bindir | sbindir | sysconfdir | datadir | \
	libdir | libexecdir | localstatedir | mandir)
		vars+=("${name//-/_}=$value") ;;
	with-*dir)
		vars+=("${name#with-}=$value") ;;
	esac
done < <(sed -n '/configure /,/^%install/p' "$TEST_TMP/spec" | grep -oE -- '--[a-z-]+=[^ \\]+')
like "${vars[*]}" 'sbindir=.* systemdsystemunitdir=.* bashcompletiondir=' \
	"the spec's %configure names sbindir, the unit and completion dirs"

# Install with the build's own directories (overriding them on the make
# command line would rebuild with the spec's paths baked in), then map
# each directory to the spec's: the same Makefile, evaluated with the
# spec's values, says where each one goes (docdir, pkgdatadir derived).
install_dirs='prefix sysconfdir sbindir datadir docdir pkgdatadir mandir
	udevdir systemdsystemunitdir bashcompletiondir'
printf 'print-install-dirs:\n' >"$TEST_TMP/print.mk"
for d in $install_dirs; do
	printf '\t@echo "%s $(%s)"\n' "$d" "$d" >>"$TEST_TMP/print.mk"
done
build_make -f Makefile -f "$TEST_TMP/print.mk" \
	print-install-dirs >"$TEST_TMP/dirs.build"
build_make -f Makefile -f "$TEST_TMP/print.mk" \
	print-install-dirs "${vars[@]}" >"$TEST_TMP/dirs.spec"
is "$(wc -l <"$TEST_TMP/dirs.spec")" "$(echo $install_dirs | wc -w)" "the install directories, build and spec"
# Longest build directory first: /usr/local/share/halo-provision before
# /usr/local/share.
map=$(paste -d' ' <(cut -d' ' -f2 "$TEST_TMP/dirs.build") <(cut -d' ' -f2 "$TEST_TMP/dirs.spec") |
	awk '{ print length($1), $0 }' | sort -rn | cut -d' ' -f2-)

inst=$TEST_TMP/inst
build_make install DESTDIR="$inst" >"$TEST_TMP/install.log" 2>&1
ok $? "make install DESTDIR"
(cd "$inst" && find . \( -type f -o -type l \) | sed 's|^\.||' | sort) |
	while read -r f; do
		while read -r from to; do
			if [[ $f == "$from"/* ]]; then
				f=$to${f#"$from"}
				break
			fi
		done <<<"$map"
		echo "$f"
	done >"$TEST_TMP/installed"
[ -s "$TEST_TMP/installed" ]
ok $? "make install installed files ($(wc -l <"$TEST_TMP/installed"))"
diag "installed, in the spec's directories:"
sed 's/^/#   /' "$TEST_TMP/installed"

# The monitoring kit and the documentation are among them (so %files,
# checked below, packages them).
kit=(/usr/share/halo-provision/prometheus-alerts.yml
	/usr/share/halo-provision/grafana/halo-provision.json
	/usr/share/halo-provision/grafana/provisioning.yml)
mapfile -t -O ${#kit[@]} kit < <(doc_paths /usr/share/doc/halo-provision)
absent=
for p in "${kit[@]}"; do
	grep -qxF -- "$p" "$TEST_TMP/installed" || absent+="$p "
done
is "$absent" "" "make install installs the alert rules, the dashboard, docs/ and examples/ (${#kit[@]} files)"

# %files entries: "path" (a glob; a directory takes what is below it),
# directives stripped; %dir entries own only the directory.
sed -n '/^%files/,/^%changelog/p' "$TEST_TMP/spec" | sed '1d;$d' |
	sed -E 's/^[[:space:]]+//; /^(#|$)/d' >"$TEST_TMP/files"
entries=() dirs=()
while read -r line; do
	isdir=false
	while [[ $line == %* ]]; do
		word=${line%%[[:space:]]*}
		[[ $word == %dir ]] && isdir=true
		line=${line#"$word"}
		line=${line#"${line%%[![:space:]]*}"}
	done
	if $isdir; then dirs+=("$line"); else entries+=("$line"); fi
done <"$TEST_TMP/files"

covered() {	# covered FILE ENTRY
	local f=$1 e=${2%/}
	# shellcheck disable=SC2053 # the entry is a glob on purpose
	[[ $f == $e || $f == $e/* ]]
}
uncovered=
while read -r f; do
	hit=false
	for e in "${entries[@]}"; do
		covered "$f" "$e" && { hit=true; break; }
	done
	$hit || uncovered+="$f "
done <"$TEST_TMP/installed"
is "$uncovered" "" "every installed file is in %files"

unmatched=
for e in "${entries[@]}"; do
	hit=false
	while read -r f; do
		covered "$f" "$e" && { hit=true; break; }
	done <"$TEST_TMP/installed"
	$hit || unmatched+="$e "
done
is "$unmatched" "" "every %files entry matches an installed file (rpmbuild fails otherwise)"

# A %dir the install does not make must be made in %install.
missing_dirs=
for d in "${dirs[@]}"; do
	grep -q "^$d/" "$TEST_TMP/installed" || sed -n '/^%install/,/^%check/p' "$TEST_TMP/spec" |
		grep -q -- "-d .*/buildroot.*$d\|install -d.*$d" || missing_dirs+="$d "
done
is "$missing_dirs" "" "every %dir is installed or made in %install"

# The units with an [Install] section are enabled by presets in %post.
post=$(sed -n '/^%post$/,/^%/p' "$TEST_TMP/spec")
missing_units=
for u in "$top_srcdir"/systemd/*; do
	grep -q '^\[Install\]' "$u" || continue
	u=${u##*/}
	u=${u%.in}
	[[ $post == *"$u"* ]] || missing_units+="$u "
done
is "$missing_units" "" "%post enables (by preset) every unit with an [Install] section"
done_testing
