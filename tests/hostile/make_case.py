#!/usr/bin/python3
"""Build one hostile input for tests/integration/hostile_input.sh.

    make_case.py order KIND GOOD.json > OUT         an order file made hostile
    make_case.py orders GOOD.json DIR               every order KIND, as DIR/KIND.json
    make_case.py mail KIND --order F --sig F.sig [--from ADDR] > OUT.eml
    make_case.py big PATH MEGABYTES                 a file of that size (spaces)

Each KIND below says what it builds. Order kinds start from a good order
file (as make_order.py writes it) and change its bytes; the caller signs the
result again when the case needs a good signature over bad content.
"""
import base64
import json
import sys

GM = "GM <gm@example.org>"
FRANCE = "France player <france@example.org>"


def good(path):
    with open(path, "rb") as f:
        return f.read()


def field(data, name, raw):
    """The order with field NAME's value replaced by the raw JSON text RAW."""
    d = json.loads(data)
    text = b"{"
    parts = []
    for k, v in d.items():
        value = raw if k == name else json.dumps(v).encode()
        parts.append(json.dumps(k).encode() + b": " + value)
    if name not in d:
        parts.append(json.dumps(name).encode() + b": " + raw)
    return text + b", ".join(parts) + b"}\n"


def without(data, name):
    d = json.loads(data)
    del d[name]
    return json.dumps(d).encode() + b"\n"


def press(data, raw_text):
    """The order with a press message whose text is the raw bytes RAW_TEXT."""
    return field(data, "press", b'[{"to": "all", "text": "' + raw_text + b'"}]')


