#!/bin/bash
# The Debian package (debian/): dpkg-buildpackage -b builds it from the
# release tree (make distdir: what the tarball carries), lintian finds no
# error, the .deb holds the program, man pages, units, udev rule,
# completion, the Ansible collection, the monitoring kit (alert rules,
# Grafana dashboard), the documentation (README.md, docs/, examples/) and
# the example config (and no config: installing must not provision), its
# control fields are right, the extracted program runs,
# and the maintainer scripts dh_installsystemd wrote enable the units but
# start only the read-only audit timer.
#
# A full build takes minutes: it skips in a sanitizer build and under
# valgrind (HALO_SANITIZER_CFLAGS, HALO_LOG_COMPILER from debian.mk), so
# it runs once per CI.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/docs.sh"
. "$top_srcdir/tests/lib/debian-deb.sh"

skip_all() { echo "1..0 # SKIP $*"; exit 0; }
reason=$(deb_skip_reason) && skip_all "$reason"
command -v lintian >/dev/null || skip_all "lintian not installed (Debian package lintian)"

version=$(deb_version)
[ -n "$version" ] || { echo "Bail out! no version from $HALO --version"; exit 1; }
src=$TEST_TMP/halo-provision-$version
t0=$SECONDS

deb_distdir "$src" >"$TEST_TMP/distdir.log" 2>&1
rc=$?
ok $rc "make distdir: the release tree"
[ $rc -eq 0 ] || tail -20 "$TEST_TMP/distdir.log" | sed 's/^/#   /'
[ -x "$src/debian/rules" ] && [ -f "$src/debian/source/format" ]
ok $? "the release tree carries debian/ (EXTRA_DIST)"

deb_buildpackage "$src" >"$TEST_TMP/build.log" 2>&1
rc=$?
ok $rc "dpkg-buildpackage -us -uc -b"
[ $rc -eq 0 ] || tail -30 "$TEST_TMP/build.log" | sed 's/^/#   /'
diag "built in $((SECONDS - t0)) s"

arch=$(dpkg --print-architecture)
deb=$TEST_TMP/halo-provision_${version}-1_${arch}.deb
changes=$TEST_TMP/halo-provision_${version}-1_${arch}.changes
[ -f "$deb" ] && [ -f "$changes" ]
ok $? "the .deb and .changes are named after the program's version ($version-1)"
[ -f "$deb" ] || { done_testing; exit 1; }
# For units-boot.sh, which boots it.
deb_publish "$deb"
ok $? "the .deb is kept for the boot test ($(deb_dir))"

t1=$SECONDS
lintian --info --fail-on error "$changes" >"$TEST_TMP/lintian" 2>&1
ok $? "lintian ran and passed (exit 0)"
grep -E '^[EWI]:' "$TEST_TMP/lintian" | sed 's/^/#   lintian: /'
is "$(grep -c '^E:' "$TEST_TMP/lintian")" 0 "lintian: no error"
is "$(grep -c '^W:' "$TEST_TMP/lintian")" 0 "lintian: no warning (overrides say why)"
diag "lintian in $((SECONDS - t1)) s"

# Control fields.
field() { dpkg-deb -f "$deb" "$1"; }
is "$(field Package)" halo-provision "Package"
is "$(field Version)" "$version-1" "Version: configure.ac's, revision 1"
is "$(field Architecture)" "$arch" "Architecture"
depends=$(field Depends)
# libkmod2 stays named once the program dlopens libkmod.
like "$depends" '(^|, )libkmod2 \(>= 27\)(,|$)' "Depends names libkmod2 (>= 27)"
like "$depends" '(^|, )libzstd1(,|$)' "Depends names libzstd1 (opened for .ko.zst)"
like "$depends" '(^|, )liblzma5(,|$)' "Depends names liblzma5 (opened for .ko.xz)"
like "$depends" 'libmnl0' "Depends has the linked libraries (shlibs)"
like "$depends" 'libconfig9' "Depends has libconfig"

# Contents.
dpkg-deb -c "$deb" >"$TEST_TMP/contents"
is "$(awk '$2 != "root/root"' "$TEST_TMP/contents")" "" "every file is root's (Rules-Requires-Root: no)"
paths=$(awk '{ print $6 }' "$TEST_TMP/contents" | sed 's|^\./|/|')
coll=/usr/share/ansible/collections/ansible_collections/halo/provision
want=(/usr/sbin/halo-provision
	/usr/share/man/man8/halo-provision.8.gz
	/usr/share/man/man5/halo-provision.conf.5.gz
	/usr/share/bash-completion/completions/halo-provision
	/usr/share/halo-provision/halo-provision.schema.json
	/usr/share/halo-provision/prometheus-alerts.yml
	/usr/share/halo-provision/grafana/halo-provision.json
	/usr/share/halo-provision/grafana/provisioning.yml
	/usr/share/doc/halo-provision/halo.conf.example
	/usr/share/doc/halo-provision/copyright
	/usr/share/doc/halo-provision/changelog.Debian.gz
	/usr/share/lintian/overrides/halo-provision
	$coll/galaxy.yml
	$coll/plugins/modules/halo_provision.py
	$coll/plugins/module_utils/halo_diff.py
	$coll/roles/node/tasks/main.yml
	/etc/halo-provision/)
