#!/bin/bash
# The report mail as each player gets it (docs/mail.md), through a run and the
# loopback SMTP server: a Napoleonic Empire game after its join awaits France.
# - France's report, read by Python's email package under its strict policy:
#   a text part (lines of at most 78 columns) and an HTML part that shows the
#   map by <img src="cid:X">, with a multipart/related image/png whose
#   Content-ID is <X> and which is a real PNG (signature, IHDR size); map.svg
#   attached; orders-0002-france.json attached with game, step, player, prev
#   and seq as `status --json` gives them, the entropy placeholder and no
#   orders; the report names the orders address (estafette.sender) and the
#   turn's choices;
# - that file, its orders written in, is refused by `check` while its
#   entropy is the placeholder; `estafette sign` fills the entropy (only
#   that value changes), ssh-keygen -Y verify accepts the signature,
#   `check` and `submit` accept the file; sign refuses a file holding the
#   placeholder twice;
# - the Allies' report (not awaited) has no order file and no "how to send
#   orders";
# - headless Chromium shows France's HTML with the cid: picture given as a
#   data: URL: the image loads with a natural width > 0;
# - a map template that librsvg cannot read: the report still goes, without
#   the picture, and the run warns.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
[ -n "${KEEP:-}" ] && trap stop_smtpd EXIT
cd "$WORK"

