#!/usr/bin/python3
"""What a command makes, renames, removes and syncs, place by place.

    file_census.py [--steps N] [--log LOG] GAMES HOME -- COMMAND [ARG ...]

Runs COMMAND under `strace -f` (file system calls and fsyncs only) and
counts, for each place, the files it made (an open with O_CREAT of a path
that was not there, temporary files included), the files left at the end
that were not there before, the files there rewritten (O_TRUNC or
O_APPEND), the folders made, the renames and hard links
onto a path there, the removals, and the fsyncs of files and of folders.
GAMES is a game or a folder of games (with work trees or bare), HOME the
$ESTAFETTE_HOME the command runs with: both are listed before the command
runs, so that a path opened with O_CREAT is only counted as made if it was
not already there. The places: a game's work tree (outside its git
folder); in its git folder, objects (loose and packs), refs (with their
reflogs, packed-refs and .lock files), the index, the game's lock
(estafette.lock), estafette's other files there, and the rest; under
HOME, the outbox and the hidden state (games/); anything else. With
--steps N every figure is divided by N (the steps the command resolves).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# A path argument with the folder it is relative to when strace -y names one:
# AT_FDCWD</cwd>, "path" or "path" alone.
PATH_ARG = re.compile(r'(?:(?:AT_FDCWD|\d+)<([^>]*)>, )?"((?:[^"\\]|\\.)*)"')
CALL = re.compile(r'^(\d+) +(\w+)\((.*)\) += (-?\d+)')
FD_PATH = re.compile(r'^\d+<([^>]*)>')
FIELDS = ("made", "left", "rewrote", "dirs", "renamed", "removed", "fsync", "dirsync")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=1)
    ap.add_argument("--log", help="keep strace's log here")
    ap.add_argument("games")
    ap.add_argument("home")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    if args.command[:1] == ["--"]:
        args.command = args.command[1:]
    if not args.command or args.steps < 1:
        ap.error("give a command after --, and --steps at least 1")
    return args


def listing(roots):
    """Every file and folder under roots, as absolute paths."""
    files, dirs = set(), set()
    for root in roots:
        for top, subdirs, names in os.walk(root):
            dirs.add(top)
            dirs.update(os.path.join(top, d) for d in subdirs)
            files.update(os.path.join(top, n) for n in names)
    return files, dirs


class Places:
    def __init__(self, games, home):
        self.games, self.home = games, home

    def git_part(self, rel):
        """The path inside its git folder, or None in a work tree."""
        parts = rel.split(os.sep)
        if os.path.isdir(os.path.join(self.games, "objects")):
            return parts  # GAMES is a bare repository
        for i, p in enumerate(parts[:-1]):
            if p == ".git" or p.endswith(".git"):
                return parts[i + 1:]
        return None

    def of(self, path):
        for name, root in (("outbox", "outbox"), ("hidden state", "games")):
            if under(path, os.path.join(self.home, root)):
                return name
        if under(path, self.home):
            return "home, other"
        if not under(path, self.games):
            return "other"
        inside = self.git_part(os.path.relpath(path, self.games))
        if inside is None:
            return "work tree"
        first = inside[0] if inside else ""
        if first == "objects":
            return "git: objects"
        if first in ("refs", "logs") or first.startswith(("packed-refs", "HEAD")):
            return "git: refs"
        if first.startswith("index"):
            return "git: index"
        if first == "estafette.lock":
            return "game lock"
        if first.startswith("estafette"):
            return "git: estafette's"
        return "git: other"


def under(path, root):
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def calls(log):
    """(pid, name, args, result) of each call, a call strace split joined."""
    pending = {}
    with open(log, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^(\d+) +(.*) <unfinished \.\.\.>$", line)
            if m:
                pending[m.group(1)] = m.group(2)
                continue
            m = re.match(r"^(\d+) +<\.\.\. \w+ resumed>(.*)$", line)
            if m:
                line = "%s %s%s" % (m.group(1), pending.pop(m.group(1), ""), m.group(2))
            m = CALL.match(line)
            if m:
                yield m.group(2), m.group(3), int(m.group(4))


def paths(args, cwd):
    out = []
    for base, p in PATH_ARG.findall(args):
        p = p.encode().decode("unicode_escape") if "\\" in p else p
        out.append(os.path.normpath(os.path.join(base or cwd, p)))
    return out


def census(log, places, files, dirs, cwd):
    before = set(files)
    counts = {}

    def count(path, field):
        c = counts.setdefault(places.of(path), dict.fromkeys(FIELDS, 0))
        c[field] += 1

    for name, args, ret in calls(log):
        if ret < 0:
            continue
        if name in ("fsync", "fdatasync"):
            m = FD_PATH.match(args)
            if m:
                p = m.group(1)
                isdir = p in dirs or (p not in files and os.path.isdir(p))
                count(p, "dirsync" if isdir else "fsync")
            continue
        ps = paths(args, cwd)
        if not ps:
            continue
        if name in ("open", "openat", "creat") and ("O_CREAT" in args or name == "creat"):
            if ps[0] not in files:
                files.add(ps[0])
                count(ps[0], "made")
            elif "O_TRUNC" in args or "O_APPEND" in args:
                count(ps[0], "rewrote")
        elif name in ("mkdir", "mkdirat"):
            dirs.add(ps[0])
            count(ps[0], "dirs")
        elif name in ("rename", "renameat", "renameat2", "link", "linkat") and len(ps) == 2:
            if name.startswith("rename"):
                files.discard(ps[0])
            files.add(ps[1])
            count(ps[1], "renamed")
        elif name in ("unlink", "unlinkat") and "AT_REMOVEDIR" not in args:
            files.discard(ps[0])
            count(ps[0], "removed")
        elif name == "rmdir" or (name == "unlinkat" and "AT_REMOVEDIR" in args):
            dirs.discard(ps[0])
    for p in files - before:
        count(p, "left")
    return counts


def table(counts, steps):
    total = {f: sum(c[f] for c in counts.values()) for f in FIELDS}
    head = ("place", "made", "left", "rewrote", "dirs", "renamed", "removed", "fsync", "dirsync",
            "made %", "syncs %")
    print("%-20s" % head[0] + "".join("%9s" % h for h in head[1:]))
    order = sorted(counts, key=lambda k: -(counts[k]["made"] + counts[k]["fsync"]))
    for place, c in [(k, counts[k]) for k in order] + [("all", total)]:
        syncs = c["fsync"] + c["dirsync"]
        alls = total["fsync"] + total["dirsync"]
        print("%-20s" % place + "".join("%9.1f" % (c[f] / steps) for f in FIELDS) +
              "%8.0f%%" % (100 * c["made"] / max(1, total["made"])) +
              "%8.0f%%" % (100 * syncs / max(1, alls)))
    if steps > 1:
        print("(each figure divided by %d steps)" % steps)


def main():
    args = parse_args()
    games, home = os.path.abspath(args.games), os.path.abspath(args.home)
    files, dirs = listing([games, home])
    log = args.log
    if not log:
        fd, log = tempfile.mkstemp(prefix="file_census.", suffix=".log")
        os.close(fd)
    try:
        rc = subprocess.run(["strace", "-f", "-y", "-o", log, "-e",
                             "trace=%file,fsync,fdatasync,syncfs",
                             *args.command], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL).returncode
        if rc != 0:
            print("file_census: the command exited with %d" % rc, file=sys.stderr)
            return 1
        table(census(log, Places(games, home), files, dirs, os.getcwd()), args.steps)
    finally:
        if not args.log:
            os.remove(log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
