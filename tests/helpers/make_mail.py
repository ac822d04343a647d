#!/usr/bin/python3
"""Build a mail carrying a signed order file the way a real client would.

    make_mail.py STYLE --order F --sig F.sig --from ADDR --to ADDR
                 [--older F2 --older-sig F2.sig] > msg.eml

STYLEs (each mimics one client habit):
  plain          text/plain 8bit body: the JSON, then the signature
  attachments    short body; orders.json and orders.json.sig attached
  both           the order pasted in the body and attached as well
  alternative    multipart/alternative, text/plain + HTML (Thunderbird-like)
  html-only      Outlook-like HTML only: <p> per line, &nbsp; indents, &quot;
  qp             quoted-printable with soft breaks inside the signature
  base64         base64 body
  latin1         ISO-8859-1 body (the order must hold Latin-1 characters, as UTF-8)
  bom            a UTF-8 BOM before the JSON of the attachment, CRLF in it
  crlf           CRLF everywhere, signature lines re-wrapped at 60 columns
  flowed         format=flowed, trailing-space soft breaks at 50 columns
  reply          new order in the body, the older one quoted with "> "
  reply-nested   new order, the older one quoted two levels deep (">> ")
  html-reply     Thunderbird HTML-only reply: new order in <pre>, the older one in
                 <blockquote type="cite"><pre>
  attach-paste-sig  orders.json attached, its signature pasted in the body
  attach-other-sig  france-step7.json attached with the only .sig, signature.sig
  forward        the older order forwarded as message/rfc822, new one in the body
  forward-inline the older order under a "---------- Forwarded message ---------" line
  autoreply      Auto-Submitted: auto-replied, quoting the order
  bounce         multipart/report from MAILER-DAEMON, Return-Path <>, original attached
  list           sent through a mailing list (List-Id)
  none           an ordinary mail without any order
  thunderbird, gmail, outlook, iphone
                 a player's mail without orders (--subject, --text) as that client
                 writes it: Thunderbird's format=flowed text + HTML, Gmail's
                 <div dir="ltr"> alternative, Outlook's MsoNormal HTML with
                 Thread-Topic, the iPhone's quoted-printable "Sent from my iPhone";
                 --attach FILE adds an attachment; --order and --sig are not needed
  many-pasted    every order of --order and --more pasted in the body, each with its
                 signature (FILE.sig), then --copies forged ones: --order with "seq"
                 raised and --sig pasted after it (a signature over other bytes)
  many-attached  the same, as orders-N.json and orders-N.json.sig attachments
  text-attachment orders.json attached as text/plain in 8bit, not base64: its line
                 ends are what the message's are (a CRLF file arrives with LF)
  renamed        orders.txt and signature.txt, text/plain attachments (past a filter)
  sig-attached   the order pasted in the body, its signature attached as signature.asc
  wrapped        the body hard-wrapped at 72 columns (Outlook, Gmail plain text)
  truncated      the attachments style cut off in transit, inside the signature
  gmail-orders   Gmail: multipart/alternative, the plain part hard-wrapped at 78 and
                 the HTML one in <div dir="ltr"> with <br>, in multipart/mixed with
                 both files attached as application/octet-stream
  iphone-orders  iPhone Mail: "Sent from my iPhone", format=flowed, delsp=yes, the
                 files attached inline (Content-Disposition: inline; filename=...)
  outlook-orders Outlook: CRLF, multipart/mixed around multipart/alternative (plain
                 and MsoNormal HTML), the files as application/octet-stream base64
"""
import textwrap
import argparse
import base64
import email.policy
import html
import re
import sys
from email import quoprimime
from email.message import EmailMessage, Message
from email.mime.base import MIMEBase
from email.mime.message import MIMEMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import formatdate, make_msgid

STYLES = ["plain", "attachments", "both", "alternative", "html-only", "qp", "base64",
          "latin1", "bom", "crlf", "flowed", "reply", "reply-nested", "html-reply",
          "attach-paste-sig", "attach-other-sig", "forward",
          "forward-inline", "autoreply", "bounce", "list", "none", "many-pasted",
          "many-attached", "text-attachment", "renamed", "sig-attached", "wrapped", "truncated",
          "gmail-orders", "iphone-orders", "outlook-orders", "thunderbird", "gmail", "outlook", "iphone"]
