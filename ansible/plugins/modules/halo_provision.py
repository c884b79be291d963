# -*- coding: utf-8 -*-
# The documentation of the halo.provision.halo_provision module, for
# ansible-doc only: the module itself is the halo-provision binary, which
# `make install` links next to this file as plugins/modules/halo_provision
# (Ansible runs the extensionless file, ansible-doc reads this one).
# GNU General Public License v2.0 or later (see COPYING or
# https://www.gnu.org/licenses/gpl-2.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
---
module: halo_provision
short_description: Converge a RoCE v2 cluster node to a halo-provision config
version_added: 0.1.0
description:
  - Runs C(halo-provision) as an Ansible binary module on the node, for the kernel
    command line (GRUB, grub.d drop-in, BLS), driver modules, link MTU and
    addresses, RoCE (PFC, DSCP trust, ECN, RoCE v2 on E810), RDMA (rdma_cm
    ToS and mode, GID index, the RCCL/NCCL env file), the files it owns
    (udev, firewall, memlock, sysctl, NetworkManager, mount units) and the
    model store.
  - Every setting is an item with an outcome; the module reports C(changed)
    when an item was (or, in check mode, would be) changed, and
    C(reboot_required) when a kernel parameter or a driver option is
    configured but not yet active.
  - The config is validated before anything is touched, whether it comes
    from a file (I(config)), inline text (I(config_text)) or a dictionary
    (I(config_data)). Loosely typed values (C(9000) as a number or a string,
    an unset value as C("")) are validated like the config file's, with the
    same messages; a bad config fails the task and changes nothing.
  - The same program is the command C(halo-provision) on the node; see
    halo-provision(8) and halo-provision.conf(5).
author:
  - halo-provision authors
options:
  config:
    description:
      - Path of the config file on the node, as given (not inside I(root)).
      - Without I(config), I(config_text) and I(config_data), the config is
        C(/etc/halo-provision/halo.conf) inside I(root).
      - The file must not be writable by group or others.
      - Mutually exclusive with I(config_text) and I(config_data).
    type: path
  config_text:
    description:
      - The config itself, in the config file's syntax (halo-provision.conf(5)).
      - Useful in check mode, before the config file is installed.
      - Mutually exclusive with I(config) and I(config_data).
    type: str
  config_data:
    description:
      - The config as a dictionary with the config file's sections and keys
        (C(boot), C(modules), C(interfaces), C(firewall), C(access),
        C(storage), C(state)).
      - Mutually exclusive with I(config) and I(config_text).
    type: dict
  only:
    description:
      - Limit the run to these subsystems.
      - A list or a comma-separated string.
    type: list
    elements: str
    choices: [boot, modules, links, roce, rdma, files, storage, ready]
  root:
    description:
      - Act on the tree under this directory; every file read or written,
        C(/proc) and C(/sys) included, is resolved inside it (image builds,
        sandboxes). The module never escapes it.
    type: path
    default: /
  netns:
    description:
      - Do all netlink work inside this network namespace
        (C(/run/netns/NAME)).
    type: str
  kernel_release:
    description:
      - The kernel whose modules and boot entries to manage.
      - Default is the running kernel.
    type: str
  revert:
    description:
      - Remove what halo-provision owns and undo its edits instead of
        converging.
      - With check mode, show what would be removed.
    type: bool
    default: false
  interface:
    description:
      - Limit link, RoCE and RDMA items to this interface (what the hotplug
        unit does).
    type: str
  wait:
    description:
      - How many seconds to wait for another run's lock before failing.
    type: int
attributes:
  check_mode:
    support: full
    description: Observes every item and reports what an apply would change; changes nothing.
  diff_mode:
    support: full
    description: Returns the before and after text of every file it would change or changes.
  platform:
    platforms: posix
    description: Linux only (netlink, sysfs, libkmod).
notes:
  - This is a binary module. Ansible copies the controller's
    C(halo-provision) to the node, so controller and nodes must share the
    architecture and the node needs the program's shared libraries
    (installing the halo-provision package on the node provides them).
  - The exit status of the program is not used; the JSON it prints carries
    C(changed) and C(failed) explicitly.
  - The role M(halo.provision.node) installs the config, runs this module,
    reboots the nodes that need it one at a time and checks that both ends
    of every cable agree (C(halo-provision --cluster)).
seealso:
  - name: halo-provision(8)
    description: The command line, exit codes, items and outcomes.
    link: https://example.invalid/halo-provision/man8
requirements:
  - halo-provision's shared libraries on the node (libkmod, libnl-3,
    libnl-route-3, libmnl, libblkid, libconfig, json-c)