ORDER_KINDS = {
    # structure and encoding
    "dup-key": lambda d: d.replace(b'"seq": 1,', b'"seq": 1, "seq": 2,'),
    "dup-key-nested": lambda d: field(d, "orders", b'[{"type": "pass", "type": "move"}]'),
    "deep-array": lambda d: field(d, "orders", b"[" * 20000 + b"]" * 20000),
    "deep-object": lambda d: field(d, "orders", b"[" + b'{"a": ' * 40 + b"1" + b"}" * 40 + b"]"),
    "deep-100000": lambda d: b"[" * 100000 + b"]" * 100000,
    "deep-unclosed": lambda d: b'{"orders": ' + b"[" * 30000,
    "non-utf8": lambda d: press(d, b"caf\xe9"),
    "overlong-slash": lambda d: press(d, b"a\xc0\xafb"),
    "overlong-nul": lambda d: press(d, b"a\xc0\x80b"),
    "overlong-3byte": lambda d: press(d, b"a\xe0\x80\xafb"),
    "surrogate-utf8": lambda d: press(d, b"a\xed\xa0\x80b"),
    "past-unicode": lambda d: press(d, b"a\xf4\x90\x80\x80b"),
    "lone-surrogate-escape": lambda d: press(d, b"a\\ud800b"),
    "nul-raw": lambda d: press(d, b"a\x00b"),
    "nul-escaped": lambda d: press(d, b"a\\u0000b"),
    "nul-after": lambda d: d + b"\x00",
    "bom": lambda d: b"\xef\xbb\xbf" + d,
    "utf16": lambda d: d.decode().encode("utf-16"),
    "trailing-garbage": lambda d: d + b"{}",
    "trailing-comma": lambda d: d.rstrip()[:-1] + b", }\n",
    "comment": lambda d: b"// orders\n" + d,
    "single-quotes": lambda d: d.replace(b'"seq"', b"'seq'"),
    "nan": lambda d: field(d, "seq", b"NaN"),
    "top-array": lambda d: b"[" + d + b"]",
    "top-string": lambda d: b'"orders"',
    "top-null": lambda d: b"null",
    "empty": lambda d: b"",
    "whitespace": lambda d: b" \n\t\n",
    # numbers
    "seq-2p53": lambda d: field(d, "seq", b"9007199254740993"),
    "seq-2p63": lambda d: field(d, "seq", b"9223372036854775808"),
    "seq-huge": lambda d: field(d, "seq", b"1" + b"0" * 400),
    "step-2p53": lambda d: field(d, "step", b"9007199254740993"),
    "order-int-2p53": lambda d: field(d, "orders", b'[{"type": "move", "from": "France", "to": "Rhineland", "armies": 9007199254740993}]'),
    "seq-float": lambda d: field(d, "seq", b"1.0"),
    "seq-exp": lambda d: field(d, "seq", b"1e0"),
    "step-float": lambda d: field(d, "step", b"2.5"),
    "armies-float": lambda d: field(d, "orders", b'[{"type": "move", "from": "France", "to": "Rhineland", "armies": 4.0}]'),
    "seq-zero": lambda d: field(d, "seq", b"0"),
    "seq-negative": lambda d: field(d, "seq", b"-1"),
    "step-zero": lambda d: field(d, "step", b"0"),
    "step-negative": lambda d: field(d, "step", b"-2"),
    "step-2p32": lambda d: field(d, "step", b"4294967296"),
    # wrong types, one per field
    "type-estafette": lambda d: field(d, "estafette", b"1"),
    "type-game": lambda d: field(d, "game", b"5"),
    "type-step": lambda d: field(d, "step", b'"2"'),
    "type-player": lambda d: field(d, "player", b"null"),
    "type-prev": lambda d: field(d, "prev", b"[]"),
    "type-seq": lambda d: field(d, "seq", b"true"),
    "type-entropy": lambda d: field(d, "entropy", b"{}"),
    "type-orders": lambda d: field(d, "orders", b"{}"),
    "type-press": lambda d: field(d, "press", b'"hello"'),
    "type-wait": lambda d: field(d, "wait", b"1"),
    "type-order-item": lambda d: field(d, "orders", b'["move"]'),
    "type-order-type": lambda d: field(d, "orders", b'[{"type": 7}]'),
    "type-press-to": lambda d: field(d, "press", b'[{"to": 5, "text": "x"}]'),
    "type-press-text": lambda d: field(d, "press", b'[{"to": "all", "text": ["x"]}]'),
    "bad-version": lambda d: field(d, "estafette", b'"orders/2"'),
    "bad-entropy": lambda d: field(d, "entropy", b'"zz"'),
    "weak-entropy": lambda d: field(d, "entropy", b'"' + b"0" * 64 + b'"'),
    "bad-prev": lambda d: field(d, "prev", b'"00"'),
    "upper-prev": lambda d: field(d, "prev", json.dumps(json.loads(d)["prev"].upper()).encode()),
    # missing and unknown fields
    "missing-estafette": lambda d: without(d, "estafette"),
    "missing-game": lambda d: without(d, "game"),
    "missing-step": lambda d: without(d, "step"),
    "missing-player": lambda d: without(d, "player"),
    "missing-prev": lambda d: without(d, "prev"),
    "missing-seq": lambda d: without(d, "seq"),
    "missing-entropy": lambda d: without(d, "entropy"),
    "missing-orders": lambda d: without(d, "orders"),
    "unknown-field": lambda d: field(d, "admin", b"true"),
    "unknown-order-field": lambda d: field(d, "orders", b'[{"type": "move", "from": "France", "to": "Rhineland", "armies": 1, "sudo": true}]'),
    "unknown-order-type": lambda d: field(d, "orders", b'[{"type": "win-the-game"}]'),
    # player ids
    "player-dotdot": lambda d: field(d, "player", b'"../allies"'),
    "player-slash": lambda d: field(d, "player", b'"a/b"'),
    "player-abs": lambda d: field(d, "player", b'"/etc/passwd"'),
    "player-newline": lambda d: field(d, "player", b'"fr\\nance"'),
    "player-escape": lambda d: field(d, "player", b'"fr\\u001b[31mance"'),
    "player-empty": lambda d: field(d, "player", b'""'),
    "player-long": lambda d: field(d, "player", b'"' + b"a" * 300 + b'"'),
    "player-unknown": lambda d: field(d, "player", b'"prussia"'),
    "game-dotdot": lambda d: field(d, "game", b'"../ne-h"'),
    "press-to-stranger": lambda d: field(d, "press", b'[{"to": ["prussia"], "text": "x"}]'),
    "press-huge-text": lambda d: field(d, "press", b'[{"to": "all", "text": "' + b"x" * 70000 + b'"}]'),
    "orders-many": lambda d: field(d, "orders", b"[" + b",".join([b'{"type": "discard", "card": 1}'] * 1500) + b"]"),
}


def header_words(text):
    """RFC 2047 encoded-word: how a header smuggles bytes such as CR and LF."""
    return "=?utf-8?b?" + base64.b64encode(text.encode()).decode() + "?="


def mime(parts_text, boundary):
    out = []
    for p in parts_text:
        out.append("--" + boundary + "\r\n" + p)
    out.append("--" + boundary + "--\r\n")
    return "".join(out)


def attach(data, name, ctype="application/json", cte="base64", disp_name=None):
    body = base64.encodebytes(data).decode().replace("\n", "\r\n") if cte == "base64" else data.decode("latin-1")
    disp = disp_name if disp_name is not None else '"%s"' % name
    return ("Content-Type: %s; name=%s\r\nContent-Transfer-Encoding: %s\r\n"
            "Content-Disposition: attachment; filename=%s\r\n\r\n%s\r\n" % (ctype, disp, cte, disp, body))


