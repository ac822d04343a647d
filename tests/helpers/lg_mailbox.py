#!/usr/bin/python3
"""Read what a real SMTP server received for a game, run by run (for
tests/integration/lg_battle_by_mail.sh).

    lg_mailbox.py last MAILBOX
        the number of the newest NNNN.eml stored (0 if none)
    lg_mailbox.py path MAILBOX GAME.NAME
        the file of the one message of outbox name NAME of GAME, by its
        Message-ID <RANDOM.GAME.NAME@HOST> (exit 1 if none or several)
    lg_mailbox.py reply REPORT.eml < made.eml > reply.eml
        the made message turned into a reply to REPORT (In-Reply-To,
        References, "Re: " subject), as a mail client does; every other byte
        is kept, so signed text in the body stays as it was
    lg_mailbox.py receipt MAILBOX AFTER ADDR IN-REPLY-TO
        the one message newer than AFTER: a receipt to ADDR answering
        IN-REPLY-TO; prints its text
    lg_mailbox.py run MAILBOX AFTER GAME ESTAFETTE FIRST LAST
        the messages newer than AFTER are exactly one report per player of
        game.json for each step FIRST..LAST (none when FIRST > LAST), each
        the text `estafette report --step N --player P` gives; the reports
        of step LAST ask the decision `estafette status --json` awaits of
        the awaited players and only of them (see check_asks)
    lg_mailbox.py all MAILBOX GAME LAST
        the whole mailbox holds exactly one report per player per step
        1..LAST, and none for step 0

Exits 1 with the reason on stderr when a rule is broken.
"""
import email
import email.header
import email.policy
import json
import pathlib
import re
import subprocess
import sys

# Message-IDs are <RANDOM.GAME.NAME@HOST> (docs/mail.md); a report's NAME is STEP-PLAYER.
MESSAGE_ID = re.compile(r"<(?P<random>[0-9a-f]{32})\.(?P<key>[A-Za-z0-9._-]+)@(?P<host>[a-z0-9.-]+)>")
REPORT_KEY = re.compile(r"(?P<game>[^.<>]+)\.(?P<step>\d{4,})-(?P<player>[a-z0-9_-]+)")


def report_id(mid, players=None):
    """The match of a report's Message-ID, or None (an invitation, "STEP-PLAYER-join", is no
    report: with `players`, PLAYER must be one of them; without, it must not end in -join)."""
    m = MESSAGE_ID.fullmatch(mid.strip())
    r = m and REPORT_KEY.fullmatch(m["key"])
    if not r or (players is not None and r["player"] not in players) or \
            (players is None and r["player"].endswith("-join")):
        return None
    return r


def key_of(mid):
    """GAME.NAME of a Message-ID, or None when it is not of our form."""
    m = MESSAGE_ID.fullmatch(mid.strip())
    return m and m["key"]


def fail(why):
    sys.exit("lg_mailbox: " + why)


def messages(box, after=0):
    """(number, path, message) of every stored message newer than `after`;
    smtpd.py writes NNNN.json after NNNN.eml, so only complete ones count."""
    out = []
    for p in sorted(pathlib.Path(box).glob("*.eml")):
        n = int(p.stem)
        if n > after and p.with_suffix(".json").exists():
            out.append((n, p, email.message_from_bytes(p.read_bytes(), policy=email.policy.default)))
    return out


def text_of(msg):
    body = msg.get_body(("plain",))
    if body is None:
        return ""
    return body.get_content().replace("\r\n", "\n")


def git_json(game, rev, path):
    out = subprocess.run(["git", "-C", game, "cat-file", "blob", f"{rev}:{path}"],
                         check=True, capture_output=True).stdout
    return json.loads(out)


def reports_by_key(box, game_id, after):
    """{(step, player): [(path, message), ...]} of the reports of game_id newer than after;
    fails on any other message (a run sends reports only)."""
    found = {}
    for n, p, m in messages(box, after):
        mid = m["Message-ID"] or ""
        r = report_id(mid)
        if not r or r["game"] != game_id:
            fail(f"{p.name}: {mid!r} is not a report of game {game_id}")
        found.setdefault((int(r["step"]), r["player"]), []).append((p, m))
    return found


