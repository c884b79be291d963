#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: halo-provision developers
# GNU General Public License v2.0 or later (see https://www.gnu.org/licenses/gpl-2.0.txt)

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: halo_provision
short_description: Converge a RoCE v2 cluster node to a halo-provision config
version_added: 0.1.0
description:
  - Runs the node's own C(halo-provision) program (the halo-provision
    package's, see I(executable)) with C(--json), for the kernel command
    line (GRUB, grub.d drop-in, BLS), driver modules, link MTU and
    addresses, RoCE (PFC, DSCP trust, ECN, RoCE v2 on E810), RDMA (rdma_cm
    ToS and mode, GID index, the RCCL/NCCL env file), the files it owns
    (udev, firewall, memlock, sysctl, NetworkManager, mount units) and the
    model store. Any controller drives any node, whatever their
    distributions and architectures.
  - Every setting is an item with an outcome; the module reports C(changed)
    when an item was (or, in check mode, would be) changed, and
    C(reboot_required) when a kernel parameter or a driver option is
    configured but not yet active.
  - >-
    Check mode runs C(halo-provision --dry-run). Diff mode returns each
    file's text before and after, and one line for every other item that
    changed, drifted or waits for a reboot (C(link/rdma0/mtu: 1500 -> 9000)).
  - The config is validated before anything is touched, whether it comes
    from a file (I(config)), inline text (I(config_text)) or a dictionary
    (I(config_data)). A bad config fails the task and changes nothing.
  - See halo-provision(8) and halo-provision.conf(5) on the node.
author:
  - halo-provision developers (!UNKNOWN)
options:
  executable:
    description:
      - The halo-provision program on the node, an absolute path.
      - When it is missing the task fails and names the package to install
        (the role M(halo.provision.node) can install it).
    type: path
    default: /usr/sbin/halo-provision
  config:
    description:
      - Path of the config file on the node, as given (not inside I(root)),
        absolute.
      - Without I(config), I(config_text) and I(config_data), the config is
        C(/etc/halo-provision/halo.conf) inside I(root).
      - The file must not be writable by group or others.
      - Mutually exclusive with I(config_text) and I(config_data).
    type: path
  config_text:
    description:
      - The config itself, in the config file's syntax (halo-provision.conf(5)).
        Errors name it C(config_text:LINE).
      - Useful in check mode, before the config file is installed.
      - Mutually exclusive with I(config) and I(config_data).
    type: str
  config_data:
    description:
      - The config as a dictionary with the config file's sections and keys
        (C(version), C(boot), C(modules), C(interfaces), C(firewall),
        C(access), C(storage), C(state)).
      - Values may be typed loosely, as YAML and templates make them
        (C(9000) or C("9000"), C(true) or C("yes")); a member that is C("")
        or null is left out. Errors name the member's path
        (C(config_data), then C(interfaces[0].mtu) and the problem).
      - halo-provision reads a config given as data through its args-file
        mode (C(halo-provision ARGS_FILE)), which the module uses for it.
      - Mutually exclusive with I(config) and I(config_text).
    type: dict
  only:
    description:
      - Limit the run to these subsystems, a list or a comma-separated
        string of C(boot), C(modules), C(links), C(roce), C(rdma), C(files),
        C(storage), C(ready). Leave it out to run every subsystem but
        C(ready), which runs only when named; an empty list or string
        fails the task.
    type: list
    elements: str
  root:
    description:
      - Act on the tree under this directory, an absolute path; every file
        read or written, C(/proc) and C(/sys) included, is resolved inside
        it (image builds, sandboxes). The module never escapes it.
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
      - Quote it in YAML (C("6.10")), which would read 6.10 as the number 6.1;
        a number fails the task.
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
      - How many seconds (0 to 86400) to wait for another run's lock before
        failing.
    type: int
attributes:
  check_mode:
    support: full
    description: Observes every item and reports what an apply would change; changes nothing.
  diff_mode:
    support: full
    description:
      - Returns the text before and after of every file it would change or
        changes, and a line for every other item that changed, drifted or
        waits for a reboot.
  platform:
    support: full
    platforms: posix
    description: Linux nodes (netlink, sysfs, kernel modules).
notes:
  - Every option is checked before the program runs; an empty value, a
    value of the wrong type (a number or a list where a string is meant)
    and an unknown subsystem in I(only) fail the task.
  - The exit status of the program is not used; the JSON it prints carries
    C(changed) and C(failed) explicitly.
  - The role M(halo.provision.node) installs the package and the config,
    runs this module, reboots the nodes that need it one at a time and
    checks that both ends of every cable agree (C(halo-provision --cluster)).
