# Data: systemd units, udev rules, man pages, scripts shipped in the tarball.

systemdsystemunit_DATA = \
	systemd/halo-provision-firstboot.service \
	systemd/halo-provision.service \
	systemd/halo-provision@.service \
	systemd/halo-provision-check.service \
	systemd/halo-provision-check.timer
unit_templates = \
	systemd/halo-provision-firstboot.service.in \
	systemd/halo-provision.service.in \
	systemd/halo-provision@.service.in \
	systemd/halo-provision-check.service.in
CLEANFILES += $(unit_templates:.in=)
EXTRA_DIST += $(unit_templates) systemd/halo-provision-check.timer

# Units carry the configured sbindir.
$(unit_templates:.in=): %: %.in Makefile
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(SED) -e 's|@sbindir[@]|$(sbindir)|g' $< > $@.tmp && mv $@.tmp $@

udevrulesdir = $(udevdir)/rules.d
dist_udevrules_DATA = udev/90-halo-provision.rules

dist_man_MANS = man/halo-provision.8 man/halo-provision.conf.5

dist_doc_DATA = README.md halo.conf.example

# The JSON Schema of every --json document and of the state file, for
# consumers to validate against (docs/json-schema.md explains it):
# $(pkgdatadir)/halo-provision.schema.json.
dist_pkgdata_DATA = docs/halo-provision.schema.json

# The kernel and driver facts the code relies on, cited by its comments.
EXTRA_DIST += docs/hardware.md

EXTRA_DIST += quickstart .ci/run tests/lib/tap.sh \
	sandbox/demo.sh sandbox/mkroot.sh sandbox/reboot.sh \
	sandbox/debian.conf sandbox/fedora.conf sandbox/bad.conf sandbox/roce.sh \
	sandbox/rdma.sh

# Unit tests again under valgrind (the integration scripts run the binary,
# which ASan covers).
# Each run keeps its own summary log (quickstart counts them).
VALGRIND = valgrind
VALGRIND_CHECK = $(UNSHARE_NET) $(VALGRIND) --quiet --error-exitcode=99 \
	--leak-check=full --errors-for-leak-kinds=definite,indirect \
	--show-leak-kinds=definite,indirect
check-valgrind: $(check_PROGRAMS) $(check_LTLIBRARIES)
	$(MAKE) $(AM_MAKEFLAGS) check TEST_SUITE_LOG=test-suite-valgrind.log \
		TESTS="$(filter tests/unit/%,$(check_PROGRAMS))" \
		LOG_COMPILER="$(VALGRIND_CHECK)"
CLEANFILES += test-suite-valgrind.log test-suite-valgrind-fuzz.log
.PHONY: check-valgrind

# distcheck installs units and rules under its own prefix.
AM_DISTCHECK_CONFIGURE_FLAGS = \
	--with-udevdir='$${prefix}/lib/udev' \
	--with-systemdsystemunitdir='$${prefix}/lib/systemd/system'
EXTRA_DIST += bench/lib.sh bench/noop.sh
