# src/boot: kernel command line subsystem.
libhalo_la_SOURCES += \
	src/boot/boot.h \
	src/boot/boot.c \
	src/boot/plan-gtt-size.c \
	src/boot/plan-want.c \
	src/boot/plan-gtt-conflicts.c \
	src/boot/plan-pci.c \
	src/boot/plan-gtt-modprobe.c \
	src/boot/check-rootdev.c \
	src/boot/check-length.c \
	src/boot/bootint.h \
	src/boot/cmdline.h \
	src/boot/cmdline.c \
	src/boot/shellquote.h \
	src/boot/shellquote.c \
	src/boot/grubfile.h \
	src/boot/grubfile.c \
	src/boot/grubeval.c \
	src/boot/gtt.h \
	src/boot/gtt.c \
	src/boot/detect.h \
	src/boot/detect.c \
	src/boot/rootdev.h \
	src/boot/rootdev.c \
	src/boot/edits.c \
	src/boot/levels.c \
	src/boot/items.c \
	src/boot/backend_grub.c \
	src/boot/backend_dropin.c \
	src/boot/backend_kcmdline.c \
	src/boot/backend_bls.c \
	src/boot/record.h \
	src/boot/record.c \
	src/boot/revert.c

# Unit tests (cmocka, TAP).
boot_unit_tests = \
	tests/unit/test-boot-cmdline \
	tests/unit/test-boot-grubfile \
	tests/unit/test-boot-gtt \
	tests/unit/test-boot-detect \
	tests/unit/test-boot-shellquote
check_PROGRAMS += $(boot_unit_tests)
TESTS += $(boot_unit_tests)

# Integration tests on --root sandboxes (bash TAP).
boot_integration_tests = \
	tests/integration/boot-debian.sh \
	tests/integration/boot-fedora.sh \
	tests/integration/boot-grub.sh \
	tests/integration/boot-bad-input.sh \
	tests/integration/boot-unwritable.sh \
	tests/integration/boot-gtt.sh \
	tests/integration/boot-gtt-dkms.sh \
	tests/integration/boot-pci.sh \
	tests/integration/boot-cloudimg.sh \
	tests/integration/boot-cmdline-size.sh \
	tests/integration/boot-shown-commands.sh
TESTS += $(boot_integration_tests)
EXTRA_DIST += $(boot_integration_tests) \
	tests/fixtures/boot

# The drop-in as shipped documentation (grub/README explains the backends).
grubexampledir = $(docdir)/examples/grub
dist_grubexample_DATA = grub/README grub/zz-halo-provision.cfg.example
