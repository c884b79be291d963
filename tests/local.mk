# Tests of the shipped data (units, rules) and shared test helpers.
TESTS += tests/integration/units.sh tests/integration/udev-hotplug.sh \
	tests/integration/sandbox.sh \
	tests/integration/run-exit.sh tests/integration/man-pages.sh
EXTRA_DIST += tests/integration/units.sh tests/integration/udev-hotplug.sh \
	tests/integration/sandbox.sh \
	tests/integration/run-exit.sh tests/integration/man-pages.sh
# The udev rule udev-hotplug.sh runs (data.mk installs it; listed here
# too so the tarball has it whichever name data.mk installs).
EXTRA_DIST += udev/90-halo-provision.rules
