# ansible/: the collection (galaxy.yml, module doc stub, role) and its tests with the real ansible-playbook (issue 12).
