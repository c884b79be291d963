# Packaging: bash completion (installed) and the Fedora RPM spec (shipped).

# bash-completion loads a command's completion from a file named after it.
bashcompletion_DATA = completion/halo-provision
completion/halo-provision: completion/halo-provision.bash
	$(AM_V_GEN)$(MKDIR_P) $(@D) && cp $< $@.tmp && mv $@.tmp $@
CLEANFILES += completion/halo-provision

# The spec configure writes (with the version) is in the tarball too, so
# `rpmbuild -ta halo-provision-VERSION.tar.xz` works.
EXTRA_DIST += completion/halo-provision.bash rpm/halo-provision.spec

packaging_tests = tests/integration/completion.sh tests/integration/rpm-spec.sh
TESTS += $(packaging_tests)
EXTRA_DIST += $(packaging_tests)

# distcheck installs the completion under its own prefix too.
AM_DISTCHECK_CONFIGURE_FLAGS += \
	--with-bashcompletiondir='$${prefix}/share/bash-completion/completions'
