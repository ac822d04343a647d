#!/bin/bash
# Orders by mail, end to end: realistic messages from many kinds of client,
# made with tests/helpers/make_mail.py around order files signed by the real
# ssh-keygen, go through `estafette receive`; each is accepted or refused as
# it should be, every sender gets the right receipt from a real SMTP server,
# machines get none, and a message handed over twice is recorded and
# answered once. Then `fetch` takes orders from a real IMAP server
# (dovecot) and a Maildir, and a fetch killed at random points loses and
# doubles nothing.
set -euo pipefail
source "$TOP/tests/lib.sh"
source "$TOP/tests/helpers/imapd.sh"
need_pkgs dovecot-imapd
scratch
trap 'stop_imapd 2>/dev/null; stop_smtpd; rm -rf "$WORK"' EXIT
cd "$WORK"
make_players
"$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json >/dev/null
start_smtpd "$WORK/mail"
git -C game config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
git -C game config estafette.sender "GM <gm@example.org>"
"$ESTAFETTE" run game >/dev/null

signed() {  # player seq [make_order args...] -> FILE (signed)
	local p=$1 seq=$2; shift 2
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$p" "$seq" '[]' "$@" > "o$seq.json"
	rm -f "o$seq.json.sig"
	ssh-keygen -q -Y sign -f "$p" -n estafette-orders "o$seq.json" >&2 < /dev/null
	echo "o$seq.json"
}
mail_of() {  # style file [--older f] [--from addr]
	local style=$1 f=$2; shift 2
	"$PY" "$TOP/tests/helpers/make_mail.py" "$style" --order "$f" --sig "$f.sig" \
		--from "${FROM:-France player <france@example.org>}" --to "GM <gm@example.org>" "$@"
}
receive() {  # expected-status message-file
	expect_exit 0 "$ESTAFETTE" receive game --json < "$2"
	got=$(json_get 'd["status"]' < "$WORK/last.out")
	[ "$got" = "$1" ] || fail "$2: status $got, expected $1: $(cat "$WORK/last.out")"
}

# Every client quirk, each an accepted order with a higher seq than the last.
seq=0
for style in plain attachments both alternative html-only qp base64 crlf flowed text-attachment \
	renamed sig-attached wrapped; do
	seq=$((seq + 1))
	mail_of "$style" "$(signed france $seq)" > "m$seq.eml"
	receive accepted "m$seq.eml"
done
seq=$((seq + 1))
mail_of latin1 "$(signed france $seq --press '[{"to": "all", "text": "Vive l’Empereur, à Paris !"}]')" > "m$seq.eml"
receive accepted "m$seq.eml"
# A reply quoting the older orders, and a forward carrying them: the newest wins.
older=o$seq.json
for style in reply reply-nested forward forward-inline; do
	seq=$((seq + 1))
	mail_of "$style" "$(signed france $seq)" --older "$older" --older-sig "$older.sig" > "m$seq.eml"
	receive accepted "m$seq.eml"
	got=$(json_get '[c["status"] for c in d["candidates"]]' < "$WORK/last.out")
	grep -q "refused\|duplicate" <<< "$got" || fail "$style: the quoted older order: $got"
	older=o$seq.json
done
cmp "o$seq.json" <(git -C game show main:orders/france.json) || fail "the newest order is not recorded"

# Handed over twice: recorded once, answered once.
commits_before=$(commits game)
receive duplicate "m$seq.eml"
[ "$(commits game)" -eq "$commits_before" ] || fail "a message received twice was recorded twice"

# Refusals, each answered with the reason; machines and strangers.
signed france 99 > /dev/null
sed -i 's/"seq": 99/"seq": 98/' o99.json
mail_of plain o99.json > tampered.eml
receive refused tampered.eml
FROM="Mallory <mallory@example.net>" mail_of plain "o$seq.json" > stranger.eml
receive stranger stranger.eml
FROM="Mallory <mallory@example.net>" mail_of attachments "o$seq.json" > stranger2.eml
receive stranger stranger2.eml   # one refusal per address, however many messages
for style in autoreply bounce list; do
	mail_of "$style" "o$seq.json" > "$style.eml"
	receive ignored "$style.eml"
done
printf 'Subject: hello\nFrom: france@example.org\n\nno orders here\n' > empty.eml
receive forwarded empty.eml   # a player's mail without orders goes to the GM (gm_mail.sh)

