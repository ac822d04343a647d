#!/bin/bash
# What real players' mail programs do to order files, through the real mail
# path (`receive` as an MTA pipes it, `fetch` from dovecot, receipts through a
# real SMTP server): a Notepad file (CRLF, no final line end) attached in
# base64, attached as text (its line ends rewritten in transit) or pasted is
# recorded byte for byte as signed; a file with a BOM gets the message
# `check` gives; orders pasted with the signature attached, and files renamed
# past a filter, pair by content; a body hard-wrapped at 72 columns is
# unwrapped where the JSON makes it certain, and told to attach the files
# where it does not; a message cut off in transit is told to send again. The
# receipts say each thing once: already recorded, replaced by seq N, the key
# the game expects, the press sent, and the signed receipt attached.
set -euo pipefail
source "$TOP/tests/lib.sh"
source "$TOP/tests/helpers/imapd.sh"
need_pkgs dovecot-imapd
scratch
trap 'stop_imapd 2>/dev/null; stop_smtpd; rm -rf "$WORK"' EXIT
cd "$WORK"
make_players
expect_exit 0 "$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json --id ne-mc
start_smtpd "$WORK/mail"
git -C game config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
git -C game config estafette.sender "Game <orders@example.org>"
join game france allies

order() {  # player seq [make_order args...]: the order file, LF, signed, as o<seq>.json
	local p=$1 seq=$2; shift 2
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$p" "$seq" '[]' "$@" > "o$seq.json"
	ssh-keygen -q -Y sign -f "$p" -n estafette-orders "o$seq.json" < /dev/null
	echo "o$seq.json"
}
notepad() {  # player seq: the same saved by Notepad (CRLF, no final line end), signed
	local p=$1 seq=$2
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$p" "$seq" '[]' |
		sed -e 's/$/\r/' | head -c -2 > "w$seq.json"
	ssh-keygen -q -Y sign -f "$p" -n estafette-orders "w$seq.json" < /dev/null
	echo "w$seq.json"
}
mail_of() {  # style file [make_mail args...]
	local style=$1 f=$2; shift 2
	"$PY" "$TOP/tests/helpers/make_mail.py" "$style" --order "$f" --sig "$f.sig" \
		--from "France player <france@example.org>" --to "Game <orders@example.org>" "$@"
}
receive() {  # expected-status message-file
	expect_exit 0 "$ESTAFETTE" receive game --json < "$2"
	got=$(json_get 'd["status"]' < "$WORK/last.out")
	[ "$got" = "$1" ] || fail "$2: status $got, expected $1: $(head -c 1500 "$WORK/last.out")"
}
recorded_is() {  # file: main's orders/france.json is that file, byte for byte
	cmp "$1" <(git -C game show main:orders/france.json) || fail "$1 is not recorded as signed"
}
receipt_of() {  # message-file: the text of the receipt that answered it, from the SMTP server
	"$PY" - "$WORK/mail" "$1" <<'PY'
import email, email.policy, pathlib, sys
want = email.message_from_bytes(pathlib.Path(sys.argv[2]).read_bytes(),
                                policy=email.policy.default)["Message-ID"]
for p in sorted(pathlib.Path(sys.argv[1]).glob("*.eml")):
    m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
    if m["In-Reply-To"] == want:
        body = m.get_body(("plain",))
        sys.stdout.write(body.get_content())
        break
else:
    raise SystemExit("no receipt answers " + want)
PY
}
has() {  # text pattern what
	grep -qF -- "$2" <<< "$1" || fail "$3: the receipt lacks \"$2\":"$'\n'"$1"
}
lacks() {
	! grep -qF -- "$2" <<< "$1" || fail "$3: the receipt says \"$2\":"$'\n'"$1"
}

# 1. Notepad's file: base64 attachment, text attachment (LF in transit), pasted.
expect_exit 0 "$ESTAFETTE" check game "$(notepad france 1)"
mail_of attachments w1.json > win-b64.eml
receive accepted win-b64.eml
recorded_is w1.json
mail_of text-attachment "$(notepad france 2)" > win-text.eml
grep -q $'\r' <(sed -n '/filename="orders.json"/,/^--/p' win-text.eml) &&
	fail "the text attachment still has CRLF: the test does not rewrite line ends"
receive accepted win-text.eml
recorded_is w2.json
mail_of plain "$(notepad france 3)" > win-pasted.eml
receive accepted win-pasted.eml
recorded_is w3.json