def section(text, title):
    """The lines of a report section: after the line `title`, up to a blank line."""
    lines = text.split("\n")
    if title not in lines:
        return None
    i = lines.index(title) + 1
    out = []
    while i < len(lines) and lines[i].strip():
        out.append(lines[i])
        i += 1
    return out


def decision_line(kind):
    """What a report says, in its battle section, of the decision a kind of step asks:
    5.612 steps 4, 5 and 6 are battle-step-N; a retreat is step 9."""
    m = re.fullmatch(r"battle-step-(\d)", kind)
    if m:
        return f"Awaited: 5.612 step {m[1]}: "
    if kind == "retreat":
        return "Awaited: 5.612 step 9: "
    return None


def check_asks(path, text, player, status):
    """The report to `player` names the awaited players (and only them) with
    the prompt; to an awaited player, it names the decision asked of its power."""
    awaited = {a["player"]: a for a in status["awaiting"]}
    sec = section(text, "AWAITED")
    if sec is None:
        fail(f"{path}: no AWAITED section")
    named = set(re.findall(r"\(([a-z0-9_-]+)\) for ", "\n".join(sec)))
    if named != set(awaited):
        fail(f"{path}: AWAITED names {sorted(named)}, the game awaits {sorted(awaited)}")
    # (a line over 78 columns is broken at a space, the rest indented: read them joined)
    if status["prompt"] not in " ".join(line.strip() for line in sec):
        fail(f"{path}: AWAITED does not give the prompt {status['prompt']!r}: {sec}")
    want = decision_line(status["kind"])
    if player not in awaited:
        # Not asked: its AWAITED section names another player (checked above), and
        # it is not told how to send orders.
        if section(text, "HOW TO SEND ORDERS") is not None:
            fail(f"{path}: {player} is not awaited, but the report says HOW TO SEND ORDERS")
        return
    if want:
        lines = [l for l in text.split("\n") if l.strip().startswith(want)]
        if len(lines) != 1:
            fail(f"{path}: {player} is asked {status['kind']}, but the report has "
                 f"{len(lines)} lines {want!r}")
        powers = awaited[player]["awaited_powers"]
        if not any(pw in lines[0] for pw in powers):
            fail(f"{path}: the decision {lines[0]!r} does not name {player}'s power {powers}")
    # The order file, filled in: its step and player each on a line of their own.
    how = section(text, "HOW TO SEND ORDERS") or []
    for sample in (f'"step": {status["step"]},', f'"player": "{player}",'):
        if not any(line.strip() == sample for line in how):
            fail(f"{path}: HOW TO SEND ORDERS does not show {sample}")


def cmd_run(box, after, game, estafette, first, last):
    meta = git_json(game, "main", "game.json")
    players = [p["id"] for p in meta["players"]]
    found = reports_by_key(box, meta["id"], after)
    want = {(s, p) for s in range(first, last + 1) for p in players}
    if set(found) != want:
        fail(f"reports after #{after}: got {sorted(found)}, expected {sorted(want)}")
    for key, got in sorted(found.items()):
        if len(got) != 1:
            fail(f"{len(got)} reports for step {key[0]} to {key[1]}: {[p.name for p, _ in got]}")
    status = json.loads(subprocess.run([estafette, "status", game, "--json"], check=True,
                                       capture_output=True).stdout)
    for (step, player), [(path, msg)] in sorted(found.items()):
        email_of = next(p["email"] for p in meta["players"] if p["id"] == player)
        if email_of not in str(msg["To"]):
            fail(f"{path.name}: the report to {player} went to {msg['To']}")
        text = text_of(msg)
        report = subprocess.run([estafette, "report", game, "--step", str(step), "--player", player],
                                check=True, capture_output=True, text=True).stdout
        if text != report:
            fail(f"{path.name}: the mailed text differs from `estafette report --step {step} "
                 f"--player {player}`")
        if step == last:
            check_asks(path.name, text, player, status)
    n = max([0] + [m[0] for m in messages(box, after)])
    print(max(n, after))


