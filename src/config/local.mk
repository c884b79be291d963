# src/config: the config file (and Ansible's config_data) to a typed,
# validated struct halo_config; the value grammars parsed once at load.
libhalo_la_SOURCES += \
	src/config/halo-config.h \
	src/config/cidr.h \
	src/config/cidr.c \
	src/config/hwaddr.h \
	src/config/hwaddr.c \
	src/config/pci.h \
	src/config/pci.c \
	src/config/digest.h \
	src/config/digest.c \
	src/config/kernel-version.h \
	src/config/kernel-version.c \
	src/config/kernel-param.h \
	src/config/kernel-param.c \
	src/config/mount-options.h \
	src/config/mount-options.c \
	src/config/device-spec.h \
	src/config/device-spec.c \
	src/config/module-options.h \
	src/config/module-options.c \
	src/config/sysctl-setting.h \
	src/config/sysctl-setting.c \
	src/config/sysctl-rule.h \
	src/config/sysctl-rule.c \
	src/config/loose.h \
	src/config/loose.c \
	src/config/message.h \
	src/config/message.c \
	src/config/cset.h \
	src/config/cset.c \
	src/config/report.h \
	src/config/report.c \
	src/config/lex.h \
	src/config/lex.c \
	src/config/syntax-hint.c \
	src/config/check.h \
	src/config/check.c \
	src/config/parse-common.h \
	src/config/parse-common.c \
	src/config/sections.h \
	src/config/keywords.c \
	src/config/parse.c \
	src/config/parse-boot.c \
	src/config/parse-host.c \
	src/config/parse-ready.c \
	src/config/parse-iface.c \
	src/config/parse-files.c \
	src/config/parse-sysctl.c \
	src/config/paths.c \
	src/config/owned-paths.c \
	src/config/validate.c \
	src/config/load.h \
	src/config/load.c \
	src/config/load-json.c \
	src/config/source.c \
	src/config/free.c

config_unit_tests = \
	tests/unit/test-config-cidr \
	tests/unit/test-config-digest \
	tests/unit/test-config-report \
	tests/unit/test-config-cset \
	tests/unit/test-config-hwaddr \
	tests/unit/test-config-pci \
	tests/unit/test-config-typed \
	tests/unit/test-config-load \
	tests/unit/test-config-errors \
	tests/unit/test-config-validate \
	tests/unit/test-config-kernel-version \
	tests/unit/test-config-mount-options \
	tests/unit/test-config-sysctl \
	tests/unit/test-config-device-spec \
	tests/unit/test-config-module-options \
	tests/unit/test-config-kernel-param
check_PROGRAMS += $(config_unit_tests)
TESTS += $(config_unit_tests)

tests_unit_test_config_load_CFLAGS = $(unit_cflags) -DTOP_SRCDIR=\"$(abs_top_srcdir)\"

TESTS += tests/integration/config-errors.sh tests/integration/config-outputs.sh
# halo.conf.example is distributed by data.mk (dist_doc_DATA).
# tests/unit/config-test.h: shared by the test-config-* programs.
EXTRA_DIST += \
	tests/unit/config-test.h \
	tests/integration/config-errors.sh \
	tests/integration/config-outputs.sh \
	tests/fixtures/config
