# src/ready: check-only readiness items: what no tool can set
# but an operator must know before blaming the network.
libhalo_la_SOURCES += \
	src/ready/ready.h \
	src/ready/plan.c \
	src/ready/kernel.c \
	src/ready/pcie.c \
	src/ready/amdgpu.c \
	src/ready/iommu.c \
	src/ready/memlock.c \
	src/ready/firmware.c

# Unit tests (cmocka, TAP)
ready_unit_tests = tests/unit/test-ready-parse tests/unit/test-ready-firmware
check_PROGRAMS += $(ready_unit_tests)
TESTS += $(ready_unit_tests)

# Integration tests: fixture /proc, /sys and /etc/security under --root.
ready_integration_tests = tests/integration/ready-check.sh \
	tests/integration/ready-firmware.sh
TESTS += $(ready_integration_tests)
EXTRA_DIST += $(ready_integration_tests)

# Benchmark: --check --only ready (figures only).
EXTRA_DIST += bench/ready-check.sh