CLIENTS = ("thunderbird", "gmail", "outlook", "iphone")

p = argparse.ArgumentParser()
p.add_argument("style", choices=STYLES)
p.add_argument("--order")
p.add_argument("--sig")
p.add_argument("--subject", default="Question")
p.add_argument("--text", default="I am away next week: please hold my orders as they are.")
p.add_argument("--attach", help="a file attached (client styles)")
p.add_argument("--header", action="append", default=[], help="NAME: VALUE added (client styles)")
p.add_argument("--from", dest="sender", required=True)
p.add_argument("--to", required=True)
p.add_argument("--older")
p.add_argument("--older-sig")
p.add_argument("--more", action="append", default=[], help="another signed order (many-*)")
p.add_argument("--copies", type=int, default=0, help="forged pairs to add (many-*)")
a = p.parse_args()


def read(path):
    with open(path, "rb") as f:
        return f.read()


if a.style not in CLIENTS and not (a.order and a.sig):
    p.error(a.style + " needs --order and --sig")
order_b, sig_b = (read(a.order), read(a.sig)) if a.order else (b"", b"")
order, sig = order_b.decode("utf-8"), sig_b.decode("ascii")
if a.style in ("reply", "reply-nested", "html-reply", "forward", "forward-inline"):
    if not (a.older and a.older_sig):
        p.error(a.style + " needs --older and --older-sig")
    older, older_sig = read(a.older).decode("utf-8"), read(a.older_sig).decode("ascii")

INTRO = "Here are my orders for this step.\n\n"
OUTRO = "\nVive l'Empereur !\n-- \nAnne\n"
pasted = INTRO + order + "\n" + sig + OUTRO


def headers(m, subject="Orders"):
    m["From"] = a.sender
    m["To"] = a.to
    m["Subject"] = subject
    m["Date"] = formatdate(localtime=True)
    m["Message-ID"] = make_msgid(domain=a.sender.split("@")[-1].strip(">"))
    m["MIME-Version"] = "1.0"
    return m


def text_part(body, charset="utf-8", cte="8bit", **params):
    """A text/plain part whose transfer encoding we choose ourselves."""
    m = Message()
    m["Content-Type"] = "text/plain"
    m.set_param("charset", charset)
    for k, v in params.items():
        m.set_param(k, v)
    m["Content-Transfer-Encoding"] = cte
    raw = body.encode(charset)
    if cte == "base64":
        m.set_payload(base64.encodebytes(raw).decode("ascii"))
    elif cte == "quoted-printable":
        # Narrow lines, so the soft breaks ("=" at line end) fall inside the
        # 70-column signature lines too.
        m.set_payload(quoprimime.body_encode(raw.decode("latin-1"), maxlinelen=40))
    else:
        # 8bit: the generator writes surrogate-escaped bytes back as they were.
        m.set_payload(raw.decode("ascii", "surrogateescape"))
    return m


def flow(text, width=50):
    """RFC 3676 encoding: space-stuffing, soft breaks after a space."""
    out = []
    for line in text.split("\n"):
        if line != "-- ":
            line = line.rstrip(" ")
        if line.startswith((" ", ">", "From ")):
            line = " " + line
        while len(line) > width and " " in line[1:width]:
            cut = line.rindex(" ", 1, width) + 1
            out.append(line[:cut])
            line = line[cut:]
            if line.startswith((" ", ">", "From ")):
                line = " " + line
        out.append(line)
    return "\n".join(out)


def outlook_html(text):
    paras = []
    for line in text.split("\n"):
        lead = len(line) - len(line.lstrip(" "))
        # Outlook keeps indentation visible with "&nbsp; &nbsp;" runs.
        body = "".join("&nbsp;" if i % 2 == 0 else " " for i in range(lead))
        body += html.escape(line[lead:], quote=True)
        paras.append('<p class="MsoNormal">%s<o:p></o:p></p>' % (body or "&nbsp;"))
    return ("<html xmlns:o=\"urn:schemas-microsoft-com:office:office\"><head>"
            "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\">"
            "<style><!-- p.MsoNormal {margin:0cm;} --></style></head>"
            "<body lang=\"FR\"><div class=\"WordSection1\">\n" + "\n".join(paras)
            + "\n</div></body></html>\n")