# 2. A BOM in the file as signed: the message check gives, not "does not verify".
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game france 4 '[]' > bom.body
{ printf '\xef\xbb\xbf'; cat bom.body; } > bom.json
ssh-keygen -q -Y sign -f france -n estafette-orders bom.json < /dev/null
expect_exit 65 "$ESTAFETTE" check game bom.json
check_says=$(grep -o 'starts with a UTF-8 byte-order mark[^;]*' "$WORK/last.err" | head -1)
[ -n "$check_says" ] || fail "check does not name the BOM: $(cat "$WORK/last.err")"
mail_of attachments bom.json > bom.eml
receive refused bom.eml
text=$(receipt_of bom.eml)
has "$text" "$check_says" "a BOM"
lacks "$text" "does not verify" "a BOM"
lacks "$text" "changed after signing" "a BOM"

# 3. Pair by content: pasted orders with the signature attached; renamed files; by IMAP.
mail_of sig-attached "$(order france 5)" > sig-attached.eml
receive accepted sig-attached.eml
recorded_is o5.json

# 4. Hard-wrapped at 72 columns: the prev line breaks after its ':' and the press inside
# its string; with double spaces in the press, a wrap cannot be undone: attach instead.
mail_of wrapped "$(order france 6 --press '[{"to": ["allies"], "text": "Vive l Empereur ! L armee d Italie marche sur Milan sans delai, vite et en bon ordre, avant l hiver."}]')" > wrapped.eml
[ "$(awk '{ if (length($0) > 72) n++ } END { print n + 0 }' wrapped.eml)" = 0 ] ||
	fail "wrapped.eml has lines over 72 columns"
receive accepted wrapped.eml
recorded_is o6.json
text=$(receipt_of wrapped.eml)
has "$text" "Press sent with it:" "press"
has "$text" "to allies: Vive l Empereur !" "press"
has "$text" "It replaces seq 5, recorded before" "a replaced seq"
mail_of wrapped "$(order france 7 --press '[{"to": ["allies"], "text": "Two  spaces  between  every  word  of  this  press,  so  that  the  wrap  falls  on  two."}]')" > wrapped2.eml
receive refused wrapped2.eml
text=$(receipt_of wrapped2.eml)
has "$text" "your mail program wrapped the long lines of the order file" "an undoable wrap"
has "$text" "attach the order file and its .sig" "an undoable wrap"

# 5. Cut off in transit: send it again, not "fix the file".
mail_of truncated "$(order france 8)" > cut.eml
receive refused cut.eml
[ -n "$(json_get 'd.get("truncated", "")' < "$WORK/last.out")" ] || fail "not logged as truncated"
text=$(receipt_of cut.eml)
has "$text" "arrived cut off" "a cut message"
has "$text" "Send it again" "a cut message"
lacks "$text" "sign it again" "a cut message"
mail_of attachments o8.json > whole.eml
receive accepted whole.eml
expect_exit 0 "$ESTAFETTE" status game
grep -q "^every file is in: the next run resolves the step" "$WORK/last.out" || fail "status: $(cat "$WORK/last.out")"

# 14. Receipts: already recorded; replaced by seq N in one message; the key the game
# expects; the signed receipt attached, which ssh-keygen accepts.
receive duplicate whole.eml
text=$(receipt_of whole.eml)   # the first receipt for this Message-ID: it is answered once
has "$text" "ACCEPTED: orders of france for step 2, seq 8 (attachment orders.json)" "accepted"
sed 's/^Message-ID: .*/Message-ID: <again@example.org>/' whole.eml > again.eml
receive duplicate again.eml
text=$(receipt_of again.eml)
has "$text" "ALREADY RECORDED" "a duplicate"
lacks "$text" "REFUSED" "a duplicate"
order france 9 > /dev/null
mail_of reply "$(order france 10)" --older o9.json --older-sig o9.json.sig > two.eml
receive accepted two.eml
"$PY" - two.eml o9.json o9.json.sig > two-top.eml <<'PY'
import sys
# o9 pasted at the top level too: both are the sender's own, and seq 10 wins
msg = open(sys.argv[1]).read()
head, _, body = msg.partition("\n\n")
print(head + "\n\n" + open(sys.argv[2]).read() + "\n" + open(sys.argv[3]).read() + "\n" + body, end="")
PY
sed -i 's/^Message-ID: .*/Message-ID: <two-top@example.org>/' two-top.eml
order france 11 > /dev/null
mail_of plain o11.json > eleven.eml
"$PY" - eleven.eml "$(order france 12)" > both.eml <<'PY'
import sys
msg = open(sys.argv[1]).read()
twelve = open(sys.argv[2]).read() + "\n" + open(sys.argv[2] + ".sig").read()
print(msg.replace("Vive l'Empereur !", twelve + "\nVive l'Empereur !"), end="")
PY
receive accepted both.eml
text=$(receipt_of both.eml)
has "$text" "ACCEPTED: orders of france for step 2, seq 12" "two orders"
has "$text" "seq 11, replaced by seq 12 from this message" "two orders"
ssh-keygen -q -t ed25519 -N '' -C new -f newkey
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game france 13 '[]' > o13.json
ssh-keygen -q -Y sign -f newkey -n estafette-orders o13.json < /dev/null
mail_of attachments o13.json > newkey.eml
receive refused newkey.eml
text=$(receipt_of newkey.eml)
expected=$(ssh-keygen -lf france.pub | cut -d' ' -f2)
has "$text" "which holds ssh-ed25519 key $expected for \"france\"" "a new key"
has "$text" "$(ssh-keygen -lf newkey.pub | cut -d' ' -f2)" "a new key"
save_receipts "$WORK/mail" saved
[ -s saved/receipt-0002-france-12.json ] || fail "no signed receipt attached to the mail receipt: $(ls saved)"
ssh-keygen -Y verify -f game/keys/allowed_signers -I gm -n estafette-receipt \
	-s saved/receipt-0002-france-12.json.sig < saved/receipt-0002-france-12.json >/dev/null ||
	fail "ssh-keygen does not accept the mailed receipt"