# The receipts, as the SMTP server received them.
"$PY" - "$WORK/mail" "$seq" <<'PY' || fail "receipts"
import email, email.policy, pathlib, re, sys
box, last = pathlib.Path(sys.argv[1]), int(sys.argv[2])
msgs = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        for p in sorted(box.glob("*.eml"))]
text = lambda m: m.get_body(("plain",)).get_content()
# <RANDOM.GAME.NAME@HOST>: the outbox name says what the message is.
name = lambda m: re.fullmatch(r"<[0-9a-f]{32}\.game\.([A-Za-z0-9._-]+)@[a-z0-9.-]+>", m["Message-ID"]).group(1)
receipts = [m for m in msgs if name(m).startswith(("receipt-", "stranger-"))]
names = [name(m) for m in receipts]
assert len(names) == len(set(names)), "a receipt went out twice"
assert len({m["Message-ID"] for m in msgs}) == len(msgs), "two messages share a Message-ID"
to = lambda m: str(m["To"])
accepted = [m for m in receipts if "ACCEPTED" in text(m)]
assert len(accepted) == last, f"{len(accepted)} acceptance receipts for {last} accepted messages"
assert all(m["In-Reply-To"] and m["References"] for m in accepted), "a receipt does not thread"
refused = [m for m in receipts if "NOTHING RECORDED" in text(m) or "REFUSED" in text(m)]
assert any("signature" in text(m) for m in refused), "the tampered order's receipt"
strangers = [m for m in receipts if "mallory@example.net" in to(m)]
assert len(strangers) == 1 and "not the address of a player" in text(strangers[0]), \
    f"{len(strangers)} refusals to the stranger, expected one"
assert not any(t in to(m) for m in receipts for t in ("mailer-daemon", "list")), "a machine was answered"
print(f"receipts: {len(receipts)} ({len(accepted)} accepted)")
PY

styles=$seq

# What a message costs is bounded. 200 order files, each signed by the real ssh-keygen,
# pasted in one message: the first 32 are read, the newest of those is recorded, the rest
# are named once in a receipt of a few KiB, and it takes seconds, not minutes.
mkdir many
first=$((seq + 1))
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game france "$first" '[]' > "many/o$first.json"
"$PY" - many "$first" 200 <<'PY'
import os, re, sys
d, first, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
text = open(f"{d}/o{first}.json").read()
for seq in range(first + 1, first + n):
    t = re.sub(r'"seq": \d+', f'"seq": {seq}', text)
    t = re.sub(r'"entropy": "[0-9a-f]+"', f'"entropy": "{os.urandom(32).hex()}"', t)
    open(f"{d}/o{seq}.json", "w").write(t)
PY
ssh-keygen -q -Y sign -f france -n estafette-orders many/o*.json < /dev/null
more=()
for i in $(seq $((first + 1)) $((first + 199))); do more+=(--more "many/o$i.json"); done
mail_of many-pasted "many/o$first.json" "${more[@]}" > many.eml
started=$(date +%s%N)
receive accepted many.eml
elapsed=$((($(date +%s%N) - started) / 1000000))
[ "$elapsed" -lt 8000 ] || fail "a message of 200 signed orders took $elapsed ms (the bound is 8 s)"
[ "$(json_get 'd["ignored"]' < "$WORK/last.out")" = 168 ] || fail "not 168 ignored: $(head -c 600 "$WORK/last.out")"
[ "$(json_get 'len(d["candidates"])' < "$WORK/last.out")" = 32 ] || fail "not 32 candidates read"
cmp "many/o$((first + 31)).json" <(git -C game show main:orders/france.json) ||
	fail "the newest of the 32 read is not the one recorded"
"$PY" - "$WORK/mail" <<'PY' || fail "the receipt of 200 orders"
import email, email.policy, pathlib, sys
for p in sorted(pathlib.Path(sys.argv[1]).glob("*.eml")):
    m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
    body = m.get_body(("plain",))
    if body and "and 168 more order files in it, not read" in body.get_content():
        size = p.stat().st_size
        assert size < 8192, f"{p}: a receipt of {size} bytes"
        print(f"receipt of 200 orders: {size} bytes")
        break
else:
    raise SystemExit("no receipt names the 168 order files not read")
PY
seq=$((first + 31))
cp "many/o$seq.json" "o$seq.json" && cp "many/o$seq.json.sig" "o$seq.json.sig"

# Parsing is done before the game's lock is taken: while another process holds the lock,
# receive still parses a message of 15,000 forged pairs (9 MB) to the point right after it.
mail_of many-pasted "o$seq.json" --copies 15000 > heavy.eml
flock game/.git/estafette.lock sleep 30 &
holder=$!
for _ in $(seq 50); do flock -n game/.git/estafette.lock true || break; sleep 0.1; done
! flock -n game/.git/estafette.lock true || fail "the test could not take the game's lock"
started=$(date +%s%N)
expect_exit 137 env ESTAFETTE_FAULT=receive-after-parse "$ESTAFETTE" receive game < heavy.eml
elapsed=$((($(date +%s%N) - started) / 1000000))
kill "$holder"
wait "$holder" 2>/dev/null || true
[ "$elapsed" -lt 15000 ] || fail "parsing waited for the lock ($elapsed ms)"