'''

EXAMPLES = r'''
- name: Converge the node to its installed config
  halo.provision.halo_provision:
  register: halo

- name: Converge from inline text, network part only
  halo.provision.halo_provision:
    config_text: |
      version = 1;
      interfaces = ( { name = "rdma0"; mtu = 9000;
                       addresses = [ "192.168.100.1/30" ]; } );
    only: links,roce,rdma

- name: Converge from a dictionary
  halo.provision.halo_provision:
    config_data:
      version: 1
      interfaces:
        - name: rdma0
          mtu: "9000"
          addresses: ["192.168.100.2/30"]

- name: Reboot when a kernel parameter waits for one
  ansible.builtin.reboot:
  when: halo.reboot_required

- name: Provision an image tree (no live network)
  halo.provision.halo_provision:
    config: /srv/images/node/etc/halo-provision/halo.conf
    root: /srv/images/node
    kernel_release: 6.12.48+deb12-amd64
    only: boot,modules,files

- name: Remove everything halo-provision made
  halo.provision.halo_provision:
    revert: true
'''

RETURN = r'''
changed:
  description: An item was changed (in check mode, would be).
  returned: always
  type: bool
  sample: true
failed:
  description: A config error or a failed item; always present, C(false) on success.
  returned: always
  type: bool
  sample: false
msg:
  description: One line for people; the config error (file:line or item) when the config is bad.
  returned: always
  type: str
  sample: "12 items: 3 changed, 1 pending-reboot"
rc:
  description:
    - The exit status the command line would have had, a bitmask; 0 in
      sync, 1 usage or config error (nothing changed), +2 changed or
      drift, +4 an item failed, +8 a reboot or driver reload is needed.
  returned: always
  type: int
  sample: 10
reboot_required:
  description:
    - A reboot (or driver reload) is needed before the node matches the
      config. An apply also creates C(/run/reboot-required) inside I(root).
  returned: always
  type: bool
  sample: true
items:
  description: Every item of the run, as in C(halo-provision --json).
  returned: always
  type: list
  elements: dict
  contains:
    key:
      description: The item's stable key.
      type: str
      sample: link/rdma0/mtu
    subsystem:
      description: The subsystem that owns the item.
      type: str
      sample: links
    outcome:
      description: One of C(ok), C(changed), C(drift), C(pending-reboot), C(unsupported), C(failed).
      type: str
      sample: changed
    changed:
      description: This run changed the item.
      type: bool
    wanted:
      description: The value the config wants (null when it wants the item absent).
      type: str
      sample: "9000"
    observed:
      description: The value observed at the end of the run.
      type: str
      sample: "9000"
    was:
      description: The value before the change; null unless the item changed.
      type: str
      sample: "1500"
    message:
      description: Why an item failed, is unsupported or waits for a reboot; null otherwise.
      type: str
    diff:
      description: The item's unified diff when it is a file; null otherwise.
      type: str
diff:
  description:
    - The changes, in Ansible's diff form (shown by C(--diff)) - one entry
      per file with its text before and after, and a prepared unified diff
      for any other item that has one.
  returned: in diff mode
  type: list
  elements: dict
  contains:
    prepared:
      description: A unified diff, for an item that is not a whole file.
      type: str
    before_header:
      description: The file's path, before.
      type: str
      sample: /etc/default/grub.d/zz-halo-provision.cfg
    after_header:
      description: The file's path, after.
      type: str
      sample: /etc/default/grub.d/zz-halo-provision.cfg
    before:
      description: The file's content before (empty for a new file).
      type: str
    after:
      description: The file's content after (empty for a removed file).
      type: str
summary:
  description: The run's summary line, as the command line prints it last.
  returned: success
  type: str
  sample: "apply: 12 items, 3 changed, 1 pending-reboot"
mode:
  description: The run's mode, C(apply) or C(dry-run) (check mode).
  returned: success
  type: str
  sample: apply
revert:
  description: The run was a revert.
  returned: success
  type: bool
  sample: false
config_digest:
  description: SHA-256 (hex) of the config, as in the state file (what C(halo-provision --cluster) compares).
  returned: success
  type: str
errors:
  description: Every config or usage error, one line each (I(msg) holds the first).
  returned: on a config or usage error
  type: list
  elements: str
  sample: ["config_data.interfaces[0].mtu: expected an integer, got \"9000x\""]
warnings:
  description: Things the operator should know that are not failures (e.g. GTT above ROCm's ceiling).
  returned: always
  type: list
  elements: str
  sample: []
'''
