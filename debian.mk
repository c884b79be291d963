# debian/: the Debian source package and its test.
# dpkg-buildpackage -us -uc -b in a checkout or in the release tarball's
# tree: the tarball carries debian/ (EXTRA_DIST), and
# tests/integration/debian-package.sh builds from the distdir.

debian_files = \
	debian/changelog \
	debian/control \
	debian/copyright \
	debian/rules \
	debian/source/format \
	debian/halo-provision.dirs \
	debian/halo-provision.lintian-overrides
EXTRA_DIST += $(debian_files)

TESTS += tests/integration/debian-package.sh
EXTRA_DIST += tests/integration/debian-package.sh

# The package test is a full build (minutes): it skips in a sanitizer
# build and under valgrind, so it runs once per CI (distcheck's plain
# build). It reads how the suite was built from here.
AM_TESTS_ENVIRONMENT += \
	HALO_SANITIZER_CFLAGS='$(SANITIZER_CFLAGS)'; export HALO_SANITIZER_CFLAGS; \
	HALO_LOG_COMPILER='$(LOG_COMPILER) $(SH_LOG_COMPILER)'; export HALO_LOG_COMPILER;