mkdir proof && cp saved/receipt-0002-france-1[02].json* proof/
expect_exit 0 "$ESTAFETTE" audit game --receipts proof

# One message, two players' files (the join awaits both): the sender's own is recorded,
# not the one they quote, whatever the seqs; a file relayed alone is recorded, and its
# owner gets the receipt of their own file, nothing of the relayer's message.
two() {  # game france-seq: allies' own seq 1 in the body, quoting france's signed file
	expect_exit 0 "$ESTAFETTE" new "$1" --ruleset napoleonic-empire --players players.json --id "ne-$1"
	"$ESTAFETTE" run "$1" >/dev/null
	rm -f f2.json.sig a2.json.sig
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$1" france "$2" '[]' > f2.json
	ssh-keygen -q -Y sign -f france -n estafette-orders f2.json < /dev/null
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$1" allies 1 '[]' > a2.json
	ssh-keygen -q -Y sign -f allies -n estafette-orders a2.json < /dev/null
	{ printf 'From: Allied player <allies@example.org>\nTo: orders@example.org\nSubject: Re: deal\n'
	  printf 'Message-ID: <deal-%s@example.org>\nContent-Type: text/plain; charset=utf-8\n\n' "$1"
	  cat a2.json a2.json.sig
	  printf '\nOn Monday, France player wrote:\n> My signed orders:\n'
	  sed 's/^/> /' f2.json f2.json.sig; } > deal.eml
	expect_exit 0 "$ESTAFETTE" receive "$1" --json < deal.eml
	[ "$(json_get 'd["status"]' < "$WORK/last.out")" = accepted ] || fail "$1: $(cat "$WORK/last.out")"
	cmp a2.json <(git -C "$1" show main:orders/allies.json) || fail "$1: the allies' own file is not recorded"
	! git -C "$1" cat-file -e main:orders/france.json 2>/dev/null || fail "$1: the quoted file of france was recorded"
}
two g2 2
two g3 1
# The invitation carries the join's file, filled in: estafette sign fills its entropy
# and signs it, and mailed back it is accepted.
"$PY" - "$ESTAFETTE_HOME/outbox/ne-g2/pending/0001-france-join.eml" <<'PY' > invited.json || fail "the invitation's file"
import email, email.policy, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
(att,) = [p for p in m.iter_attachments() if p.get_filename() == "orders-0001-france.json"]
sys.stdout.buffer.write(att.get_payload(decode=True))
PY
grep -q '"estafette sign fills this in"' invited.json || fail "the invitation's file: $(cat invited.json)"
expect_exit 0 "$ESTAFETTE" status g2 --json   # no SMTP server: the invitations wait, and status says so
[ "$(json_get 'd["mail_pending"]' < "$WORK/last.out")" -gt 0 ] || fail "status shows no mail waiting"
# A GM who fills the entropy in himself would know the join files, and the set-up draws,
# before the players sign: estafette sign gives fresh entropy to any file it has not
# signed as it is, and leaves one it has signed alone.
chosen=1111111111111111111111111111111111111111111111111111111111111111
sed "s/estafette sign fills this in/$chosen/" invited.json > chosen.json
expect_exit 0 "$ESTAFETTE" sign -f france chosen.json
! grep -q "$chosen" chosen.json || fail "sign kept the entropy a GM chose"
cp chosen.json chosen-signed.json
expect_exit 0 "$ESTAFETTE" sign -f france chosen.json
cmp -s chosen.json chosen-signed.json || fail "signing a signed file again changed it"
expect_exit 0 "$ESTAFETTE" sign -f france invited.json
"$PY" "$TOP/tests/helpers/make_mail.py" attachments --order invited.json --sig invited.json.sig \
	--from "France player <france@example.org>" --to orders@example.org > invited.eml
