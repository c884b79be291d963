# src/engine: items, plan, the phased run, reports, state file and the
# run's other outputs.
libhalo_la_SOURCES += \
	src/engine/item.h \
	src/engine/item.c \
	src/engine/plan.h \
	src/engine/plan.c \
	src/engine/owned.h \
	src/engine/owned.c \
	src/engine/file_item.c \
	src/engine/file_int.h \
	src/engine/file_revert.c \
	src/engine/file_left.h \
	src/engine/file_left.c \
	src/engine/revert.h \
	src/engine/revert.c \
	src/engine/engine.h \
	src/engine/engine.c \
	src/engine/subsystem.h \
	src/engine/subsystem.c \
	src/engine/run.h \
	src/engine/run.c \
	src/engine/outputs.h \
	src/engine/outputs.c \
	src/engine/refusals.h \
	src/engine/refusals.c \
	src/engine/report.h \
	src/engine/report_status.c \
	src/engine/report_text.c \
	src/engine/report_json.c \
	src/engine/item_json.c \
	src/engine/report_ansible.h \
	src/engine/report_ansible.c \
	src/engine/state.h \
	src/engine/state.c \
	src/engine/state-int.h \
	src/engine/state-status.c \
	src/engine/state-scan.h \
	src/engine/state-scan.c \
	src/engine/reboot.c \
	src/engine/prometheus.c

EXTRA_DIST += docs/json-schema.md docs/prometheus.md docs/prometheus-alerts.yml

# Unit tests of the engine (cmocka, TAP).
engine_unit_tests = \
	tests/unit/test-engine-plan \
	tests/unit/test-engine-engine \
	tests/unit/test-engine-file-item \
	tests/unit/test-engine-report \
	tests/unit/test-engine-state \
	tests/unit/test-engine-state-scan
check_PROGRAMS += $(engine_unit_tests)
TESTS += $(engine_unit_tests)
tests_unit_test_engine_file_item_SOURCES = tests/unit/test-engine-file-item.c tests/unit/engine-test.h \
	tests/unit/root-test.h
tests_unit_test_engine_state_SOURCES = tests/unit/test-engine-state.c tests/unit/engine-test.h \
	tests/unit/root-test.h
tests_unit_test_engine_state_scan_SOURCES = tests/unit/test-engine-state-scan.c \
	tests/unit/state-records-test.h

# Integration tests of the reports, the outputs and --revert.
engine_integration_tests = \
	tests/integration/report-json-schema.sh \
	tests/integration/report-prometheus.sh \
	tests/integration/revert.sh \
	tests/integration/revert-boot.sh \
	tests/integration/revert-files.sh \
	tests/integration/revert-outputs.sh
TESTS += $(engine_integration_tests)
EXTRA_DIST += $(engine_integration_tests)
