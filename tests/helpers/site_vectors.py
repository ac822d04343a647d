#!/usr/bin/python3
"""The fragment of tests/helpers/site_vectors.html: vectors and signatures to check.

    site_vectors.py PROTOCOL.md WORKDIR

Prints the URL-encoded JSON the page reads from its fragment: the v1 and v2
test vectors as docs/protocol.md prints them (read from the document, so the
page checks the browser's code against the document itself), and SSHSIG
signatures that ssh-keygen makes in WORKDIR with fresh Ed25519, ECDSA P-256
and RSA keys, each with the verdict it must get: good ones, and bad ones (the
message changed, another namespace, another key, a key line without the
estafette-orders namespace).
"""

import base64
import json
import os
import re
import subprocess
import sys
import urllib.parse

HEX = r"([0-9a-f]{64})"


class Refused(Exception):
    pass


def find(text, pattern, what):
    m = re.search(pattern, text)
    if not m:
        raise Refused("docs/protocol.md: no %s in the vector (pattern %s)" % (what, pattern))
    return m.group(1)


def bytes_literal(text, after, what):
    """The '...' byte string the document gives after `after`, with \\n read as a newline."""
    return find(text, re.escape(after) + r"\s+'([^']*)'", what).replace("\\n", "\n")


def rolls(text):
    m = re.search(r"twelve d6:\s*([\d ]+?),\s*then six d10:\s*([\d ]+)", text)
    if not m:
        raise Refused("docs/protocol.md: no \"twelve d6: ..., then six d10: ...\" line")
    return [int(x) for x in m.group(1).split()], [int(x) for x in m.group(2).split()]


def section(doc, heading):
    parts = re.split(r"^#+ ", doc, flags=re.M)
    for p in parts:
        if p.startswith(heading):
            return p
    raise Refused("docs/protocol.md: no section \"%s\"" % heading)


def common(text, name):
    d6, d10 = rolls(text)
    return {"name": name,
            "secret_text": find(text, r'S = SHA-256\("([^"]*)"\)', "S"),
            "S": find(text, r"S = SHA-256\([^)]*\) = " + HEX, "S"),
            "N": int(find(text, r"N = (\d+)", "N")),
            "tip": find(text, r"tip = " + HEX, "tip"),
            "r_1": find(text, r"r_1 = " + HEX, "r_1"),
            "game": find(text, r'game id "([^"]*)"', "game id"),
            "seed_1": find(text, r"seed_1 = " + HEX, "seed_1"),
            "block_0": find(text, r"block_0 = " + HEX, "block_0"),
            "d6": d6, "d10": d10}


def vectors(path):
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    t1, t2 = section(doc, "Normative test vector (v1)"), section(doc, "Test vector (v2)")
    v1 = common(t1, "v1")
    v1["manifest_bytes"] = bytes_literal(t1, "manifest.json the bytes", "manifest bytes")
    v1["manifest_sha256"] = find(t1, r"SHA-256 " + HEX, "manifest SHA-256")
    v2 = common(t2, "v2")
    v2["state_bytes"] = bytes_literal(t2, "the state resolved is the bytes", "state bytes")
    v2["prev"] = find(t2, r"prev = " + HEX, "prev")
    v2["order_bytes"] = bytes_literal(t2, "whose order file is the bytes", "order bytes")
    v2["order_sha256"] = find(t2, r"SHA-256 " + HEX, "order SHA-256")
    v2["hidden_seed"] = find(t2, r"hidden-step\"\):\s*" + HEX, "hidden seed")
    return v1, v2


def run(*argv):
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def keygen(work, name, *options):
    path = os.path.join(work, name)
    run("ssh-keygen", "-q", "-N", "", "-C", name, "-f", path, *options)
    with open(path + ".pub") as f:
        kind, blob = f.read().split()[:2]
    return path, "%s %s" % (kind, blob)


def sign(work, key, message, namespace="estafette-orders", *options):
    path = os.path.join(work, "message-%d" % len(os.listdir(work)))
    with open(path, "wb") as f:
        f.write(message)
    run("ssh-keygen", "-Y", "sign", "-f", key, "-n", namespace, *options, path)
    with open(path + ".sig") as f:
        return f.read()


def case(name, key_line, message, sig, expect, namespaces="estafette-orders"):
    return {"name": name, "principal": "player", "signers": 'player namespaces="%s" %s\n' % (namespaces, key_line),
            "message": base64.b64encode(message).decode(), "sig": sig, "expect": expect}


def signatures(work):
    os.makedirs(work, exist_ok=True)
    ed, ed_line = keygen(work, "ed25519", "-t", "ed25519")
    other, other_line = keygen(work, "other", "-t", "ed25519")
    ec, ec_line = keygen(work, "ecdsa", "-t", "ecdsa", "-b", "256")
    rsa, rsa_line = keygen(work, "rsa", "-t", "rsa", "-b", "3072")
    msg = b'{"estafette":"orders/1","game":"demo","step":1,"player":"player"}\n'
    changed = msg.replace(b"1", b"2", 1)
    out = [case("ed25519", ed_line, msg, sign(work, ed, msg), "good"),
           case("ed25519 sha256", ed_line, msg, sign(work, ed, msg, "estafette-orders", "-O", "hashalg=sha256"),
                "good"),
           case("ed25519, message changed", ed_line, changed, sign(work, ed, msg), "bad"),
           case("ed25519, namespace estafette-gm", ed_line, msg, sign(work, ed, msg, "estafette-gm"), "bad"),
           case("ed25519, another key", other_line, msg, sign(work, ed, msg), "bad"),
           case("ed25519, key line without the namespace", ed_line, msg, sign(work, ed, msg), "bad",
                "estafette-gm,git")]
    # Eight ECDSA signatures: r or s with its high bit set (an mpint with a leading 0) is all but sure.
    for i in range(8):
        m = msg + b" " * i
        out.append(case("ecdsa-sha2-nistp256 #%d" % i, ec_line, m, sign(work, ec, m), "good"))
    out.append(case("ecdsa-sha2-nistp256, message changed", ec_line, changed, sign(work, ec, msg), "bad"))
    out.append(case("rsa-sha2-512 (3072 bits)", rsa_line, msg, sign(work, rsa, msg), "good"))
    out.append(case("rsa-sha2-512, message changed", rsa_line, changed, sign(work, rsa, msg), "bad"))
    return out


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    try:
        v1, v2 = vectors(argv[1])
    except (OSError, Refused) as e:
        sys.stderr.write("site_vectors: %s\n" % e)
        return 1
    doc = {"v1": v1, "v2": v2, "signatures": signatures(argv[2])}
    print(urllib.parse.quote(json.dumps(doc, separators=(",", ":")), safe=""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