expect_exit 0 "$ESTAFETTE" receive g2 --json < invited.eml
[ "$(json_get 'd["status"]' < "$WORK/last.out")" = accepted ] || fail "the invitation's file: $(cat "$WORK/last.out")"
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" g2 france 3 '[]' > f3.json
ssh-keygen -q -Y sign -f france -n estafette-orders f3.json < /dev/null
"$PY" "$TOP/tests/helpers/make_mail.py" attachments --order f3.json --sig f3.json.sig \
	--from "Allied player <allies@example.org>" --to orders@example.org > relay.eml
sed -i 's/^Message-ID: .*/Message-ID: <relay@example.org>/' relay.eml
expect_exit 0 "$ESTAFETTE" receive g2 --json < relay.eml
cmp f3.json <(git -C g2 show main:orders/france.json) || fail "the relayed file is not recorded"
owner=$(grep -l "^To: france@example.org" "$ESTAFETTE_HOME"/outbox/ne-g2/pending/receipt-*.eml)
[ -n "$owner" ] || fail "france got no receipt of the relayed file"
grep -q "relay@example.org" $owner && fail "france's receipt shows the relayer's message"
grep -q "^Subject: \[ne-g2\] your orders for step 1 were recorded" $owner || fail "france's receipt: $(cat $owner)"

# A body of nothing but line ends (9 MiB, under the size limit) is walked in place: it
# peaked at 467 MB when each line was a string of its own. The bound is generous; under
# AddressSanitizer (make sanitize), whose shadow memory and quarantine add hundreds of MB,
# the message is still received but its peak not judged.
san=0
case "$(ldd "$ESTAFETTE")" in *libasan*) san=1 ;; esac
"$PY" - "$ESTAFETTE" "$san" <<'PY' || fail "a body of line ends"
import resource, subprocess, sys
msg = ("From: France player <france@example.org>\nSubject: x\nMessage-ID: <lines@example.org>\n\n"
       + "\n" * (9 << 20)).encode()
subprocess.run([sys.argv[1], "receive", "game"], input=msg, check=True,
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss >> 10
assert sys.argv[2] == "1" or peak < 200, f"{peak} MB for a message of 9 MiB"
PY

# The same through dovecot: renamed files and a Notepad file as a text attachment, by fetch.
chmod 755 "$WORK"
start_imapd "$WORK/imapd"
imapd_game game "$ESTAFETTE_HOME"
mail_of renamed "$(order france 14)" > renamed.eml
mail_of text-attachment "$(notepad france 15)" > win-imap.eml
for m in renamed win-imap; do
	imapd_deliver $m.eml
	expect_exit 0 "$ESTAFETTE" fetch game --json
	[ "$(json_get '[m["status"] for m in d["messages"]]' < "$WORK/last.out")" = "['accepted']" ] ||
		fail "fetch $m: $(head -c 2000 "$WORK/last.out")"
done
recorded_is w15.json
stop_imapd

# A file for a step that is over, from a player the open step does not await: the receipt
# says whose turn it is, not how to sign it again for a step that is not theirs.
expect_exit 0 "$ESTAFETTE" run game
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game france 16 '[]' --step 2 \
	--prev "$(git -C game show step-0001:state.json | sha256sum | cut -c1-64)" > o16.json
ssh-keygen -q -Y sign -f france -n estafette-orders o16.json < /dev/null
mail_of attachments o16.json > late.eml
sed -i 's/^Message-ID: .*/Message-ID: <late@example.org>/' late.eml
expect_exit 0 "$ESTAFETTE" receive game --json < late.eml
text=$(receipt_of late.eml)
has "$text" "for step 2, which is over: player \"france\" is not awaited: step 3" "a late file"
lacks "$text" "re-sign" "a late file"
git -C game fsck --strict --no-progress || fail "git fsck --strict"
[ -z "${MAIL_CLIENTS_KEEP:-}" ] || cp -r "$WORK/mail" "$MAIL_CLIENTS_KEEP"
echo "mail_clients: Notepad files, BOM, pairing by content, wraps, cuts and receipts held"