def thunderbird_html(text):
    return ("<!DOCTYPE html>\n<html>\n  <head>\n    <meta http-equiv=\"content-type\" "
            "content=\"text/html; charset=UTF-8\">\n  </head>\n  <body>\n    <p>Here are my "
            "orders for this step.<br>\n    </p>\n    <pre>" + html.escape(order + "\n" + sig)
            + "</pre>\n    <p>Vive l'Empereur !<br>\n    </p>\n  </body>\n</html>\n")


def quote(text, prefix):
    return "\n".join(prefix + l if l else prefix.rstrip() for l in text.rstrip("\n").split("\n"))


def attachment(data, name, maintype, subtype):
    part = MIMEBase(maintype, subtype, name=name)
    part.set_payload(base64.encodebytes(data).decode("ascii"))
    part["Content-Transfer-Encoding"] = "base64"
    part.add_header("Content-Disposition", "attachment", filename=name)
    return part


s = a.style
if s in ("plain", "list", "autoreply"):
    body = pasted
    if s == "autoreply":
        body = "I am away until Monday.\n\n" + quote(pasted, "> ") + "\n"
    msg = headers(text_part(body), "Re: Orders" if s == "autoreply" else "Orders")
    if s == "list":
        msg["List-Id"] = "Napoleonic Empire players <ne-players.lists.example.org>"
        msg["List-Unsubscribe"] = "<mailto:ne-players-leave@lists.example.org>"
        msg["Precedence"] = "list"
    if s == "autoreply":
        msg["Auto-Submitted"] = "auto-replied"
        msg["X-Autoreply"] = "yes"
elif s in ("text-attachment", "renamed"):
    msg = headers(MIMEMultipart("mixed"))
    msg.attach(text_part("My orders are attached.\n"))
    for data, name in ((order, "orders.json" if s == "text-attachment" else "orders.txt"),
                       (sig, "orders.json.sig" if s == "text-attachment" else "signature.txt")):
        part = text_part(data)
        part.add_header("Content-Disposition", "attachment", filename=name)
        msg.attach(part)
elif s == "sig-attached":
    msg = headers(MIMEMultipart("mixed"))
    msg.attach(text_part(INTRO + order + OUTRO))
    msg.attach(attachment(sig_b, "signature.asc", "application", "octet-stream"))
elif s == "wrapped":
    lines = []
    for line in pasted.split("\n"):
        lines.extend(textwrap.wrap(line, 72, break_long_words=False, break_on_hyphens=False)
                     or [""])
    msg = headers(text_part("\n".join(lines)))
elif s in ("gmail-orders", "outlook-orders"):
    msg = headers(MIMEMultipart("mixed"))
    alt = MIMEMultipart("alternative")
    note = "Orders attached.\n\nVive l'Empereur !\n"
    if s == "gmail-orders":
        alt.attach(text_part("\n".join(textwrap.fill(l, 78) for l in note.split("\n"))))
        alt.attach(MIMEText('<div dir="ltr">' + html.escape(note).replace("\n", "<br>")
                            + "</div>\n", "html", "utf-8"))
    else:
        alt.attach(text_part(note))
        alt.attach(MIMEText(outlook_html(note), "html", "utf-8"))
    msg.attach(alt)
    msg.attach(attachment(order_b, "orders.json", "application", "octet-stream"))
    msg.attach(attachment(sig_b, "orders.json.sig", "application", "octet-stream"))
elif s == "iphone-orders":
    msg = headers(MIMEMultipart("mixed"))
    msg.attach(text_part(flow("Here are my orders.\n\nSent from my iPhone\n", 78),
                         format="flowed", delsp="yes"))
    for data, name in ((order_b, "orders.json"), (sig_b, "orders.json.sig")):
        part = attachment(data, name, "application", "octet-stream")
        part.replace_header("Content-Disposition", "inline")
        part.set_param("filename", name, header="Content-Disposition")
        msg.attach(part)
elif s in ("attachments", "both", "bom", "truncated"):
    msg = headers(MIMEMultipart("mixed"))
    data = order_b
    if s == "bom":
        data = b"\xef\xbb\xbf" + order_b.replace(b"\n", b"\r\n")
    msg.attach(text_part(pasted if s == "both" else "My orders are attached.\n"))
    msg.attach(attachment(data, "orders.json", "application", "json"))
    msg.attach(attachment(sig_b, "orders.json.sig", "application", "octet-stream"))
