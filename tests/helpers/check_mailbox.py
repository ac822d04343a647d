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
read back with Python's email parser as a text part, an HTML part and, where
the game has a map, a map.svg attachment that is well-formed SVG.
"""
import email
import email.policy
import json
import pathlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


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
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
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
          f"{maps} maps parsed")


main()
