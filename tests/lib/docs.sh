# tests/lib/docs.sh: the documentation the packages install (sourced by
# bash after tests/lib/tap.sh).
#   doc_paths DOCDIR   one path a line, under DOCDIR: README.md, the
#                      schema and every docs/*.md of the source tree in
#                      docs/, every file of examples/ in examples/
doc_paths() {
	local f
	echo "$1/README.md"
	echo "$1/docs/halo-provision.schema.json"
	for f in "$top_srcdir"/docs/*.md; do
		echo "$1/docs/${f##*/}"
	done
	find "$top_srcdir/examples" -type f | sort | while read -r f; do
		echo "$1/examples/${f#"$top_srcdir"/examples/}"
	done
}