make_players
export ESTAFETTE_COMMIT_TIME=1800000000
"$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json --id ne-rm >/dev/null
git -C game config estafette.sender "Game master <orders@example.org>"
start_smtpd "$WORK/mail"
git -C game config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
join game france allies
"$ESTAFETTE" status game --json > status.json
# status gives the step awaited; the reports are of the step before it.
next=$(printf '%04d' "$(json_get 'd["step"]' < status.json)")
step=$(printf '%04d' $((10#$next - 1)))
france=$(grep -lE "^Message-ID: <[0-9a-f]{32}\.ne-rm\.$step-france@" "$WORK"/mail/*.eml) || fail "no report of step $step for France"
allies=$(grep -lE "^Message-ID: <[0-9a-f]{32}\.ne-rm\.$step-allies@" "$WORK"/mail/*.eml) || fail "no report of step $step for the Allies"

"$PY" - "$france" "$allies" status.json "$WORK" "orders-$next-france.json" <<'PY'
import email, email.policy, json, struct, sys, unicodedata
fr, al, status, work, oname = sys.argv[1:6]
st = json.load(open(status))

def read(path):
    m = email.message_from_bytes(open(path, "rb").read(), policy=email.policy.strict)
    for p in m.walk():
        assert not p.defects, (path, p.defects)
    return m

def width(line):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)

m = read(fr)
text = m.get_body(("plain",)).get_content()
for line in text.splitlines():
    assert width(line) <= 78, "text line over 78 columns: %r" % line
html_part = m.get_body(("html",))
html = html_part.get_content()
assert 'src="cid:' in html, "no cid: image in the HTML"
cid = html.split('src="cid:', 1)[1].split('"', 1)[0]
related = [p for p in m.walk() if p.get_content_type() == "multipart/related"]
assert len(related) == 1, "no multipart/related"
imgs = [p for p in related[0].iter_parts() if p.get_content_type() == "image/png"]
assert len(imgs) == 1 and imgs[0]["Content-ID"] == "<%s>" % cid, [p["Content-ID"] for p in imgs]
assert imgs[0].get_content_disposition() == "inline"
png = imgs[0].get_content()
# The Allies see the same map: theirs is the same picture, drawn once.
other = [p for p in read(al).walk() if p.get_content_type() == "image/png"]
assert len(other) == 1 and other[0].get_content() == png, "the Allies' picture differs"
assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR", "not a PNG"
w, h = struct.unpack(">II", png[16:24])
assert 800 <= w <= 1200 and 100 <= h <= 4096, (w, h)
open(work + "/map.png", "wb").write(png)
open(work + "/france.html", "w").write(html)
atts = {a.get_filename(): a for a in m.iter_attachments()}
assert set(atts) == {"map.svg", oname}, sorted(atts)
assert atts["map.svg"].get_content_type() == "image/svg+xml"
raw = atts[oname].get_content()
raw = raw if isinstance(raw, bytes) else raw.encode()
o = json.loads(raw)
assert list(o) == ["estafette", "game", "step", "player", "prev", "seq", "entropy", "orders"], list(o)
assert o["estafette"] == "orders/1" and o["game"] == "ne-rm" and o["player"] == "france"
assert o["step"] == st["step"], (o["step"], st["step"])
assert o["prev"] == st["state_sha256"], (o["prev"], st["state_sha256"])
assert o["seq"] == 1 and o["orders"] == [] and o["entropy"] == "estafette sign fills this in", o
open(work + "/" + oname, "wb").write(raw)
for want in ("HOW TO SEND ORDERS", "orders@example.org", "estafette sign " + oname,
             "THIS STEP TAKES", '"type": "move"', '"armies": <number>'):
    assert want in text, "France's text lacks %r" % want
# a number's placeholder unquoted: players copied "<number>" with its quotes and were refused
assert '"<number' not in text, "a number's placeholder is shown as a string"
assert "orders@example.org" in html and "How to send orders" in html

a = read(al)
atext = a.get_body(("plain",)).get_content()
assert "HOW TO SEND ORDERS" not in atext and "How to send orders" not in a.get_body(("html",)).get_content()
assert [x.get_filename() for x in a.iter_attachments()] == ["map.svg"], list(a.iter_attachments())
print("mails ok")
PY

# The file as mailed is refused while its entropy waits to be filled.
f=orders-$next-france.json
# (signed by ssh-keygen, which fills nothing)
ssh-keygen -q -Y sign -f france -n estafette-orders "$f"
for cmd in check submit; do
	expect_exit 65 "$ESTAFETTE" "$cmd" game "$f"
	grep -q 'field "entropy" is "estafette sign fills this in", not yet filled in; sign the file with `estafette sign' \
		"$WORK/last.err" || fail "$cmd did not say to fill the entropy: $(cat "$WORK/last.err")"
done
rm "$f.sig"

# Orders written in; sign fills the entropy and nothing else.
sed -i 's/"orders": \[\]/"orders": [{"type": "move", "from": "France", "to": "Rhineland", "armies": 1}]/' "$f"
cp "$f" before.json
ESTAFETTE_KEY=$WORK/france "$ESTAFETTE" sign "$f" > sign.out || fail "sign failed: $(cat sign.out)"
grep -q "filled the entropy of $f" sign.out || fail "sign did not say it filled the entropy: $(cat sign.out)"
entropy=$(json_get 'd["entropy"]' < "$f")
[[ $entropy =~ ^[0-9a-f]{64}$ ]] || fail "entropy not 64 hex after sign: $entropy"
sed "s/$entropy/estafette sign fills this in/" "$f" | cmp -s - before.json || fail "sign changed more than the entropy"
printf 'france %s\n' "$(cat france.pub)" > allowed
ssh-keygen -q -Y verify -f allowed -I france -n estafette-orders -s "$f.sig" < "$f" >/dev/null ||
	fail "ssh-keygen -Y verify refused the signature sign wrote"
# Signed again: the entropy is already filled, the file is not changed.
cp "$f" filled.json
ESTAFETTE_KEY=$WORK/france "$ESTAFETTE" sign "$f" > sign2.out
cmp -s "$f" filled.json || fail "a second sign changed a filled file"
grep -q "filled the entropy" sign2.out && fail "a second sign said it filled the entropy"
expect_exit 0 "$ESTAFETTE" check game "$f"
expect_exit 0 "$ESTAFETTE" submit game "$f"

# A file holding the placeholder twice is refused, and left as it was.
cp before.json twice.json
sed -i 's/"orders": \[/"press": [{"to": "all", "text": "estafette sign fills this in"}], "orders": [/' twice.json
cp twice.json twice.orig
ESTAFETTE_KEY=$WORK/france "$ESTAFETTE" sign twice.json > twice.out 2>&1 && fail "sign filled a file that holds the placeholder twice"
cmp -s twice.json twice.orig || fail "a refused sign changed the file"
[ ! -e twice.json.sig ] || fail "a refused sign wrote a signature"
grep -q "twice.json" twice.out || fail "the refusal does not name the file: $(cat twice.out)"

# Chromium shows the inline picture (the cid: given as a data: URL, as a mail client resolves it).
need_chromium
"$PY" - "$WORK" <<'PY'
import base64, re, sys
work = sys.argv[1]
html = open(work + "/france.html").read()
data = "data:image/png;base64," + base64.b64encode(open(work + "/map.png", "rb").read()).decode()
html, n = re.subn(r'src="cid:[^"]*"', 'id="map" src="%s"' % data, html)
assert n == 1
html = html.replace("</body>", "<script>window.onload = function () { var i = document.getElementById('map');"
                    " document.title = 'natural ' + i.naturalWidth + 'x' + i.naturalHeight; };</script></body>")
open(work + "/shown.html", "w").write(html)
PY
profile=$(mktemp -d "$WORK/profile.XXXXXX")
timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$profile" --virtual-time-budget=5000 --dump-dom "file://$WORK/shown.html" \
	> dom.html 2>>chromium.log || fail "chromium failed: $(tail -5 chromium.log)"
natural=$(grep -o '<title>natural [0-9]*x[0-9]*</title>' dom.html | grep -o '[0-9]*x[0-9]*') ||
	fail "chromium did not load the page's image: $(head -c 300 dom.html)"
[ "${natural%x*}" -gt 0 ] || fail "the inline map shows with natural width 0 ($natural)"

# A map template librsvg cannot read: the next report still goes, without the picture, and the run warns.
mkdir -p game/templates
printf '<svg xmlns="http://www.w3.org/2000/svg"><rect></svg\n' > game/templates/map.svg.mustache
gm_git game add templates
gm_git game commit -qm "a map template librsvg cannot read"
"$ESTAFETTE" run game --json > run.json 2> run.err || fail "the run failed: $(cat run.json run.err)"
grep -q "without the map's picture" run.json || fail "the run did not warn: $(cat run.json run.err)"
# Both players see the same map: it is drawn once, and the warning given once.
[ "$(grep -o "without the map.s picture" run.json | wc -l)" -eq 1 ] ||
	fail "the map was drawn for each player: $(cat run.json)"
f2=$(grep -lE "^Message-ID: <[0-9a-f]{32}\.ne-rm\.$next-allies@" "$WORK"/mail/*.eml) || fail "no report of step $next"
grep -q "image/png" "$f2" && fail "a picture went with a map librsvg cannot read"
grep -q 'filename="map.svg"' "$f2" || fail "map.svg no longer attached"
grep -q 'cid:' "$f2" && fail "the HTML names a picture that is not there"
echo "report_mail: the awaited player's mail carries the filled-in order file, the inline map and its choices; sign fills the entropy"
