#!/usr/bin/python3
"""Check what players received from a real SMTP server against the game.

    check_mailbox.py MAILBOX GAME_REPO [CARDS_JSON]

MAILBOX holds NNNN.eml files as tests/helpers/smtpd.py stores them (the
messages of other games are skipped). For every resolved step and every
player of game.json, exactly one message must have arrived, addressed to
that player, and its text must show nothing private to another power as of
that step (state.json at tag step-NNNN): none of the cards in its hand
(CARDS_JSON names them, Napoleonic Empire), none of its standing orders
("at PROVINCE, 5.612 step N", La Guerre de l'Empereur). Prints a
summary; exits 1 naming the first message that breaks a rule. Each report must
read back with Python's email parser under its strict policy as a text
part whose lines are at most 78 columns wide (display width: East Asian
wide characters count two), an HTML part and, where the game has a map, a
map.svg attachment that is well-formed SVG and the map as an inline PNG the
HTML names by cid:. A report with an order file attached
(orders-NNNN-PLAYER.json) says how to send orders; one without does not.
"""
import email
import email.policy
import json
import pathlib
import re
import subprocess
import sys
import unicodedata
import xml.etree.ElementTree as ET

COLUMNS = 78


def width(line):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1
               for c in line)


def git_json(repo, rev, path):
    out = subprocess.run(["git", "-C", repo, "cat-file", "blob", f"{rev}:{path}"],
                         check=True, capture_output=True).stdout
    return json.loads(out)


def text_of(msg):
    for part in msg.walk():
        if part.get_content_type() == "text/plain":
            return part.get_content()
    return ""


def check_parts(path, msg):
    """A report reads back as text, HTML and, where the game has a map, an SVG that parses."""
    types = [p.get_content_type() for p in msg.walk()]
    for t in ("text/plain", "text/html"):
        if t not in types:
            sys.exit(f"{path}: no {t} part (parts: {types})")
    for part in msg.walk():
        if part.get_content_type() == "image/svg+xml":
            if part.get_filename() != "map.svg":
                sys.exit(f"{path}: the map is named {part.get_filename()!r}")
            root = ET.fromstring(part.get_content())
            if not root.tag.endswith("svg"):
                sys.exit(f"{path}: map.svg is not an SVG document")
    for n, line in enumerate(text_of(msg).splitlines(), 1):
        if width(line) > COLUMNS:
            sys.exit(f"{path}: text line {n} is {width(line)} columns wide, over {COLUMNS}: {line!r}")
    html = msg.get_body(("html",)).get_content()
    pngs = [p for p in msg.walk() if p.get_content_type() == "image/png"]
    if "image/svg+xml" in types:
        if len(pngs) != 1 or f'src="cid:{pngs[0]["Content-ID"].strip("<>")}"' not in html:
            sys.exit(f"{path}: the map is not inline as a PNG the HTML names by cid:")
        if pngs[0].get_content()[:8] != b"\x89PNG\r\n\x1a\n":
            sys.exit(f"{path}: the inline map is not a PNG")
    orders = [p.get_filename() for p in msg.iter_attachments() if (p.get_filename() or "").startswith("orders-")]
    if bool(orders) != ("HOW TO SEND ORDERS" in text_of(msg)):
        sys.exit(f"{path}: order file attached {orders} but the text {'lacks' if orders else 'has'} "
                 "HOW TO SEND ORDERS")
    return "image/svg+xml" in types


def main():
    mailbox, repo = sys.argv[1:3]
    cards = json.loads(pathlib.Path(sys.argv[3]).read_text())["cards"] if len(sys.argv) > 3 else []
    names = {c["id"]: c["name"] for c in cards}
    game = git_json(repo, "main", "game.json")
    steps = [t for t in subprocess.run(["git", "-C", repo, "tag", "--list", "step-*"],
                                       check=True, capture_output=True, text=True).stdout.split()
             if t != "step-0000"]
    got, maps = {}, 0
    for path in sorted(pathlib.Path(mailbox).glob("*.eml")):
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.strict)
        # <RANDOM.GAME.NAME@HOST> (docs/mail.md): keyed by GAME.NAME.
        m = re.fullmatch(r"<[0-9a-f]{32}\.([A-Za-z0-9._-]+)@[a-z0-9.-]+>", msg["Message-ID"].strip())
        if not m:
            sys.exit(f"{path}: Message-ID {msg['Message-ID']} is not <RANDOM.GAME.NAME@HOST>")
        key = m.group(1)
        if not key.startswith(f"{game['id']}."):
            continue
        if key in got:
            sys.exit(f"{path}: {key} arrived twice")
        got[key] = (path, msg)
    for tag in steps:
        n = tag.split("-")[1]
        state = git_json(repo, tag, "state.json")["state"]
        hands = state.get("hands", {})
        standing = state.get("standing", {}) if isinstance(state.get("standing"), dict) else {}
        for player in game["players"]:
            key = f"{game['id']}.{n}-{player['id']}"
            if key not in got:
                sys.exit(f"no message {key} for {player['id']} at {tag}")
            path, msg = got[key]
            if player["email"] not in msg["To"]:
                sys.exit(f"{path}: To is {msg['To']}, expected {player['email']}")
            maps += check_parts(path, msg)
            text = text_of(msg)
            for power, hand in hands.items():
                if power in player["powers"]:
                    continue
                for card in hand:
                    if names.get(card, card) in text:
                        sys.exit(f"{path}: {player['id']} sees {names.get(card, card)!r}, "
                                 f"a card in {power}'s hand at {tag}")
            for power, orders in standing.items():
                if power in player["powers"] or not isinstance(orders, list):
                    continue
                for o in orders:
                    if f"at {o['at']}, 5.612 step {o['step']}" in text:
                        sys.exit(f"{path}: {player['id']} sees {power}'s standing order for "
                                 f"{o['at']}, step {o['step']}, at {tag}")
    print(f"check_mailbox: {len(got)} messages, one per player per step, nothing private to another power shown, "
          f"{maps} maps parsed and inline as PNG, every text line within {COLUMNS} columns")


main()
