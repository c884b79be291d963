#!/bin/bash
# The tree explains itself: code comments, tests, docs, man pages, build
# files and the README cite docs/architecture.md, docs/hardware.md or the
# kernel source, never a document outside the repository nor the ticket a
# line was written for (which says when, not what).
. "$top_srcdir/tests/lib/tap.sh"

cd "$top_srcdir" || exit 1
# Spelled in pieces so that this file does not match itself.
outside='FACT''S|\bDESIG''N\b'
ticket='[Ii]ssue #?[0-9]+'
files=(src tests docs man bench ansible examples sandbox systemd udev debian rpm completion
	quickstart halo.conf.example README.md configure.ac Makefile.am ./*.mk)

hits=$(grep -rnEI --exclude-dir=corpus -e "$outside" -e "$ticket" "${files[@]}" 2>/dev/null)
is "$hits" "" "no line cites an outside document or a ticket"
[ -n "$hits" ] && diag "$hits"

# Build fragments are named by what they build: one local.mk per folder.
extra=$(find src -name '*.mk' ! -name local.mk | sort)
is "$extra" "" "src/ has one build fragment per folder (local.mk)"

ok "$([ -s docs/architecture.md ] && [ -s docs/hardware.md ]; echo $?)" \
	"the project's own architecture and hardware documents exist"
done_testing
