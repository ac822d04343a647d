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
for style in plain attachments both alternative html-only qp base64 bom crlf flowed; do
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
receive refused empty.eml

# The receipts, as the SMTP server received them.
"$PY" - "$WORK/mail" "$seq" <<'PY' || fail "receipts"
import email, email.policy, pathlib, sys
box, last = pathlib.Path(sys.argv[1]), int(sys.argv[2])
msgs = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        for p in sorted(box.glob("*.eml"))]
receipts = [m for m in msgs if m["Message-ID"].startswith(("<game.receipt-", "<game.stranger-"))]
ids = [m["Message-ID"] for m in receipts]
assert len(ids) == len(set(ids)), "a receipt went out twice"
to = lambda m: str(m["To"])
accepted = [m for m in receipts if "ACCEPTED" in m.get_content()]
assert len(accepted) == last, f"{len(accepted)} acceptance receipts for {last} accepted messages"
assert all(m["In-Reply-To"] and m["References"] for m in accepted), "a receipt does not thread"
refused = [m for m in receipts if "NOTHING RECORDED" in m.get_content() or "REFUSED" in m.get_content()]
assert any("signature" in m.get_content() for m in refused), "the tampered order's receipt"
strangers = [m for m in receipts if "mallory@example.net" in to(m)]
assert len(strangers) == 1 and "not the address of a player" in strangers[0].get_content(), \
    f"{len(strangers)} refusals to the stranger, expected one"
assert not any(t in to(m) for m in receipts for t in ("mailer-daemon", "list")), "a machine was answered"
print(f"receipts: {len(receipts)} ({len(accepted)} accepted)")
PY

# fetch from a real IMAP server over TLS, then from a Maildir.
"$ESTAFETTE" run game >/dev/null   # France's turn resolves with the newest orders
chmod 755 "$WORK"   # dovecot's unprivileged auth and mail processes must reach their files
start_imapd "$WORK/imapd"
git -C game config estafette.imapurl "imaps://127.0.0.1:$IMAPS_PORT/INBOX"
git -C game config estafette.imapuser "$IMAP_USER"
git -C game config estafette.imapcafile "$IMAP_CA"
echo "$IMAP_PASS" > "$ESTAFETTE_HOME/imap-password"
chmod 600 "$ESTAFETTE_HOME/imap-password"
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
stop_imapd

mkdir -p md/new md/cur md/tmp
"$ESTAFETTE" run game >/dev/null
f=$(signed france 1)
mail_of plain "$f" > md/new/1.eml
expect_exit 0 "$ESTAFETTE" fetch game --maildir md
ls md/cur | grep -q ':2,S' || fail "the Maildir message was not marked seen"
git -C game fsck --strict --no-progress || fail "git fsck --strict"
echo "mail_intake: $seq client styles accepted, refusals answered, IMAP and Maildir fetch held"