seealso:
  - name: halo-provision(8)
    description: The command line, exit codes, items and outcomes.
    link: https://example.invalid/halo-provision/man8
requirements:
  - The halo-provision package on the node (it installs I(executable)).
  - Python 3 on the node.
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

- name: Use a halo-provision installed from source
  halo.provision.halo_provision:
    executable: /usr/local/sbin/halo-provision

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
  description: A config error, a bad option or a failed item; C(false) on success.
  returned: always
  type: bool
  sample: false
msg:
  description:
    - >-
      One line for people. The summary line on success; the first failed
      item (C(KEY: message)) when an item failed; the first error (file:line,
      or the option) when the config or an option is bad.
  returned: always
  type: str
  sample: "apply: 12 items, 3 changed, 1 pending-reboot"
rc:
  description:
    - The program's exit status, a bitmask; 0 in sync, 1 usage or config
      error (nothing changed; also a bad option or a missing program), +2
      changed or drift, +4 an item failed (or a signal killed the program
      after its answer), +8 a reboot or driver reload is needed.
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
    interface:
      description: The C(interfaces) entry a link, RoCE or RDMA item configures; absent on other items.
      type: str
      sample: rdma0
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
      description: One line about the item's last observation or its failure (why it differs, why a knob is unsupported, what to reload); null otherwise.
      type: str
    note:
      description: One line about the item itself or this run's change to it (how a file takes effect, a link flap); null otherwise.
      type: str
    diff:
      description: The item's unified diff when it is a file; null otherwise.
      type: str
diff:
  description:
    - >-
      The changes, in Ansible's diff form (shown by C(--diff)), in the
      run's order. A file has its text before and after; when that text
      cannot be rebuilt exactly (the file changed since), its unified diff
      is the entry's I(prepared). Every other item that changed, drifted or
      waits for a reboot has one line, C(KEY: BEFORE -> AFTER), with
      C((absent)) for a value that does not exist and the item's message
      and note in parentheses.
  returned: in diff mode
  type: list
  elements: dict
  sample:
    - prepared: "link/rdma0/mtu: 1500 -> 9000\n"
  contains:
    prepared:
      description: A line for an item that is not a file, or a file's unified diff.
      type: str
      sample: "link/rdma0/mtu: 1500 -> 9000\n"
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
  description: SHA-256 (hex) of the config, as in the state file.
  returned: success
  type: str
node:
  description:
    - The node's facts as this run observed them (host name, per managed
      interface its name, configured and live MTU, addresses and RoCE
      settings, the boot facts), the C(node) member of the program's
      C(--json) document, which C(halo-provision --cluster) compares
      between nodes. The role M(halo.provision.node) hands them to
      C(--cluster) in check mode, when no state file is written.
  returned: success, in a run of every subsystem (without I(only), I(interface), I(revert) and I(config_data))
  type: dict
errors:
  description: Every config, option or usage error, one line each (I(msg) holds the first).
  returned: on a config or usage error
  type: list
  elements: str
  sample: ["config_data: interfaces[0].mtu: expected an integer, got the string \"9000x\""]