# Every From that RFC 5322 allows is mail, dealt with (exit 0) and logged: comments,
# groups, encoded words, routes and spaces of the obsolete syntax, needless quotes, empty
# list elements read as the player's address; an empty group, or an address GMime cannot
# read, as mail nobody can be answered for.
n=0
for from in 'france@example.org (France player)' 'Players: France player <france@example.org>;' \
	'=?utf-8?q?Fran=C3=A7e?= <france@example.org>' 'France <@relay.example.org:france@example.org>' \
	'france @ example . org' '"france"@example.org' ', France <france@example.org>,' \
	'France (the (nested) comment) <france@example.org>'; do
	n=$((n + 1))
	printf 'From: %s\nTo: gm@example.org\nSubject: hello\nMessage-ID: <form-%s@example.org>\n\nno orders\n' \
		"$from" "$n" > "form$n.eml"
	receive forwarded "form$n.eml"
	[ "$(json_get 'd["from"]' < "$WORK/last.out")" = france@example.org ] ||
		fail "From: $from read as $(json_get 'd["from"]' < "$WORK/last.out")"
	grep -q "\"message_id\":\"form-$n@example.org\"" "$ESTAFETTE_HOME/games/game/intake.log" ||
		fail "From: $from: not logged"
done
for from in 'undisclosed-recipients:;' '<<<@@@>>>' ''; do
	n=$((n + 1))
	printf 'From: %s\nTo: gm@example.org\nSubject: hello\nMessage-ID: <form-%s@example.org>\n\nno orders\n' \
		"$from" "$n" > "form$n.eml"
	receive unanswerable "form$n.eml"
	grep -q "\"message_id\":\"form-$n@example.org\".*\"status\":\"unanswerable\"" \
		"$ESTAFETTE_HOME/games/game/intake.log" || fail "From: $from: not logged"
done
# A quoted local part from a stranger: one refusal, sent to that address by SMTP.
FROM='John Smith <"john smith"@example.org>' mail_of plain "o$seq.json" > quoted.eml
receive stranger quoted.eml
FROM='"a\"b"@example.org' mail_of plain "o$seq.json" > quoted2.eml
receive stranger quoted2.eml
"$PY" - "$WORK/mail" <<'PY' || fail "the refusal to a quoted local part"
import json, pathlib, sys
to = [json.loads(p.read_text())["rcpt_tos"] for p in pathlib.Path(sys.argv[1]).glob("*.json")]
assert ['"john smith"@example.org'] in to, f"no mail to \"john smith\"@example.org: {to[-3:]}"
assert ['"a\\"b"@example.org'] in to, f"no mail to \"a\\\"b\"@example.org: {to[-3:]}"
PY
# A player registered with such an address plays by mail like any other.
ssh-keygen -q -t ed25519 -N '' -C js -f js
cat > players2.json <<JSON
{"players": [
 {"id": "france", "name": "John Smith", "email": "\"john smith\"@example.org", "key": "$(cat js.pub)"},
 {"id": "allies", "name": "Allied player", "email": "allies@example.org", "key": "$(cat allies.pub)"}]}
JSON
"$ESTAFETTE" new game2 --ruleset napoleonic-empire --players players2.json >/dev/null
git -C game2 config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
"$ESTAFETTE" run game2 >/dev/null
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game2 france 1 '[]' > js1.json
ssh-keygen -q -Y sign -f js -n estafette-orders js1.json < /dev/null
"$PY" "$TOP/tests/helpers/make_mail.py" attachments --order js1.json --sig js1.json.sig \
	--from 'John Smith <"john smith"@example.org>' --to "GM <gm@example.org>" > js.eml
expect_exit 0 "$ESTAFETTE" receive game2 --json < js.eml
[ "$(json_get 'd["status"]' < "$WORK/last.out")" = accepted ] || fail "john smith: $(cat "$WORK/last.out")"
"$PY" - "$WORK/mail" <<'PY' || fail "the receipt to a quoted local part"
import email, email.policy, json, pathlib, sys
box = pathlib.Path(sys.argv[1])
for p in sorted(box.glob("*.json")):
    if json.loads(p.read_text())["rcpt_tos"] == ['"john smith"@example.org']:
        m = email.message_from_bytes(p.with_suffix(".eml").read_bytes(), policy=email.policy.default)
        body = m.get_body(("plain",))
        if body and "ACCEPTED: france has joined" in body.get_content():
            assert m["To"].addresses[0].addr_spec == '"john smith"@example.org', m["To"]
            break
else:
    raise SystemExit("no acceptance receipt went to \"john smith\"@example.org")
PY

