#!/usr/bin/python3
"""Check, in strace logs, that every step was durable before anything named it.

    durability_order.py TRACE...

Each TRACE is one process's `strace -f -y -o TRACE -e trace=fsync,fdatasync,
syncfs,rename,renameat,renameat2,link,linkat,mkdir,mkdirat` log (paths
absolute). A file put in place by rename or link is durable once all hold:
its content was fsynced (under its own or an earlier name), its folder was
fsynced after it got the name, and each folder above it that the process
made was named durably (its parent fsynced after the mkdir); or a syncfs
came after them (the test runs on one file system). The checks:
  - when refs/heads/main moves, every pack, loose object and hidden record
    put in place before is durable (a step's objects and dice secrets
    before the ref that names them), and so is every message put in an
    outbox (a step's reports before a later step makes it not the latest,
    the one a run queues again);
  - when a message is put in an outbox's pending/, every main and tag
    moved before is durable (no report of a step a power cut can lose),
    and its own content is (a message is whole or missing, never torn);
  - a game made in a staging folder ("DIR.new-PID", which nothing names
    until it is renamed to DIR) is checked when it is renamed: every
    object, hidden record and ref under it is durable by then;
  - at the end of the trace, every main and tag moved, every message put
    and every message moved to sent/ is durable.
Prints what it counted; exits 1 naming the first file not durable in time.
"""
import os
import re
import sys

CALL = re.compile(r'^\d+\s+(\w+)\((.*)\)\s+=\s+(-?\d+)')
FD = re.compile(r'^(?:-?\d+|AT_FDCWD)<([^>]*)>')
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
OBJECTS = re.compile(r'/objects/(pack/pack-[0-9a-f]+\.(pack|idx)|[0-9a-f]{2}/[0-9a-f]{38})$')
HIDDEN = re.compile(r'/hidden/[^/]+\.json$')
REF = re.compile(r'/\.git/refs/(heads/main|tags/[^/]+)$')
OUTBOX = re.compile(r'/outbox/[^/]+/pending/[^/]+$')
MAIL = re.compile(r'/outbox/[^/]+/(pending|sent)/[^/]+$')
STAGED = re.compile(r'\.new-\d+$')


def paths(args):
    """The path arguments of a rename or link call, made absolute by their dirfds."""
    out, base = [], None
    for part in re.split(r',\s+(?=(?:[^"]*"[^"]*")*[^"]*$)', args):
        fd = FD.match(part)
        s = STRING.match(part)
        if fd:
            base = fd.group(1)
        elif s:
            p = s.group(1)
            if not p.startswith('/') and base:
                p = os.path.join(base, p)
            out.append(os.path.normpath(p))
    return out


def check(trace):
    content = {}   # path -> its data is on disk
    named = {}     # path put in place -> its folder entry is on disk
    counts = {'main moves': 0, 'outbox puts': 0, 'syncfs': 0, 'fsync': 0}
    made = {}      # folder made by mkdir -> its entry in its parent is on disk

    def durable(p):
        up = [a for a in made if p.startswith(a + '/')]
        return content.get(p, False) and named.get(p, True) and all(made[a] for a in up)

    def require(pattern, why, line, under=''):
        for p in named:
            if p.startswith(under) and pattern.search(p) and not durable(p):
                sys.exit('%s: %s, but %s is not durable yet (line: %s)' % (trace, why, p, line.strip()))

    for line in open(trace, errors='replace'):
        m = CALL.match(line)
        if not m or int(m.group(3)) < 0:
            continue
        call, args = m.group(1), m.group(2)
        if call in ('fsync', 'fdatasync'):
            counts['fsync'] += 1
            fd = FD.match(args)
            if fd:
                p = os.path.normpath(fd.group(1))
                content[p] = True
                for d in (named, made):
                    for q in d:
                        if os.path.dirname(q) == p:
                            d[q] = True
        elif call == 'syncfs':
            counts['syncfs'] += 1
            for q in named:
                named[q] = True
            for q in content:
                content[q] = True
            for q in made:
                made[q] = True
        elif call in ('mkdir', 'mkdirat'):
            made[paths(args)[0]] = False
        elif call in ('rename', 'renameat', 'renameat2', 'link', 'linkat'):
            src, dst = paths(args)[:2]
            if STAGED.search(src):
                for pattern in (OBJECTS, HIDDEN, REF):
                    require(pattern, 'the new game is moved into place', line, src + '/')
            staged = any(STAGED.search(a) for a in dst.split('/'))
            if REF.search(dst) and dst.endswith('/refs/heads/main') and not staged:
                counts['main moves'] += 1
                require(OBJECTS, 'main moves', line)
                require(HIDDEN, 'main moves', line)
                require(OUTBOX, 'main moves', line)
            if OUTBOX.search(dst):
                counts['outbox puts'] += 1
                require(REF, 'a message is queued', line)
                if not content.get(src, False):
                    sys.exit('%s: %s is put in the outbox before its content is durable (line: %s)'
                             % (trace, dst, line.strip()))
            # A message another process queued was checked in that process's trace.
            content[dst] = content.get(src, OUTBOX.search(src) is not None and src not in named)
            named[dst] = False
    require(REF, 'the process ends', '(exit)')
    require(MAIL, 'the process ends', '(exit)')
    return counts


total = {}
for t in sys.argv[1:]:
    for k, v in check(t).items():
        total[k] = total.get(k, 0) + v
print(' '.join('%s %d' % kv for kv in sorted(total.items())))
