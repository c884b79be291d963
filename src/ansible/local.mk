# src/ansible: Ansible binary-module mode: ARGS_FILE in, one JSON object out.
# The config_data loader is src/config/load-json.c, the answer
# src/engine/report_ansible.c; main.c runs the mode.
libhalo_la_SOURCES += \
	src/ansible/args.h \
	src/ansible/args.c \
	src/ansible/stdout.c

ansible_unit_tests = \
	tests/unit/test-ansible-args \
	tests/unit/test-ansible-config
check_PROGRAMS += $(ansible_unit_tests)
TESTS += $(ansible_unit_tests)
tests_unit_test_ansible_config_SOURCES = tests/unit/test-ansible-config.c tests/unit/config-test.h

ansible_integration_tests = tests/integration/ansible-module.sh
TESTS += $(ansible_integration_tests)
EXTRA_DIST += $(ansible_integration_tests)