for u in "$top_srcdir"/systemd/*; do
	u=${u##*/}
	want+=("/lib/systemd/system/${u%.in}")
done
for r in "$top_srcdir"/udev/*.rules; do
	want+=("/lib/udev/rules.d/${r##*/}")
done
# The documentation: README.md, docs/*.md and the schema next to it, every
# file of examples/ (dh_compress may have compressed the bigger ones).
mapfile -t docs < <(doc_paths /usr/share/doc/halo-provision)
missing=
for p in "${want[@]}"; do
	grep -qxF -- "$p" <<<"$paths" || missing+="$p "
done
for p in "${docs[@]}"; do
	grep -qxF -e "$p" -e "$p.gz" <<<"$paths" || missing+="$p "
done
is "$missing" "" "the .deb holds ${#want[@]} wanted paths (program, man pages, units, udev rule, completion, collection, alert rules, dashboard, example config) and ${#docs[@]} documents (docs, examples)"
is "$(grep -E '^/etc/.+[^/]$' <<<"$paths")" "" "no file under /etc: no config, so installing provisions nothing"

# The extracted program runs.
dpkg-deb -x "$deb" "$TEST_TMP/x"
is "$("$TEST_TMP/x/usr/sbin/halo-provision" --version)" "$("$HALO" --version)" \
	"the packaged halo-provision --version is the build's"
cmp -s "$TEST_TMP/x/usr/share/doc/halo-provision/halo.conf.example" "$top_srcdir/halo.conf.example"
ok $? "the example config is uncompressed, where the man pages say"

# The maintainer scripts, run with stand-ins for deb-systemd-helper,
# deb-systemd-invoke and systemctl that log their arguments, and a
# directory of ours in place of /run/systemd/system (a booted systemd).
dpkg-deb -e "$deb" "$TEST_TMP/ctrl"
stubs=$TEST_TMP/stubs
mkdir -p "$stubs" "$TEST_TMP/run-systemd-system"
for s in deb-systemd-helper deb-systemd-invoke systemctl; do
	printf '#!/bin/sh\necho "%s $*" >>"$MAINT_LOG"\nexit 0\n' "$s" >"$stubs/$s"
	chmod +x "$stubs/$s"
done
maint() {	# maint SCRIPT ARGS...: the calls it makes, one a line
	local script=$TEST_TMP/ctrl/$1
	shift
	[ -f "$script" ] || return 0
	sed -e "s|/run/systemd/system|$TEST_TMP/run-systemd-system|g" \
		-e "s|/usr/bin/deb-systemd-helper|$stubs/deb-systemd-helper|g" \
		"$script" >"$TEST_TMP/script"
	: >"$TEST_TMP/maint.log"
	MAINT_LOG=$TEST_TMP/maint.log PATH=$stubs:$PATH sh "$TEST_TMP/script" "$@" ||
		echo "exit $?"
	grep -vE ' unmask | was-enabled |daemon-reload' "$TEST_TMP/maint.log"
	return 0
}
fb=halo-provision-firstboot.service
boot=halo-provision.service
timer=halo-provision-check.timer

is "$(maint postinst configure '' | LC_ALL=C sort)" "deb-systemd-helper enable $timer
deb-systemd-helper enable $fb
deb-systemd-helper enable $boot
deb-systemd-invoke start $timer" \
	"install: the units are enabled; only the audit timer is started"
is "$(maint postinst configure 0.0.1-1 | grep invoke)" \
	"deb-systemd-invoke restart $timer" \
	"upgrade: only the audit timer is restarted (a restart of the others would apply)"
is "$(maint prerm upgrade "$version-2" | grep -c invoke)" 0 "prerm upgrade stops nothing"
is "$(maint prerm remove)" "deb-systemd-invoke stop $timer" "prerm remove: the timer is stopped"
is "$(maint postrm purge | LC_ALL=C sort)" "deb-systemd-helper purge $timer
deb-systemd-helper purge $fb $boot" "postrm purge: every enabled unit's state is purged"

# Wall time depends on the machine's load; the CPU time (user, system)
# of everything it ran does not.
diag "whole test in $((SECONDS - t0)) s; CPU user and system: $(times | tail -1)"
done_testing
