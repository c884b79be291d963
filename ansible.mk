# ansible/: the collection halo.provision (galaxy.yml, the module that runs
# each node's own halo-provision, the role) and its tests with the real
# ansible-playbook, ansible-doc, ansible-test and ansible-galaxy.

# With prefix /usr (the packages) this is /usr/share/ansible/collections,
# where ansible-core looks by default; with another prefix README.md says
# the one setting that makes Ansible look here.
ansiblecollectionsdir = $(datadir)/ansible/collections
halocolldir = $(ansiblecollectionsdir)/ansible_collections/halo/provision
dist_halocoll_DATA = ansible/galaxy.yml ansible/README.md
halocollmetadir = $(halocolldir)/meta
dist_halocollmeta_DATA = ansible/meta/runtime.yml
halocollmodulesdir = $(halocolldir)/plugins/modules
dist_halocollmodules_DATA = ansible/plugins/modules/halo_provision.py
halocollmoduleutilsdir = $(halocolldir)/plugins/module_utils
dist_halocollmoduleutils_DATA = ansible/plugins/module_utils/halo_diff.py
halocollroledir = $(halocolldir)/roles/node
halocollroledefaultsdir = $(halocollroledir)/defaults
dist_halocollroledefaults_DATA = ansible/roles/node/defaults/main.yml
halocollroletasksdir = $(halocollroledir)/tasks
dist_halocollroletasks_DATA = ansible/roles/node/tasks/main.yml \
	ansible/roles/node/tasks/package.yml \
	ansible/roles/node/tasks/cluster.yml
halocollrolehandlersdir = $(halocollroledir)/handlers
dist_halocollrolehandlers_DATA = ansible/roles/node/handlers/main.yml
halocollrolemetadir = $(halocollroledir)/meta
dist_halocollrolemeta_DATA = ansible/roles/node/meta/main.yml \
	ansible/roles/node/meta/argument_specs.yml
# The sanity tests' ignore file ships with the source, not installed.
EXTRA_DIST += ansible/tests/sanity/ignore-2.14.txt

ansible_tests = tests/integration/ansible-doc.sh tests/integration/ansible-playbook.sh \
	tests/integration/ansible-module-python.sh tests/integration/ansible-collection.sh \
	tests/integration/ansible-install.sh tests/integration/ansible-role-inputs.sh
TESTS += $(ansible_tests)
# The role installs the .deb the package test (debian.mk) built and left
# in tests/deb/, on a node booted under systemd-nspawn: it runs after it.
tests/integration/ansible-install.log: tests/integration/debian-package.log
EXTRA_DIST += $(ansible_tests) tests/lib/ansible.sh
