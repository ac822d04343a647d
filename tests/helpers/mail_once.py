#!/usr/bin/python3
"""Mail at the SMTP server after kills, against an uninterrupted run's.

    mail_once.py REF_DIR RUN_DIR KILLS

REF_DIR and RUN_DIR hold the .eml files the loopback SMTP server received
(tests/helpers/smtpd.py) in an uninterrupted run and in a run whose
commands were killed and run again. KILLS counts the kills that fell
between the server's acceptance of a message and the outbox's record of it:
each may have sent one message twice. Checks that every message of the
reference arrived and no other; that one message travels under one
Message-ID however often it was sent; that no message came twice but for
those kills; and that every report (GAME.NNNN-PLAYER) is the reference's
byte for byte, but for the random part of its Message-ID and the MIME
boundaries made from it. Exits 1 with the reason otherwise.
"""
import collections, pathlib, re, sys
# A Message-ID is <RANDOM.GAME.NAME@HOST>, RANDOM made when the message is
# queued: messages are matched by GAME.NAME, and one name must travel under
# one id however often a kill made a command run again.
def box(folder):
    got, ids = collections.defaultdict(list), collections.defaultdict(set)
    for p in sorted(pathlib.Path(folder).glob("*.eml")):
        data = p.read_bytes()
        m = re.search(rb"^Message-ID: *<([0-9a-f]{32})\.([^@>]*)(@[^>]*)>", data, re.M | re.I)
        assert m, f"{p}: no Message-ID <RANDOM.GAME.NAME@HOST>"
        key = m.group(2).decode()
        ids[key].add(m.group(0))
        # The random part, and the MIME boundaries derived from the id, as the reference's.
        same = data.replace(m.group(1), b"R" * 32)
        seen = {}
        same = re.sub(rb"=_est_[0-9a-f]{32}",
                      lambda b: b"=_est_boundary_%d" % seen.setdefault(b.group(0), len(seen)), same)
        got[key].append(same)
    two = {k: sorted(v) for k, v in ids.items() if len(v) > 1}
    assert not two, f"{folder}: one message under two Message-IDs: {two}"
    return got
ref, run, kills = box(sys.argv[1]), box(sys.argv[2]), int(sys.argv[3])
lost = sorted(set(ref) - set(run))
extra = sorted(set(run) - set(ref))
assert not lost, f"never delivered: {lost}"
assert not extra, f"not in the uninterrupted run: {extra}"
twice = {i: len(v) for i, v in run.items() if len(v) > 1}
assert sum(n - 1 for n in twice.values()) <= kills, \
    f"delivered again after the server's acceptance was recorded: {twice} ({kills} kills after acceptance)"
for i, copies in run.items():
    if re.fullmatch(r"[^.]+\.\d{4}-(france|allies)", i):   # reports compose from the commit alone
        assert all(c == ref[i][0] for c in copies), f"report {i} differs from the uninterrupted run's"
