#!/usr/bin/python3
"""Tampers with the data files of a game's site (docs/site.md), and reads the verdict.

For tests/integration/site_browser.sh: copies of a site made by `estafette
site`, each changed in one place, on which the page's verifier must name the
step (and roll) that no longer agrees. (tests/integration/site.sh checks that
the data files hold the committed bytes.)

    site_data.py roll FILE INDEX
        In the step data file FILE, add 1 (wrapping at the die's sides) to the
        value of roll INDEX (1 = the first) of its dice.json; prints the step
        and the roll's purpose, the old and the new value ("7 PURPOSE|5|6").

    site_data.py byte FILE PATH
        Flip one bit of the middle byte of the file PATH in the data file FILE.

    site_data.py reveal FILE
        Change the chain value ("reveal") of the dice.json in the step data file
        FILE: the chain link to the step before no longer holds.

    site_data.py hidden FILE INDEX
        As roll, for hidden roll INDEX of the step's revealed record
        (revealed/NNNN/hidden-dice.json, in a revealed game's data file).

    site_data.py ghost FILE
        In the step data file FILE (a dice v2 game), add a player "ghost" whom
        the step did not await to its manifest's "missing" and its dice.json's
        inputs, as a GM varying the seed would; prints the step.

    site_data.py verdict DUMP
        From the DOM headless Chromium dumped (--dump-dom) of a page that ran
        the verifier: the <output id="verify-result">'s data attributes (without
        "data-") and its text (as "text"), as one JSON object.

Exit status: 0, or 1 with a message naming the file on a mismatch or bad input.
"""

import base64
import html.parser
import json
import re
import sys

JSONP = re.compile(r"\AestafetteData\((.*)\);\s*\Z", re.S)


class Refused(Exception):
    pass


def b64(data):
    return base64.b64encode(data).decode("ascii")


def write_data(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        f.write("estafetteData(%s);\n" % json.dumps(doc, separators=(",", ":")))


def read_data(path):
    with open(path, encoding="utf-8") as f:
        match = JSONP.match(f.read())
    if not match:
        raise Refused("%s: not estafetteData({...});" % path)
    return json.loads(match.group(1))


def edit_json(path, suffix, change):
    """Apply change() to the JSON file of the data file whose path ends with suffix; print what it says."""
    doc = read_data(path)
    name = next((p for p in doc["files"] if p.endswith(suffix)), None)
    if name is None:
        raise Refused("%s: no file *%s" % (path, suffix))
    dice = json.loads(base64.b64decode(doc["files"][name]))
    said = change(dice)
    doc["files"][name] = b64((json.dumps(dice, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode())
    write_data(path, doc)
    print(said)


def roll(path, index, suffix="/dice.json"):
    def change(dice):
        if not 1 <= index <= len(dice["rolls"]):
            raise Refused("%s: no roll %d (%d rolls)" % (path, index, len(dice["rolls"])))
        r = dice["rolls"][index - 1]
        old = r["value"]
        r["value"] = old % r["sides"] + 1
        return "%d %s|%d|%d" % (dice["step"], r["purpose"], old, r["value"])
    edit_json(path, suffix, change)


def reveal(path):
    def change(dice):
        old = dice["reveal"]
        dice["reveal"] = ("0" if old[0] != "0" else "1") + old[1:]
        return "%d %s" % (dice["step"], dice["reveal"])
    edit_json(path, "/dice.json", change)


def ghost(path):
    doc = read_data(path)
    for suffix, change in (("/manifest.json", lambda m: m.setdefault("missing", []).append({"player": "ghost"})),
                           ("/dice.json", lambda d: d["inputs"]["awaited"].append({"player": "ghost", "sha256": None}))):
        name = next((p for p in doc["files"] if p.endswith(suffix)), None)
        if name is None:
            raise Refused("%s: no file *%s" % (path, suffix))
        value = json.loads(base64.b64decode(doc["files"][name]))
        change(value)
        doc["files"][name] = b64((json.dumps(value, indent=2, sort_keys=True) + "\n").encode())
    write_data(path, doc)
    print(doc["step"])


def flip(path, name):
    doc = read_data(path)
    if name not in doc["files"]:
        raise Refused("%s: no file %s" % (path, name))
    data = bytearray(base64.b64decode(doc["files"][name]))
    data[len(data) // 2] ^= 1
    doc["files"][name] = b64(bytes(data))
    write_data(path, doc)


class Verdict(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.found, self.inside = None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "output" and attrs.get("id") == "verify-result":
            self.found = {k[5:]: v for k, v in attrs.items() if k.startswith("data-")}
            self.found["text"] = ""
            self.inside = True

    def handle_endtag(self, tag):
        if tag == "output":
            self.inside = False

    def handle_data(self, data):
        if self.inside:
            self.found["text"] += data


def verdict(path):
    parser = Verdict()
    with open(path, encoding="utf-8") as f:
        parser.feed(f.read())
    if parser.found is None:
        raise Refused("%s: no <output id=\"verify-result\">" % path)
    print(json.dumps(parser.found))


def main(argv):
    try:
        if len(argv) == 4 and argv[1] == "roll":
            roll(argv[2], int(argv[3]))
        elif len(argv) == 4 and argv[1] == "byte":
            flip(argv[2], argv[3])
        elif len(argv) == 3 and argv[1] == "reveal":
            reveal(argv[2])
        elif len(argv) == 3 and argv[1] == "ghost":
            ghost(argv[2])
        elif len(argv) == 4 and argv[1] == "hidden":
            roll(argv[2], int(argv[3]), "/hidden-dice.json")
        elif len(argv) == 3 and argv[1] == "verdict":
            verdict(argv[2])
        else:
            sys.stderr.write(__doc__)
            return 2
    except Refused as e:
        sys.stderr.write("site_data: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
