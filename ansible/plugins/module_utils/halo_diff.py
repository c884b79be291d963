# -*- coding: utf-8 -*-
# Copyright: halo-provision developers
# GNU General Public License v2.0 or later (see https://www.gnu.org/licenses/gpl-2.0.txt)

"""Ansible's diff of a halo-provision run, made from the run's items.

halo-provision reports a file it changes (or would change) as a unified
diff with three lines of context. Ansible shows a file best as its whole
text before and after, so the text the diff does not carry is read from
the file under the root (the side of the change that is on disk now) and
the diff is applied to it, forwards or backwards. When that cannot be
done exactly (the file moved on since the run, cannot be read, or is not
text) the unified diff itself is shown. Every other item that drifted,
changed or waits for a reboot becomes one prepared line:
"link/rdma0/mtu: 1500 -> 9000".
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import re
import stat

# Owned files are small; a bigger one is shown as the program's diff.
READ_LIMIT = 1 << 20

SHOWN = ('changed', 'drift', 'pending-reboot')

_HUNK = re.compile(r'^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@')


def _header_path(text, prefix):
    """The path of a '--- a/PATH' or '+++ b/PATH' header; None for /dev/null."""
    text = text.rstrip('\n')
    if text == '/dev/null':
        return None
    if not text.startswith(prefix):
        raise ValueError('not a halo-provision diff header: %r' % text)
    return '/' + text[len(prefix):]


def parse_unified(text):
    """(old path, new path, hunks) of a unified diff, or None.

    A hunk is (old start, new start, body); its body is a list of
    (tag, line) with tag ' ', '-' or '+' and the line as in the file,
    newline included unless the diff says it has none.
    """
    lines = text.splitlines(True)
    if len(lines) < 3 or not lines[0].startswith('--- ') or not lines[1].startswith('+++ '):
        return None
    try:
        old = _header_path(lines[0][4:], 'a/')
        new = _header_path(lines[1][4:], 'b/')
    except ValueError:
        return None
    hunks = []
    for line in lines[2:]:
        match = _HUNK.match(line)
        if match:
            hunks.append((int(match.group(1)), int(match.group(3)), []))
            continue
        if not hunks:
            return None
        body = hunks[-1][2]
        if line.startswith('\\'):
            # "\ No newline at end of file": the line before has none.
            if not body:
                return None
            tag, content = body[-1]
            body[-1] = (tag, content[:-1] if content.endswith('\n') else content)
            continue
        if line[:1] not in (' ', '-', '+'):
            return None
        body.append((line[:1], line[1:]))
    if not hunks or (old is None and new is None):
        return None
    return old, new, hunks


def apply_hunks(base, hunks, reverse=False):
    """BASE with HUNKS applied (backwards with REVERSE), or None when a
    context or removed line does not match BASE."""
    src = base.splitlines(True)
    drop, add = ('+', '-') if reverse else ('-', '+')
    out = []
    pos = 0
    for old_start, new_start, body in hunks:
        start = new_start if reverse else old_start
        taken = sum(1 for tag, dummy in body if tag != add)
        # A hunk that takes no line inserts after line START.
        at = start if taken == 0 else start - 1
        if at < pos or at > len(src):
            return None
        out.extend(src[pos:at])
        pos = at
        for tag, content in body:
            if tag == add:
                out.append(content)
                continue
            if pos >= len(src) or src[pos] != content:
                return None
            if tag == ' ':
                out.append(content)
            pos += 1
    out.extend(src[pos:])
    return ''.join(out)


def read_under_root(root, path, limit=READ_LIMIT):
    """The text of PATH inside ROOT, or None. Every component is opened
    without following a symlink, so nothing outside ROOT is read."""
    parts = [part for part in path.split('/') if part]
    if not parts or any(part in ('.', '..') for part in parts):
        return None
    dir_flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        dir_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        for part in parts[:-1]:
            next_fd = os.open(part, dir_flags, dir_fd=dir_fd)
            os.close(dir_fd)
            dir_fd = next_fd
        fd = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK |
                     os.O_NOCTTY | os.O_CLOEXEC, dir_fd=dir_fd)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
                return None
            chunks = []
            size = 0
            while True:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                size += len(chunk)
                if size > limit:
                    return None
                chunks.append(chunk)
        finally:
            os.close(fd)
        return b''.join(chunks).decode('utf-8')
    except (OSError, UnicodeDecodeError):
        return None
    finally:
        os.close(dir_fd)


def file_entry(item, root):
    """Ansible's before/after entry for a file item with a diff, or the
    diff itself as a prepared entry when the texts cannot be rebuilt."""
    text = item['diff']
    prepared = {'prepared': text if text.endswith('\n') else text + '\n'}
    parsed = parse_unified(text)
    if parsed is None:
        return prepared
    old, new, hunks = parsed
    path = new or old
    if old is None:
        before, after = '', apply_hunks('', hunks)
    elif new is None:
        before, after = apply_hunks('', hunks, reverse=True), ''
    elif item.get('changed'):
        # Written by this run: the file holds the new text.
        after = read_under_root(root, path)
        before = None if after is None else apply_hunks(after, hunks, reverse=True)
    else:
        before = read_under_root(root, path)
        after = None if before is None else apply_hunks(before, hunks)
    if before is None or after is None:
        return prepared
    return {'before_header': path, 'after_header': path, 'before': before, 'after': after}


def _shown(value):
    if value is None:
        return '(absent)'
    return value.replace('\n', '\\n')


def item_line(item):
    """One line for an item that is not a file diff: what it was and what
    it is for a change, what it is and what it should be otherwise, with
    the item's message and note."""
    outcome = item.get('outcome')
    if outcome == 'changed':
        line = '%s: %s -> %s' % (item['key'], _shown(item.get('was')), _shown(item.get('observed')))
    else:
        line = '%s: %s -> %s' % (item['key'], _shown(item.get('observed')), _shown(item.get('wanted')))
    remarks = '; '.join(text for text in (item.get('message'), item.get('note')) if text)
    if outcome == 'pending-reboot':
        line += ' (pending reboot: %s)' % remarks if remarks else ' (pending reboot)'
    elif remarks:
        line += ' (%s)' % remarks
    return line + '\n'


def run_diff(items, root):
    """Ansible's diff list for a run: one entry per item that changed,
    drifted or waits for a reboot, in the run's order."""
    entries = []
    for item in items:
        if item.get('outcome') not in SHOWN:
            continue
        if item.get('diff'):
            entries.append(file_entry(item, root))
        else:
            entries.append({'prepared': item_line(item)})
    return entries
