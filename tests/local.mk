# The top of the tree: the command line and the subsystem table.
top_unit_tests = tests/unit/test-cli tests/unit/test-subsystems
check_PROGRAMS += $(top_unit_tests)
TESTS += $(top_unit_tests)
cli_integration_tests = \
	tests/integration/cli-usage.sh \
	tests/integration/cli-run.sh \
	tests/integration/cli-status.sh \
	tests/integration/cli-reboot.sh
TESTS += $(cli_integration_tests)
EXTRA_DIST += $(cli_integration_tests)

# Tests of the shipped data (units, rules) and shared test helpers.
TESTS += tests/integration/units.sh tests/integration/udev-hotplug.sh \
	tests/integration/sandbox.sh \
	tests/integration/run-exit.sh tests/integration/man-pages.sh
EXTRA_DIST += tests/integration/units.sh tests/integration/udev-hotplug.sh \
	tests/integration/sandbox.sh \
	tests/integration/run-exit.sh tests/integration/man-pages.sh

# The units' confinement (systemd-analyze security), and the units booted
# under systemd-nspawn in a Debian 12 root with the package installed.
# The boot test installs the .deb the package test (debian.mk) built and
# left in tests/deb/: it runs after it.
TESTS += tests/integration/units-security.sh tests/integration/units-boot.sh
EXTRA_DIST += tests/integration/units-security.sh tests/integration/units-boot.sh \
	tests/lib/debian-deb.sh tests/lib/debian-root.sh tests/lib/container.sh \
	tests/lib/units.sh
tests/integration/units-boot.log: tests/integration/debian-package.log
clean-local: clean-local-deb
clean-local-deb:
	rm -rf tests/deb
.PHONY: clean-local-deb

# The hardening harness: the run lock under load, killed runs.
hardening_tests = tests/integration/concurrency.sh tests/integration/crash-consistency.sh
EXTRA_DIST += tests/lib/hardening.sh bench/crash.sh
TESTS += $(hardening_tests)
EXTRA_DIST += $(hardening_tests)