elif s == "alternative":
    msg = headers(MIMEMultipart("alternative"))
    msg.attach(text_part(flow(pasted), format="flowed"))
    msg.attach(MIMEText(thunderbird_html(pasted), "html", "utf-8"))
elif s == "html-only":
    msg = headers(MIMEText(outlook_html(pasted), "html", "utf-8"))
elif s == "qp":
    msg = headers(text_part(pasted, cte="quoted-printable"))
elif s == "base64":
    msg = headers(text_part(pasted, cte="base64"))
elif s == "latin1":
    msg = headers(text_part(pasted, charset="iso-8859-1", cte="quoted-printable"))
elif s == "crlf":
    lines = sig.rstrip("\n").split("\n")
    b64 = "".join(lines[1:-1])
    rewrapped = "\n".join([lines[0]] + [b64[i:i + 60] for i in range(0, len(b64), 60)]
                          + [lines[-1]]) + "\n"
    msg = headers(text_part(INTRO + order + "\n" + rewrapped + OUTRO))
elif s == "flowed":
    msg = headers(text_part(flow(pasted), format="flowed"))
elif s in ("reply", "reply-nested"):
    old = INTRO + older + "\n" + older_sig + OUTRO
    if s == "reply":
        quoted = "On Monday, you wrote:\n" + quote(old, "> ")
    else:
        quoted = ("On Tuesday, the GM wrote:\n> Step 7 is open.\n> On Monday, you wrote:\n"
                  + quote(old, ">> "))
    body = "Sorry, these replace my earlier orders.\n\n" + order + "\n" + sig + "\n" + quoted + "\n"
    msg = headers(text_part(body), "Re: Orders")
elif s == "html-reply":
    doc = ("<html>\n  <head>\n    <meta http-equiv=\"content-type\" content=\"text/html; "
           "charset=UTF-8\">\n  </head>\n  <body>\n    <p>Sorry, these replace my earlier "
           "orders.</p>\n    <pre>" + html.escape(order + "\n" + sig) + "</pre>\n"
           "    <div class=\"moz-cite-prefix\">On Monday, you wrote:<br>\n    </div>\n"
           "    <blockquote type=\"cite\">\n      <pre class=\"moz-quote-pre\">"
           + html.escape(older + "\n" + older_sig) + "</pre>\n    </blockquote>\n"
           "  </body>\n</html>\n")
    msg = headers(MIMEText(doc, "html", "utf-8"), "Re: Orders")
elif s in ("attach-paste-sig", "attach-other-sig"):
    msg = headers(MIMEMultipart("mixed"))
    if s == "attach-paste-sig":
        msg.attach(text_part("My orders are attached; the signature:\n\n" + sig))
        msg.attach(attachment(order_b, "orders.json", "application", "json"))
    else:
        msg.attach(text_part("My orders and signature are attached.\n"))
        msg.attach(attachment(order_b, "france-step7.json", "text", "plain"))
        msg.attach(attachment(sig_b, "signature.sig", "application", "pgp-signature"))
elif s == "forward":
    inner = headers(text_part(INTRO + older + "\n" + older_sig + OUTRO))
    msg = headers(MIMEMultipart("mixed"), "Fwd: Orders")
    msg.attach(text_part(pasted))
    msg.attach(MIMEMessage(inner))
elif s == "forward-inline":
    body = (pasted + "\n---------- Forwarded message ---------\nFrom: Anne <" + a.sender
            + ">\nDate: Mon, 2 Nov 2026 10:00:00 +0100\nSubject: Orders\nTo: " + a.to
            + "\n\n" + INTRO + older + "\n" + older_sig + OUTRO)
    msg = headers(text_part(body), "Fwd: Orders")