def cmd_receipt(box, after, addr, in_reply_to):
    new = messages(box, after)
    if len(new) != 1:
        fail(f"{len(new)} messages after #{after}, expected one receipt to {addr}")
    n, p, m = new[0]
    if addr not in str(m["To"]):
        fail(f"{p.name}: the receipt went to {m['To']}, not {addr}")
    if (m["In-Reply-To"] or "").strip("<> ") != in_reply_to.strip("<> "):
        fail(f"{p.name}: In-Reply-To {m['In-Reply-To']}, expected <{in_reply_to}>")
    if m["Auto-Submitted"] != "auto-generated":
        fail(f"{p.name}: a receipt without Auto-Submitted: auto-generated")
    sys.stdout.write(text_of(m))


def cmd_reply(report_path):
    report = email.message_from_bytes(pathlib.Path(report_path).read_bytes(),
                                      policy=email.policy.default)
    raw = sys.stdin.buffer.read()
    first = raw.find(b"\n")
    nl = b"\r\n" if first > 0 and raw[first - 1:first] == b"\r" else b"\n"
    head, sep, body = raw.partition(nl + nl)
    lines = head.split(nl)
    mid = report["Message-ID"].strip().encode()
    subject = "Re: " + str(report["Subject"])
    if not subject.isascii():
        subject = email.header.Header(subject, "utf-8").encode()
    subject = b"Subject: " + subject.encode("ascii")
    out = []
    for line in lines:
        if line.lower().startswith(b"subject:"):
            out.append(subject)
        elif line[:1] in (b" ", b"\t") and out and out[-1] is subject:
            continue  # the made subject's folded continuation
        else:
            out.append(line)
    out += [b"In-Reply-To: " + mid, b"References: " + mid]
    sys.stdout.buffer.write(nl.join(out) + sep + body)


def cmd_all(box, game, last):
    meta = git_json(game, "main", "game.json")
    players = [p["id"] for p in meta["players"]]
    found = {}
    for n, p, m in messages(box):
        r = report_id(m["Message-ID"] or "", players)
        if r and r["game"] == meta["id"]:
            found.setdefault((int(r["step"]), r["player"]), []).append(p.name)
    want = {(s, p) for s in range(1, last + 1) for p in players}
    if set(found) != want:
        fail(f"reports in all: missing {sorted(want - set(found))}, unexpected {sorted(set(found) - want)}")
    twice = {k: v for k, v in found.items() if len(v) != 1}
    if twice:
        fail(f"reports sent more than once: {twice}")
    print(f"{len(found)} reports: {len(players)} players x {last} steps, each once")


def main(argv):
    if len(argv) < 2:
        fail(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == "last" and len(args) == 1:
        print(max([0] + [m[0] for m in messages(args[0])]))
    elif cmd == "path" and len(args) == 2:
        hits = [p for _, p, m in messages(args[0]) if key_of(m["Message-ID"] or "") == args[1]]
        if len(hits) != 1:
            fail(f"{len(hits)} messages with a Message-ID <RANDOM.{args[1]}@HOST>")
        print(hits[0])
    elif cmd == "reply" and len(args) == 1:
        cmd_reply(args[0])
    elif cmd == "receipt" and len(args) == 4:
        cmd_receipt(args[0], int(args[1]), args[2], args[3])
    elif cmd == "run" and len(args) == 6:
        cmd_run(args[0], int(args[1]), args[2], args[3], int(args[4]), int(args[5]))
    elif cmd == "all" and len(args) == 3:
        cmd_all(args[0], args[1], int(args[2]))
    else:
        fail("usage: see lg_mailbox.py's docstring")


if __name__ == "__main__":
    main(sys.argv)