# fetch from a real IMAP server over TLS, then from a Maildir.
"$ESTAFETTE" run game >/dev/null   # France's turn resolves with the newest orders
chmod 755 "$WORK"   # dovecot's unprivileged auth and mail processes must reach their files
start_imapd "$WORK/imapd"
imapd_game game "$ESTAFETTE_HOME"
for s in 1 2 3 4 5; do
	f=$(signed allies $s)
	FROM="Allied player <allies@example.org>" mail_of attachments "$f" > "a$s.eml"
	imapd_deliver "a$s.eml"
done
commits_before=$(commits game)
for i in $(seq 12); do   # killed at random points, between storing and marking seen too
	timeout -s KILL "0.0$((RANDOM % 9 + 1))" "$ESTAFETTE" fetch game &>/dev/null || true
done 2>/dev/null
expect_exit 0 "$ESTAFETTE" fetch game
expect_exit 0 "$ESTAFETTE" fetch game --json
[ "$(json_get 'd["handled"]' < "$WORK/last.out")" = 0 ] || fail "a second fetch found unseen mail"
cmp o5.json <(git -C game show main:orders/allies.json) || fail "fetch did not record the newest"
recorded=$(git -C game log --format=%s "HEAD~$(( $(commits game) - commits_before ))..HEAD" | grep -c '^orders: allies')
[ "$recorded" -le 5 ] || fail "$recorded order commits for 5 messages: something was recorded twice"
[ -z "$(ls "$IMAP_MAILDIR/new")" ] || fail "messages left in new/"

# Killed exactly between storing an order and marking its message seen:
# the next fetch finds the message again, records nothing twice, answers once.
f=$(signed allies 6)
FROM="Allied player <allies@example.org>" mail_of attachments "$f" > a6.eml
imapd_deliver a6.eml
commits_before=$(commits game)
expect_exit 137 env ESTAFETTE_FAULT=fetch-after-store "$ESTAFETTE" fetch game
[ "$(commits game)" -eq $((commits_before + 1)) ] || fail "the order was not stored before the kill"
expect_exit 0 "$ESTAFETTE" fetch game --json
[ "$(json_get 'd["messages"][0]["status"]' < "$WORK/last.out")" = duplicate ] ||
	fail "the message fetched again: $(cat "$WORK/last.out")"
[ "$(commits game)" -eq $((commits_before + 1)) ] || fail "recorded twice after the kill"
# A message over the game's limit is not downloaded: its header says who sent it, the
# player gets one short notice, and the message is marked seen like any other.
git -C game config estafette.maxmessage 64k
"$PY" - <<'PY' > big.eml
import sys
sys.stdout.write("From: Allied player <allies@example.org>\nTo: gm@example.org\nSubject: Orders\n"
                 "Message-ID: <big-fetch@example.org>\n\n" + ("x" * 70 + "\n") * 3000)
PY
imapd_deliver big.eml
expect_exit 0 "$ESTAFETTE" fetch game --json
[ "$(json_get 'd["messages"][0]["status"]' < "$WORK/last.out")" = "too large" ] ||
	fail "a message over estafette.maxmessage by IMAP: $(head -c 600 "$WORK/last.out")"
[ "$(json_get 'd["messages"][0]["size"]' < "$WORK/last.out")" -gt 65536 ] || fail "the size IMAP reported"
grep -q '"message_id":"big-fetch@example.org".*"status":"too large"' "$ESTAFETTE_HOME/games/game/intake.log" ||
	fail "the message over the limit is not logged"
"$PY" - "$WORK/mail" <<'PY' || fail "no notice of the limit reached the player"
import email, email.policy, json, pathlib, re, sys
for p in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    if json.loads(p.read_text())["rcpt_tos"] != ["allies@example.org"]:
        continue
    m = email.message_from_bytes(p.with_suffix(".eml").read_bytes(), policy=email.policy.default)
    text = m.get_content() if m.get_content_type() == "text/plain" else ""
    if re.search(r"<big-fetch@example.org> is 2[0-9]{5} bytes, over this game's limit of 65536 "
                 r"bytes, so it was not read", text):
        assert len(text) < 1024, f"a notice of {len(text)} characters"
        break
else:
    raise SystemExit("no notice to allies@example.org of the limit")
PY
expect_exit 0 "$ESTAFETTE" fetch game --json
[ "$(json_get 'd["handled"]' < "$WORK/last.out")" = 0 ] || fail "the message over the limit stayed unseen"
git -C game config --unset estafette.maxmessage
stop_imapd

mkdir -p md/new md/cur md/tmp
"$ESTAFETTE" run game >/dev/null
f=$(signed france 1)
mail_of plain "$f" > md/new/1.eml
expect_exit 0 "$ESTAFETTE" fetch game --maildir md
ls md/cur | grep -q ':2,S' || fail "the Maildir message was not marked seen"
git -C game fsck --strict --no-progress || fail "git fsck --strict"
echo "mail_intake: $styles client styles accepted, refusals answered, IMAP and Maildir fetch held"
