#!/bin/bash
# The man pages against what they describe: every option --help
# prints is defined in halo-provision(8) and every option defined there
# exists; every config key of halo.conf.example and every key the loader
# accepts is defined in halo-provision.conf(5) in its section; the pages'
# version is the binary's; the JSON Schema file the page names is shipped;
# and groff formats both pages without a single warning.
#
# "Defined" means a tag line of a .TP paragraph: a word that only shows up
# in prose ("name", "path", "type") does not count as documentation.
. "$top_srcdir/tests/lib/tap.sh"

MAN8=$top_srcdir/man/halo-provision.8
MAN5=$top_srcdir/man/halo-provision.conf.5
EXAMPLE=$top_srcdir/halo.conf.example

# tags PAGE: "SECTION<TAB>TAG" for every .TP tag line of PAGE, with roff
# escapes for '-' and fonts removed, the section heading in upper case.
tags() {
	awk '
		/^\.SH / { sec = substr($0, 5); gsub(/"/, "", sec); sec = toupper(sec); next }
		/^\.TP/ { want = 1; next }
		want && /^\.[A-Za-z]+( |$)/ && $0 !~ /^\.(B|I|BR|BI|IR|RB|IB|RI)( |$)/ { next }
		want {
			t = $0
			sub(/^\.(B|I|BR|BI|IR|RB|IB|RI) /, "", t)
			gsub(/\\f[BIRP]/, "", t); gsub(/\\-/, "-", t); gsub(/"/, "", t)
			print sec "\t" t
			want = 0
		}
	' "$1"
}

# --- halo-provision(8): options ------------------------------------------
help=$("$HALO" --help)
ok $? "--help runs"
tags "$MAN8" >"$TEST_TMP/tags8"
opt_words() { grep -oE -- '(^|[ ,/])--?[a-z][a-z-]*' | sed 's/^[ ,\/]//' | sort -u; }
help_opts=$(printf '%s\n' "$help" | grep -E '^ +-' | opt_words)
page_opts=$(cut -f2 "$TEST_TMP/tags8" | opt_words)
[ -n "$help_opts" ]
ok $? "options parsed from --help ($(echo $help_opts | wc -w))"
# --check and friends are in the usage lines, not the option list.
modes=$(printf '%s\n' "$help" | grep -E '^(Usage:| +halo-provision )' | opt_words)
for o in $help_opts $modes; do
	printf '%s\n' "$page_opts" | grep -qxF -- "$o"
	ok $? "halo-provision(8) defines $o"
done
for o in $page_opts; do
	printf '%s\n%s\n' "$help_opts" "$modes" | grep -qxF -- "$o"
	ok $? "$o in halo-provision(8) is an option of the binary"
done

# --- halo-provision.conf(5): keys ------------------------------------------
# Key paths of the example: comments and strings out, then a walk over
# the groups and lists. Keys inside modules.options are module names
# (data), not keys.
keys_of_example() {
	sed -e 's/"[^"]*"/S/g' -e 's/#.*//' "$1" | tr '\n' ' ' |
	grep -oE '[A-Za-z_][A-Za-z0-9_]*[[:space:]]*=|[][{}();,]' | tr -d ' \t=' |
	awk '
		function path(   i, p) { p = ""; for (i = 1; i <= d; i++) if (st[i] != "") p = p (p == "" ? "" : ".") st[i]; return p }
		/^[A-Za-z_]/ { last = $0; p = path(); if (p != "modules.options") print (p == "" ? "" : p ".") $0; next }
		/^[{(\[]/ { st[++d] = last; last = ""; next }
		/^[})\]]/ { d--; last = ""; next }
		{ last = "" }
	'
}
tags "$MAN5" >"$TEST_TMP/tags5"
conf_tag_in() {	# conf_tag_in SECTION KEY
	awk -F'\t' -v s="$1" -v k="$2" '
		$1 == s || index($1, s " ") == 1 { t = $2; sub(/[ (].*/, "", t); if (t == k) f = 1 }
		END { exit !f }' "$TEST_TMP/tags5"
}
sections5=$(grep -E '^\.S[HS] ' "$MAN5" | sed -e 's/^\.S[HS] //' -e 's/"//g' | tr a-z A-Z)
example_keys=$(keys_of_example "$EXAMPLE" | sort -u)
n=$(printf '%s\n' "$example_keys" | grep -c .)
[ "$n" -ge 40 ]
ok $? "key paths parsed from halo.conf.example ($n)"
for k in $example_keys; do
	top=${k%%.*}
	leaf=${k##*.}
	if [ "$k" = "$top" ]; then
		# A top-level key: a section of its own, or defined somewhere.
		printf '%s\n' "$sections5" | grep -qxF "$(echo "$k" | tr a-z A-Z)" ||
			cut -f2 "$TEST_TMP/tags5" | grep -qE "^$k( |\$)"
	else
		conf_tag_in "$(echo "$top" | tr a-z A-Z)" "$leaf" ||
			conf_tag_in "$(echo "$leaf" | tr a-z A-Z)" "$leaf"
	fi
	ok $? "halo-provision.conf(5) defines $k"
done

# Keys the loader accepts (its key tables), also those the example lacks.
loader_keys=$(awk '/_keys\[\] = \{/ { on = 1 } on { print } /\};/ { on = 0 }' \
	"$top_srcdir"/src/config/parse*.c |
	grep -oE '"[a-z_]+"' | tr -d '"' | sort -u)
n=$(printf '%s\n' "$loader_keys" | grep -c .)
[ "$n" -ge 40 ]
ok $? "keys parsed from the loader's key tables ($n)"
for k in $loader_keys; do
	printf '%s\n' "$sections5" | grep -qxF "$(echo "$k" | tr a-z A-Z)" ||
		cut -f2 "$TEST_TMP/tags5" | grep -qE "^$k( |\$)"
	ok $? "halo-provision.conf(5) defines loader key $k"
done

# --- facts the pages state ---------------------------------------------------
version=$("$HALO" --version | awk '{ print $2 }')
for page in "$MAN8" "$MAN5"; do
	grep -qE "^\\.TH .*\"halo-provision $version\"" "$page"
	ok $? "$(basename "$page"): .TH names version $version"
done
schema=$(grep -oE '/usr/share/halo-provision/[A-Za-z0-9._-]+\.json' "$MAN8" | sort -u)
[ -n "$schema" ] && [ -f "$top_srcdir/docs/$(basename "$schema")" ] &&
	grep -q "dist_pkgdata_DATA.*docs/$(basename "$schema")" "$top_srcdir/data.mk"
ok $? "the schema file halo-provision(8) names (${schema:-none}) is shipped to pkgdatadir"
! grep -qi 'readme' "$MAN8" "$MAN5"
ok $? "the pages do not send readers to the README"

# --- roff: groff (groff-base) formats both without warnings ------------------
if command -v groff >/dev/null; then
	for page in "$MAN8" "$MAN5"; do
		w=$(LC_ALL=C groff -t -man -ww -z -Tutf8 "$page" 2>&1)
		ok $? "groff formats $(basename "$page")"
		is "$w" "" "groff -ww: no warnings for $(basename "$page")"
	done
else
	ok 1 "groff is installed (Debian package groff-base)"
fi

done_testing