def text(body, charset="utf-8", cte="8bit"):
    return "Content-Type: text/plain; charset=%s\r\nContent-Transfer-Encoding: %s\r\n\r\n%s\r\n" % (charset, cte, body)


def message(sender, subject, body_headers_and_body, extra=""):
    return ("From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: Sun, 29 Nov 2026 12:00:00 +0000\r\n"
            "Message-ID: <hostile-%s@example.org>\r\nMIME-Version: 1.0\r\n%s%s"
            % (sender, GM, subject, abs(hash(body_headers_and_body)) % 10**12, extra, body_headers_and_body))


def multipart(parts, sub="mixed", boundary="b0"):
    return 'Content-Type: multipart/%s; boundary="%s"\r\n\r\n%s' % (sub, boundary, mime(parts, boundary))


def mail(kind, order, sig, sender, older, older_sig):
    o, s = good(order), good(sig)
    pair = [attach(o, "orders.json"), attach(s, "orders.json.sig", "application/octet-stream")]
    std = multipart([text("My orders.")] + pair)
    if kind == "attachments":
        return message(sender, "Orders", std)
    if kind == "from-name-crlf":
        return message('"%s" <france@example.org>' % header_words("France\r\nBcc: victim@example.net"), "Orders", std)
    if kind == "from-name-raw-cr":
        return message("France\rBcc: victim@example.net <france@example.org>", "Orders", std)
    if kind == "subject-crlf":
        return message(sender, header_words("Orders\r\nBcc: victim@example.net\r\n\r\nInjected body"), std)
    if kind == "subject-escape":
        return message(sender, header_words("Orders \x1b]0;pwned\x07 \x1b[2J"), std)
    if kind == "from-two-addresses":
        return message(sender + ", Allied player <allies@example.org>", "Orders", std)
    if kind == "from-missing":
        m = message(sender, "Orders", std)
        return m.replace("From: %s\r\n" % sender, "", 1)
    if kind == "from-garbage":
        return message("<<<@@@>>>", "Orders", std)
    if kind == "reply-to-hijack":
        return message(sender, "Orders", std, "Reply-To: victim@example.net\r\n")
    if kind == "nested-100":
        inner = multipart([text("My orders.")] + pair, boundary="b100")
        for i in range(99, 0, -1):
            inner = multipart([inner.replace("\r\n\r\n", "\r\n\r\n", 1)], boundary="b%d" % i)
        return message(sender, "Orders", inner)
    if kind == "nested-1000":
        inner = multipart([text("My orders.")] + pair, boundary="c1000")
        for i in range(999, 0, -1):
            inner = multipart([inner], boundary="c%d" % i)
        return message(sender, "Orders", inner)
    if kind == "rfc822-nested-60":
        inner = message(sender, "Orders", std)
        for i in range(60):
            inner = message(sender, "Fwd", multipart(["Content-Type: message/rfc822\r\n\r\n" + inner], boundary="f%d" % i))
        return inner
    if kind == "big-attachment":
        blob = b"x" * (50 << 20)
        return message(sender, "Orders", multipart([text("My orders.")] + pair + [attach(blob, "big.bin", "application/octet-stream")]))
    if kind == "big-order-attachment":
        blob = o[:-2] + b" " * (50 << 20) + b"}\n"
        return message(sender, "Orders", multipart([text("My orders."), attach(blob, "orders.json"), pair[1]]))
    if kind == "many-parts":
        return message(sender, "Orders", multipart([text("p%d" % i) for i in range(5000)] + pair))
    if kind in ("name-dotdot", "name-abs", "name-nul", "name-dotdot-2231", "name-backslash", "name-ctl"):
        names = {"name-dotdot": '"../../../orders/allies.json"', "name-abs": '"/etc/passwd"',
                 "name-nul": '"orders.json\x00.txt"', "name-backslash": '"..\\\\..\\\\orders.json"',
                 "name-ctl": '"orders\x1b[2J.json"'}
        if kind == "name-dotdot-2231":
            o_disp = "*=utf-8''..%2F..%2Fkeys%2Fallowed_signers"
            s_disp = "*=utf-8''..%2F..%2Fkeys%2Fallowed_signers.sig"
            body = ("Content-Type: application/json\r\nContent-Transfer-Encoding: base64\r\n"
                    "Content-Disposition: attachment; filename%s\r\n\r\n%s\r\n" % (o_disp, base64.encodebytes(o).decode()),
                    "Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n"
                    "Content-Disposition: attachment; filename%s\r\n\r\n%s\r\n" % (s_disp, base64.encodebytes(s).decode()))
            return message(sender, "Orders", multipart([text("My orders."), *body]))
        n = names[kind]
        sn = n[:-1] + '.sig"'
        return message(sender, "Orders", multipart([text("My orders."), attach(o, None, disp_name=n),
                                                     attach(s, None, "application/octet-stream", disp_name=sn)]))
    if kind == "bad-base64":
        bad = base64.encodebytes(o).decode()
        bad = "!!!" + bad[3:10] + "@@@\r\n====\r\n" + bad[10:]
        return message(sender, "Orders", multipart([text("My orders."),
            "Content-Type: application/json; name=orders.json\r\nContent-Transfer-Encoding: base64\r\n"
            "Content-Disposition: attachment; filename=orders.json\r\n\r\n" + bad + "\r\n", pair[1]]))
    if kind == "bad-qp":
        body = o.decode().replace('"', "=2").replace("{", "=ZZ") + "=\r\n=4"
        return message(sender, "Orders", multipart([text(body + "\r\n" + s.decode(), cte="quoted-printable")]))
    if kind == "bad-cte":
        return message(sender, "Orders", multipart([text(o.decode() + s.decode(), cte="x-uuencode-ish")]))
    if kind == "unknown-charset":
        return message(sender, "Orders", multipart([text(o.decode() + s.decode(), charset="x-klingon")]))
    if kind == "charset-utf7":
        return message(sender, "Orders", multipart([text("+AHsAIg-" + s.decode(), charset="utf-7")]))
    if kind == "subject-bad-charset":
        return message(sender, "=?x-klingon?q?Orders=0D=0ABcc:_v@example.net?=", std)
    if kind == "forged-from":
        return message("Allied player <allies@example.org>", "Orders", std)
    if kind == "stranger":
        return message("Mallory <mallory@example.net>", "Orders", std)
    if kind == "no-orders":
        return message(sender, "Hello", multipart([text("Just saying hello, no orders here.")]))
    if kind == "two-orders":
        o2, s2 = good(older), good(older_sig)
        return message(sender, "Orders", multipart([text("Both."), pair[0], pair[1],
                                                     attach(o2, "orders2.json"), attach(s2, "orders2.json.sig", "application/octet-stream")]))
    if kind == "sig-only":
        return message(sender, "Orders", multipart([text("My signature."), pair[1]]))
    if kind == "order-only":
        return message(sender, "Orders", multipart([text("My orders."), pair[0]]))
    if kind == "boundary-missing":
        return message(sender, "Orders", 'Content-Type: multipart/mixed\r\n\r\n' + mime([text("x")] + pair, "b0"))
    if kind == "boundary-unterminated":
        return message(sender, "Orders", 'Content-Type: multipart/mixed; boundary="b0"\r\n\r\n--b0\r\n' + pair[0])
    if kind == "header-only":
        return "From: %s\r\nSubject: Orders\r\n" % sender
    if kind == "long-header":
        return message(sender, "Orders " + "x" * (1 << 20), std)
    if kind == "many-headers":
        return message(sender, "Orders", std, "".join("X-H%d: v\r\n" % i for i in range(100000)))
    if kind == "binary-junk":
        return None
    raise SystemExit("make_case.py: no mail kind " + kind)


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    what, kind = sys.argv[1], sys.argv[2]
    out = sys.stdout.buffer
    if what == "order":
        if kind not in ORDER_KINDS:
            raise SystemExit("make_case.py: no order kind " + kind)
        out.write(ORDER_KINDS[kind](good(sys.argv[3])))
    elif what == "orders":
        data = good(kind)
        for name, make in ORDER_KINDS.items():
            with open("%s/%s.json" % (sys.argv[3], name), "wb") as f:
                f.write(make(data))
    elif what == "mail":
        import argparse
        p = argparse.ArgumentParser()
        p.add_argument("--order", required=True)
        p.add_argument("--sig", required=True)
        p.add_argument("--from", dest="sender", default=FRANCE)
        p.add_argument("--older")
        p.add_argument("--older-sig")
        a = p.parse_args(sys.argv[3:])
        if kind == "binary-junk":
            out.write(bytes(range(256)) * 64)
            return
        m = mail(kind, a.order, a.sig, a.sender, a.older, a.older_sig)
        out.write(m.encode("utf-8", "surrogateescape"))
    elif what == "big":
        with open(kind, "wb") as f:
            f.truncate(0)
            chunk = b" " * (1 << 20)
            for _ in range(int(sys.argv[3])):
                f.write(chunk)
    else:
        raise SystemExit(__doc__)


main()
