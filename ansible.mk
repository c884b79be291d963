# ansible/: the collection (galaxy.yml, module doc stub, role) and its tests with the real ansible-playbook (issue 12).

# Installed where ansible-core looks by default (prefix /usr gives
# /usr/share/ansible/collections/ansible_collections/halo/provision).
halocolldir = $(datadir)/ansible/collections/ansible_collections/halo/provision
dist_halocoll_DATA = ansible/galaxy.yml ansible/README.md
halocollmetadir = $(halocolldir)/meta
dist_halocollmeta_DATA = ansible/meta/runtime.yml
halocollmodulesdir = $(halocolldir)/plugins/modules
dist_halocollmodules_DATA = ansible/plugins/modules/halo_provision.py
halocollroledir = $(halocolldir)/roles/node
halocollroledefaultsdir = $(halocollroledir)/defaults
dist_halocollroledefaults_DATA = ansible/roles/node/defaults/main.yml
halocollroletasksdir = $(halocollroledir)/tasks
dist_halocollroletasks_DATA = ansible/roles/node/tasks/main.yml
halocollrolehandlersdir = $(halocollroledir)/handlers
dist_halocollrolehandlers_DATA = ansible/roles/node/handlers/main.yml
halocollrolemetadir = $(halocollroledir)/meta
dist_halocollrolemeta_DATA = ansible/roles/node/meta/main.yml \
	ansible/roles/node/meta/argument_specs.yml

# The module is the program itself: Ansible runs the extensionless file
# next to the doc stub, so it is a link to the installed binary (the
# path without DESTDIR: the package's link points into the target system).
install-data-hook: install-ansible-module
uninstall-hook: uninstall-ansible-module
install-ansible-module:
	$(MKDIR_P) '$(DESTDIR)$(halocollmodulesdir)'
	ln -sf '$(sbindir)/halo-provision' '$(DESTDIR)$(halocollmodulesdir)/halo_provision'
uninstall-ansible-module:
	rm -f '$(DESTDIR)$(halocollmodulesdir)/halo_provision'
.PHONY: install-ansible-module uninstall-ansible-module

ansible_tests = tests/integration/ansible-doc.sh tests/integration/ansible-playbook.sh
TESTS += $(ansible_tests)
EXTRA_DIST += $(ansible_tests) tests/lib/ansible.sh