warnings:
  description: Things the operator should know that are not failures (e.g. GTT above ROCm's ceiling).
  returned: always
  type: list
  elements: str
  sample: []
'''

import json
import os
import signal

from ansible.module_utils.basic import AnsibleModule, _load_params
from ansible_collections.halo.provision.plugins.module_utils.halo_diff import run_diff

SUBSYSTEMS = ('boot', 'modules', 'links', 'roce', 'rdma', 'files', 'storage', 'ready')
PACKAGE = 'halo-provision'
STRING_OPTIONS = ('executable', 'config', 'config_text', 'root', 'netns', 'kernel_release', 'interface')
ABSOLUTE_OPTIONS = ('executable', 'config', 'root')
WAIT_MAX = 86400

ARGUMENT_SPEC = dict(
    executable=dict(type='path', default='/usr/sbin/halo-provision'),
    config=dict(type='path'),
    config_text=dict(type='str'),
    config_data=dict(type='dict'),
    only=dict(type='list', elements='str'),
    root=dict(type='path', default='/'),
    netns=dict(type='str'),
    kernel_release=dict(type='str'),
    revert=dict(type='bool', default=False),
    interface=dict(type='str'),
    wait=dict(type='int'),
)


# bool before int: True is an int to isinstance.
TYPE_NAMES = ((bool, 'a boolean'), (int, 'an integer'), (float, 'a float'), (dict, 'a dictionary'),
              (list, 'a list'), (str, 'a string'))


def type_name(value):
    for kind, name in TYPE_NAMES:
        if isinstance(value, kind):
            return name
    return 'a %s' % type(value).__name__


def option_errors(raw, params):
    """What is wrong with the options, one message each. RAW are the
    options as the task gave them: Ansible's own checks turn a number or a
    list into a string where one is meant, which is never what was meant
    here (YAML reads a kernel release 6.10 as 6.1)."""
    errors = []
    for name in STRING_OPTIONS:
        value = raw.get(name)
        if value is None:
            continue
        if not isinstance(value, str):
            errors.append('%s: expected a string, got %s' % (name, type_name(value)))
        elif value == '':
            errors.append('%s: empty (leave it out for the default)' % name)
        elif '\0' in value:
            errors.append('%s: NUL byte in the value' % name)
        elif name in ABSOLUTE_OPTIONS and not params[name].startswith('/'):
            errors.append('%s: %r is not an absolute path' % (name, value))
    data = raw.get('config_data')
    if data is not None:
        if not isinstance(data, dict):
            errors.append('config_data: expected a dictionary, got %s' % type_name(data))
        elif not data:
            errors.append('config_data: empty (give at least its version)')
    wait = raw.get('wait')
    if wait is not None:
        if isinstance(wait, bool) or not isinstance(wait, (int, str)):
            errors.append('wait: expected whole seconds, got %s' % type_name(wait))
        elif not 0 <= params['wait'] <= WAIT_MAX:
            errors.append('wait: %d is not within 0 to %d seconds' % (params['wait'], WAIT_MAX))
    only = raw.get('only')
    if only is not None:
        known = ', '.join(SUBSYSTEMS)
        names = params['only'] or []
        if not isinstance(only, (str, list)):
            errors.append('only: expected a list or a comma-separated string, got %s' % type_name(only))
        elif not [name for name in names if name.strip()]:
            errors.append('only: empty: give one or more of %s (leave it out for every subsystem)' % known)
        else:
            for name in names:
                if not isinstance(name, str) or name.strip() not in SUBSYSTEMS:
                    errors.append('only: %r is not a subsystem (one of %s)' % (name, known))
    return errors


def program_error(executable):
    """Why EXECUTABLE cannot be run, or None."""
    if not os.path.lexists(executable):
        return ('%s is not installed on this node (%s does not exist): install the %s package '
                '(the halo.provision.node role does, with halo_package or halo_package_file)'
                % (PACKAGE, executable, PACKAGE))
    if not os.path.isfile(executable) or not os.access(executable, os.X_OK):
        return '%s: not an executable file' % executable
    return None


def failure(module, msg, errors):
    """The answer to a task that stops before or without a run."""
    result = dict(changed=False, rc=1, reboot_required=False, items=[], warnings=[], errors=errors)
    if module._diff:
        result['diff'] = []
    module.fail_json(msg=msg, **result)


def command_line(module, params):
    """The arguments of a run, the config aside."""
    argv = []
    if params['revert']:
        argv.append('--revert')
    if module.check_mode:
        argv.append('--dry-run')
    for option, flag in (('root', '--root'), ('netns', '--netns'), ('kernel_release', '--kernel-release'),
                         ('interface', '--interface')):
        if params[option] is not None:
            argv.append('%s=%s' % (flag, params[option]))
    if params['only'] is not None:
        argv.append('--only=%s' % ','.join(name.strip() for name in params['only']))
    if params['wait'] is not None:
        argv.append('--wait=%d' % params['wait'])
    return argv


def write_private(path, text):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, 'w') as f:
        f.write(text)


def is_list_of(value, kind):
    return isinstance(value, list) and all(isinstance(v, kind) for v in value)


def answer_error(answer):
    """What in the program's JSON answer this module cannot read (a
    program of another version, or one that misbehaved), or None."""
    if not isinstance(answer, dict):
        return 'a JSON %s, not an object' % type(answer).__name__
    items = answer.get('items') or []
    if not is_list_of(items, dict) or not all(isinstance(i.get('key'), str) for i in items):
        return 'its items are not a list of objects with a key'
    for name in ('warnings', 'errors'):
        if not is_list_of(answer.get(name) or [], str):
            return 'its %s are not a list of strings' % name
    for name in ('config', 'node'):
        if answer.get(name) is not None and not isinstance(answer[name], dict):
            return 'its %s is not an object' % name
    return None


def how_it_ended(rc):
    """'exited N', or 'was killed by SIGNAME' (run_command gives -N)."""
    if rc >= 0:
        return 'exited %d' % rc
    try:
        return 'was killed by %s' % signal.Signals(-rc).name
    except ValueError:
        return 'was killed by signal %d' % -rc


def run(module, argv, cwd):
    """The program's answer, and how it ended when a signal killed it
    (None when it exited)."""
    try:
        rc, out, err = module.run_command(argv, cwd=cwd, expand_user_and_vars=False,
                                          handle_exceptions=False)
    except OSError as e:
        # Ansible's own handling would give the errno as the exit status,
        # which the program's exit bits read as something else.
        why = '%s cannot be run: %s' % (argv[0], e.strerror or e)
        failure(module, why, [why])
    ended = how_it_ended(rc)
    try:
        answer = json.loads(out)
    except (ValueError, RecursionError):
        reason = (err.strip().splitlines() or ['no output' if not out.strip() else 'not JSON'])[0]
        failure(module, '%s %s without a JSON answer: %s' % (argv[0], ended, reason),
                ['%s: %s' % (argv[0], reason)])
    why = answer_error(answer)
    if why:
        why = '%s %s with an answer this module cannot read: %s' % (argv[0], ended, why)
        failure(module, why, [why])
    return answer, (ended if rc < 0 else None)


def killed_after_answer(result, program, ended):
    """A run killed once its answer was out: the answer is kept, as what
    the run had done, but the task fails with +4 (the run did not end as
    the program ends it), for a signal is never how a run ends."""
    result['failed'] = True
    result['rc'] = (result.get('rc') if isinstance(result.get('rc'), int) else 1) | 4
    what = result.get('msg') or 'no summary'
    result['msg'] = '%s %s after its answer (%s)' % (program, ended, what)


def from_json_document(doc, revert):
    """The module's answer from a `halo-provision --json` document."""
    result = dict(changed=bool(doc.get('changed')), failed=bool(doc.get('failed')),
                  rc=doc.get('exit_code', 1), reboot_required=bool(doc.get('reboot_required')),
                  msg=doc.get('msg') or '', items=doc.get('items') or [],
                  warnings=doc.get('warnings') or [])
    if 'errors' in doc:
        # Stopped before any item: a usage or config error, or the host
        # (the run lock, an output that cannot be written).
        result['errors'] = doc['errors']
        return result
    result.update(summary=doc.get('msg'), mode=doc.get('mode'), revert=revert,
                  config_digest=(doc.get('config') or {}).get('digest'))
    if isinstance(doc.get('node'), dict):
        result['node'] = doc['node']
    for item in result['items']:
        if item.get('outcome') == 'failed':
            result['msg'] = '%s: %s' % (item.get('key'), item.get('message') or 'failed')
            break
    return result


def from_args_file_answer(answer):
    """The module's answer from the program's args-file mode (config_data)."""
    result = dict(answer)
    result.pop('diff', None)
    result.setdefault('items', [])
    result.setdefault('warnings', [])
    return result


def main():
    module = AnsibleModule(
        argument_spec=ARGUMENT_SPEC,
        mutually_exclusive=[('config', 'config_text', 'config_data')],
        supports_check_mode=True,
    )
    params = module.params
    errors = option_errors(_load_params(), params)
    if errors:
        failure(module, errors[0], errors)
    executable = params['executable']
    why = program_error(executable)
    if why:
        failure(module, why, [why])

    workdir = module.tmpdir
    if params['config_data'] is not None:
        # Only the args-file mode reads a config given as data (loosely
        # typed, errors naming the member's path).
        args = dict((name, params[name]) for name in ('root', 'netns', 'kernel_release',
                                                      'revert', 'interface', 'wait')
                    if params[name] is not None)
        if params['only'] is not None:
            args['only'] = [name.strip() for name in params['only']]
        args.update(config_data=_load_params()['config_data'],
                    _ansible_check_mode=module.check_mode, _ansible_diff=module._diff)
        args_file = os.path.join(workdir, 'args.json')
        write_private(args_file, json.dumps(args))
        answer, killed = run(module, [executable, args_file], workdir)
        result = from_args_file_answer(answer)
    else:
        argv = [executable, '--json'] + command_line(module, params)
        if params['config_text'] is not None:
            # A relative path as given: the program names the config
            # (in errors and in the state file) "config_text".
            write_private(os.path.join(workdir, 'config_text'), params['config_text'])
            argv.append('--config=config_text')
        elif params['config'] is not None:
            argv.append('--config=%s' % params['config'])
        answer, killed = run(module, argv, workdir)
        result = from_json_document(answer, params['revert'])
    if killed:
        killed_after_answer(result, executable, killed)

    if module._diff:
        result['diff'] = run_diff(result['items'], params['root'])
    if result.pop('failed'):
        msg = result.pop('msg')
        module.fail_json(msg=msg, **result)
    module.exit_json(failed=False, **result)


if __name__ == '__main__':
    main()
