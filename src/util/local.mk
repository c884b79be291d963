# src/util: root-confined files, spawn, lock, strings, diff.
libhalo_la_SOURCES += \
	src/util/rootfs.h \
	src/util/rootfs-internal.h \
	src/util/rootfs-open.c \
	src/util/rootfs.c \
	src/util/rootfs-read.c \
	src/util/rootfs-cache.c \
	src/util/rootfs-write.c \
	src/util/rootfs-attr.c \
	src/util/rootfs-refused.c \
	src/util/dir.h \
	src/util/dir.c \
	src/util/strv.h \
	src/util/strv.c \
	src/util/spawn.h \
	src/util/spawn.c \
	src/util/lock.h \
	src/util/lock.c \
	src/util/diff.h \
	src/util/diff.c \
	src/util/errors.h \
	src/util/errors.c \
	src/util/template.h \
	src/util/template.c \
	src/util/dl.h \
	src/util/dl.c

# Every file halo-provision owns is rendered from templates/, embedded in
# the binary at build time.
halo_templates = \
	templates/modules-load.conf \
	templates/modprobe.conf \
	templates/nm-unmanaged.conf \
	templates/networkd-unmanaged.network \
	templates/grub-dropin.cfg
nodist_libhalo_la_SOURCES = templates.c
BUILT_SOURCES += templates.c
CLEANFILES += templates.c
EXTRA_DIST += templates/embed.sh $(halo_templates)
templates.c: $(halo_templates) templates/embed.sh
	$(AM_V_GEN)$(BASH) $(srcdir)/templates/embed.sh $(addprefix $(srcdir)/,$(halo_templates)) > $@.tmp && mv $@.tmp $@

util_unit_tests = \
	tests/unit/test-util-strv \
	tests/unit/test-util-rootfs \
	tests/unit/test-util-rootfs-snapshot \
	tests/unit/test-util-rootfs-race \
	tests/unit/test-util-spawn \
	tests/unit/test-util-lock \
	tests/unit/test-util-diff \
	tests/unit/test-util-template \
	tests/unit/test-util-dl
check_PROGRAMS += $(util_unit_tests)
TESTS += $(util_unit_tests)