elif s == "bounce":
    msg = MIMEMultipart("report", report_type="delivery-status")
    msg["Return-Path"] = "<>"
    msg["From"] = "Mail Delivery System <MAILER-DAEMON@mx.example.org>"
    msg["To"] = a.sender
    msg["Subject"] = "Undelivered Mail Returned to Sender"
    msg["Date"] = formatdate(localtime=True)
    msg["Message-ID"] = make_msgid(domain="mx.example.org")
    msg["Auto-Submitted"] = "auto-replied"
    msg.attach(text_part("This is the mail system at host mx.example.org.\n\n"
                         "I'm sorry to have to inform you that your message could not\n"
                         "be delivered to one or more recipients.\n"))
    status = Message()
    status["Content-Type"] = "message/delivery-status"
    per_message, per_recipient = Message(), Message()
    per_message["Reporting-MTA"] = "dns; mx.example.org"
    per_recipient["Final-Recipient"] = "rfc822; " + a.to
    per_recipient["Action"] = "failed"
    per_recipient["Status"] = "5.1.1"
    status.set_payload([per_message, per_recipient])
    msg.attach(status)
    msg.attach(MIMEMessage(headers(text_part(pasted))))
elif s in ("many-pasted", "many-attached"):
    pairs = [(order_b, sig_b)] + [(read(f), read(f + ".sig")) for f in a.more]
    head, _, tail = order.partition('"seq": ')
    seq = int(re.match(r"\d+", tail).group(0))
    rest = tail[len(str(seq)):]
    for i in range(a.copies):
        pairs.append(((head + '"seq": ' + str(seq + 1 + i) + rest).encode("utf-8"), sig_b))
    if s == "many-pasted":
        body = INTRO + "".join(o.decode("utf-8") + "\n" + g.decode("ascii") + "\n"
                               for o, g in pairs) + OUTRO
        msg = headers(text_part(body))
    else:
        msg = headers(MIMEMultipart("mixed"))
        msg.attach(text_part("My orders are attached.\n"))
        for i, (o, g) in enumerate(pairs):
            msg.attach(attachment(o, "orders-%d.json" % i, "application", "json"))
            msg.attach(attachment(g, "orders-%d.json.sig" % i, "application", "octet-stream"))
elif s in CLIENTS:
    text = a.text.replace("\\n", "\n") + "\n"
    if s == "thunderbird":
        body = MIMEMultipart("alternative")
        body.attach(text_part(flow(text), format="flowed"))
        body.attach(MIMEText("<!DOCTYPE html>\n<html>\n  <head>\n    <meta http-equiv=\"content-type\" "
                             "content=\"text/html; charset=UTF-8\">\n  </head>\n  <body>\n    <p>"
                             + html.escape(text).replace("\n", "<br>\n") + "</p>\n  </body>\n</html>\n",
                             "html", "utf-8"))
    elif s == "gmail":
        body = MIMEMultipart("alternative")
        body.attach(text_part(text))
        body.attach(MIMEText('<div dir="ltr">' + html.escape(text).replace("\n", "<br>")
                             + "</div>\n", "html", "utf-8"))
    elif s == "outlook":
        body = MIMEMultipart("alternative")
        body.attach(text_part(text, cte="quoted-printable"))
        body.attach(MIMEText(outlook_html(text), "html", "utf-8"))
    else:
        body = text_part(text + "\nSent from my iPhone\n", cte="quoted-printable")
    if a.attach:
        msg = MIMEMultipart("mixed")
        msg.attach(body)
        name = a.attach.rsplit("/", 1)[-1]
        msg.attach(attachment(read(a.attach), name, "application", "octet-stream"))
    else:
        msg = body
    msg = headers(msg, a.subject)
    if s == "thunderbird":
        msg["User-Agent"] = "Mozilla Thunderbird"
    elif s == "outlook":
        msg["Thread-Topic"] = a.subject
        msg["X-MS-Has-Attach"] = "yes" if a.attach else ""
        msg["X-Mailer"] = "Microsoft Outlook 16.0"
    elif s == "iphone":
        msg["X-Mailer"] = "iPhone Mail (21A329)"
    for h in a.header:
        name, _, value = h.partition(":")
        msg[name.strip()] = value.strip()
else:  # none
    msg = headers(text_part("See you at the next step. No orders from me this time.\n"))

linesep = "\r\n" if s in ("crlf", "bom", "outlook-orders") else "\n"
out = msg.as_bytes(policy=email.policy.compat32.clone(linesep=linesep, max_line_length=0))
if s == "truncated":
    out = out[:out.rindex(b"\n--") - 100]  # inside the signature's base64, the last part
sys.stdout.buffer.write(out)
