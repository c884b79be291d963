# src/ansible: Ansible binary-module mode (issue 12): ARGS_FILE in, one JSON object out.
