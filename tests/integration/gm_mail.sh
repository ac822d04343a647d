#!/bin/bash
# The GM in the loop (docs/mail.md), through the real mail path: `receive`
# as procmail feeds it, `fetch` from a real IMAP server (dovecot), and every
# answer taken by a real SMTP server on loopback.
#
#   - two addresses: notices go to the GM's own address (estafette.gmaddress),
#     never to the orders address; unset, or set to the orders address, they
#     are kept on disk with a warning;
#   - a player's mail without orders, as Thunderbird, Gmail, Outlook and an
#     iPhone write it, is passed on to the GM with Reply-To the player, once;
#     the player is told it was passed on, not refused;
#   - bounces as Postfix, Exim, qmail, Gmail and Sendmail write them
#     (tests/mail/bounces/) mark the player unreachable in `status`, and the GM
#     hears once per episode; delay warnings are no bounces; a forged bounce
#     marks nobody; mail from the player ends the episode;
#   - mail commands help, status, report, report N answer a player, never a
#     stranger or a machine, within the hourly limit; report 999, report -1.
set -euo pipefail
source "$TOP/tests/lib.sh"
source "$TOP/tests/helpers/imapd.sh"
need_pkgs dovecot-imapd
scratch
IMAPD_DIR=${IMAPD_DIR:-}
trap 'stop_smtpd; stop_imapd 2>/dev/null; rm -rf "$WORK"' EXIT
cd "$WORK"
make_players
"$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json >/dev/null
start_smtpd "$WORK/mail"
git -C game config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
git -C game config estafette.sender "Game <orders@example.org>"
"$ESTAFETTE" run game >/dev/null
BOUNCES=$TOP/tests/mail/bounces
GMNOTES=$ESTAFETTE_HOME/games/game/gm-notices

chat() {  # client [make_mail args...] > message
	local style=$1; shift
	"$PY" "$TOP/tests/helpers/make_mail.py" "$style" --from "${FROM:-France player <france@example.org>}" \
		--to "Game <orders@example.org>" "$@"
}
receive() {  # expected-status message-file
	expect_exit 0 "$ESTAFETTE" receive game --json < "$2"
	got=$(json_get 'd["status"]' < "$WORK/last.out")
	[ "$got" = "$1" ] || fail "$2: status $got, expected $1: $(cat "$WORK/last.out")"
}
field() { json_get "$1" < "$WORK/last.out"; }
# mails PYTHON-CONDITION-ON-m: how many messages the SMTP server took that match it
mails() {
	"$PY" - "$WORK/mail" "$1" <<'PY'
import email, email.policy, pathlib, sys
n = 0
for p in sorted(pathlib.Path(sys.argv[1]).glob("*.eml")):
    m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
    body = m.get_body(("plain",))
    text = body.get_content() if body else ""
    to = str(m["To"])
    if eval(sys.argv[2]):
        n += 1
print(n)
PY
}

# --- Two addresses: no GM address, then the orders address given as the GM's ---
chat thunderbird --subject "Away next week" > away.eml
receive forwarded away.eml
[ "$(field 'd["gm"]')" = kept ] || fail "with no gmaddress the notice was not kept: $(cat "$WORK/last.out")"
field '" ".join(d["warnings"])' | grep -q "estafette.gmaddress is not set" || fail "no warning names gmaddress"
ls "$GMNOTES"/forward-*.txt >/dev/null || fail "the notice was not kept in gm-notices/"
grep -q "I am away next week" "$GMNOTES"/forward-*.txt || fail "the kept notice lacks the player's text"
[ "$(mails '"orders@example.org" in to')" = 0 ] || fail "a notice went to the orders address"
expect_exit 0 "$ESTAFETTE" status game
grep -q "^notices to the GM cannot be mailed: set your own address" "$WORK/last.out" &&
	grep -q "^notices kept for the GM: 1 in .*/gm-notices" "$WORK/last.out" || fail "status: $(cat "$WORK/last.out")"
# A player's clone, on a host without the game's secrets, is not told to set the GM's address.
git clone -q game player-clone
mkdir -p player-home
ESTAFETTE_HOME=$WORK/player-home expect_exit 0 "$ESTAFETTE" status player-clone
! grep -q "GM" "$WORK/last.out" || fail "a player's status speaks of the GM's mail: $(cat "$WORK/last.out")"
[ "$(ESTAFETTE_HOME=$WORK/player-home "$ESTAFETTE" status player-clone --json | json_get 'd["gm_host"]')" = False ] ||
	fail "status --json of a player's clone says gm_host"
[ "$(mails '"france@example.org" in to and "PASSED ON TO THE GM" in text')" = 1 ] ||
	fail "the player was not told the message was passed on"
git -C game config estafette.gmaddress "GM <ORDERS@example.org>"
chat gmail --subject "A rules question" > rules.eml
receive forwarded rules.eml
[ "$(field 'd["gm"]')" = kept ] || fail "the orders address was taken as the GM's"
field '" ".join(d["warnings"])' | grep -q "the game's orders address" || fail "no warning that it is the orders address"
[ "$(mails '"orders@example.org" in to.lower()')" = 0 ] || fail "a notice went to the orders address"

# The guards' notices too: a run with a GM address that is no address keeps them.
git -C game config estafette.gmaddress "GM <gm at example.net>"
receive forwarded "$(chat iphone --subject "bad gm address" > bad.eml; echo bad.eml)"
field '" ".join(d["warnings"])' | grep -q "git config estafette.gmaddress" || fail "a bad gmaddress is not named"

# --- Players' mail without orders, passed on to the GM ---
git -C game config estafette.gmaddress "Game Master <gm@example.net>"
echo "a picture of my map" > map.txt
for client in thunderbird gmail outlook iphone; do
	chat "$client" --subject "From $client" --text "Question from $client:\\nmay I move twice?" > "$client.eml"
	receive forwarded "$client.eml"
	[ "$(field 'd["gm"]')" = mailed ] || fail "$client: not mailed to the GM"
done
chat iphone --subject "With attachment" --attach map.txt > attached.eml
receive forwarded attached.eml
receive forwarded attached.eml   # handed over twice: passed on once
"$PY" - "$WORK/mail" <<'PY' || fail "the forwarded messages"
import email, email.policy, pathlib, sys
msgs = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        for p in sorted(pathlib.Path(sys.argv[1]).glob("*.eml"))]
gm = [m for m in msgs if "gm@example.net" in str(m["To"])]
subjects = sorted(str(m["Subject"]) for m in gm)
assert len(gm) == 5, f"{len(gm)} messages to the GM: {subjects}"
for client in ("thunderbird", "gmail", "outlook", "iphone"):
    m = next(m for m in gm if f"From {client}" in str(m["Subject"]))
    text = m.get_body(("plain",)).get_content()
    assert str(m["Reply-To"]) == "france@example.org", f"{client}: Reply-To {m['Reply-To']}"
    assert str(m["From"]).endswith("<orders@example.org>"), f"{client}: From {m['From']}"
    assert m["In-Reply-To"], f"{client}: does not thread with the player's message"
    assert f"Question from {client}:" in text and "may I move twice?" in text, f"{client}: {text!r}"
    assert "From: france@example.org" in text and f"Subject: From {client}" in text, text
    assert "Date: " in text
att = next(m for m in gm if "With attachment" in str(m["Subject"]))
names = [p.get_filename() for p in att.iter_attachments()]
assert names == ["original.eml"], names
orig = email.message_from_bytes(next(att.iter_attachments()).get_content(), policy=email.policy.default)
assert [p.get_filename() for p in orig.iter_attachments()] == ["map.txt"], "original.eml is not the player's mail"
print(f"forwarded: {len(gm)} to the GM, each with Reply-To the player")
PY

# A stranger's mail is refused as before; a machine's is ignored; neither reaches the GM.
FROM="Mallory <mallory@example.net>" chat gmail --subject "hello" > stranger.eml
receive stranger stranger.eml
chat gmail --subject "Out of office" --header "Auto-Submitted: auto-replied" > ooo.eml
receive ignored ooo.eml
[ "$(mails '"gm@example.net" in to')" = 5 ] || fail "a stranger's or a machine's mail reached the GM"
# A message that tried to be orders (a signature, no order file) is refused to the player, not passed on.
printf 'From: france@example.org\nSubject: orders\nMessage-ID: <sigonly@x>\n\n-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n' > sigonly.eml
receive refused sigonly.eml

# --- Mail commands ---
join game france allies   # step 1 resolved: reports mailed
for cmd in help status report "  REPORT 1 " "Status"; do
	n=$((${n:-0} + 1))
	chat gmail --subject "$cmd" --header "Message-ID: <cmd-$n@example.org>" > "cmd$n.eml"
	receive command "cmd$n.eml"
	[ "$(field 'd["answer"]')" = queued ] || fail "$cmd: $(cat "$WORK/last.out")"
done
receive command cmd1.eml
[ "$(field 'd["answer"]')" = duplicate ] || fail "a command handed over twice was answered twice"
"$PY" - "$WORK/mail" <<'PY' || fail "the answers to mail commands"
import email, email.policy, pathlib, sys
msgs = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        for p in sorted(pathlib.Path(sys.argv[1]).glob("*.eml"))]
answers = [m for m in msgs if str(m["In-Reply-To"] or "").startswith("<cmd-")]
by = {str(m["In-Reply-To"]): m for m in answers}
assert len(answers) == 5, f"{len(answers)} answers to 5 commands"
assert all(str(m["To"]) == "france@example.org" for m in answers)
text = lambda i: by[f"<cmd-{i}@example.org>"].get_body(("plain",)).get_content()
assert "ssh-keygen -Y sign" in text(1) and "report N" in text(1), text(1)
assert "awaits step 2" in text(2) and "Your orders are awaited" in text(2), text(2)
report = next(m for m in msgs if str(m["Subject"]).startswith("[game] step 1: report for France"))
mailed = report.get_body(("plain",)).get_content()
for i in (3, 4):
    got = by[f"<cmd-{i}@example.org>"]
    assert "Your report of step 1" in text(i), text(i)
    assert mailed.split("\n-- \n")[0].strip()[:400] in text(i), "not the report the run mailed"
    # the latest report, as mailed: with the order file for the step open now
    assert sorted(p.get_filename() for p in got.iter_attachments()) == \
        ["map.svg", "orders-0002-france.json", "report.html"], [p.get_filename() for p in got.iter_attachments()]
print(f"commands: {len(answers)} answered")
PY
# A sealed game: the report a command sends is the player's own view, the very text the
# GM's `report --player` renders from it, and holds none of the other hand's cards.
"$ESTAFETTE" new sg --ruleset napoleonic-empire --players players.json --sealed >/dev/null
git -C sg config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
git -C sg config estafette.sender "Game <sg@example.org>"
git -C sg config estafette.gmaddress "gm@example.net"
join sg france allies
for p in france allies; do
	FROM="$p <$p@example.org>" chat gmail --subject report --header "Message-ID: <sealed-$p@example.org>" > "sr-$p.eml"
	expect_exit 0 "$ESTAFETTE" receive sg --json < "sr-$p.eml"
	"$ESTAFETTE" report sg --player "$p" --format text > "view-$p.txt"
	"$ESTAFETTE" report sg --player "$p" --format json | json_get '"\n".join(c["name"] for c in d["view"]["hand"])' > "hand-$p.txt"
done
"$PY" - "$WORK/mail" <<'PY' || fail "a sealed game's report by mail command"
import email, email.policy, pathlib, sys
msgs = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        for p in sorted(pathlib.Path(sys.argv[1]).glob("*.eml"))]
for me, other in (("france", "allies"), ("allies", "france")):
    m = next(m for m in msgs if str(m["In-Reply-To"]) == f"<sealed-{me}@example.org>")
    text = m.get_body(("plain",)).get_content().replace("\r\n", "\n")
    view = open(f"view-{me}.txt").read()
    assert view.strip()[:2000] in text, f"{me}: not the player's own view"
    files = sorted(p.get_filename() for p in m.iter_attachments())
    # the order file only for the player step 2 awaits (France moves first)
    assert files == ["map.svg"] + (["orders-0002-france.json"] if me == "france" else []) + ["report.html"], files
    mine, theirs = (set(open(f"hand-{p}.txt").read().split("\n")) - {""} for p in (me, other))
    assert all(c in text for c in mine) and (mine or me == "allies"), f"{me}: its hand is not in its report"
    leaked = [c for c in theirs - mine if c in text]
    assert not leaked, f"{me}'s report names {other}'s cards {leaked}"
print("sealed: each report by command is the player's own view")
PY

# Not commands: a reply, a sentence; they go to the GM.
for subject in "Re: status" "report on the battle"; do
	chat gmail --subject "$subject" > notcmd.eml
	receive forwarded notcmd.eml
done
# A step that is no step: answered with the range, nothing else.
for arg in 999 -1 x 0; do
	chat gmail --subject "report $arg" > "bad$arg.eml"
	receive command "bad$arg.eml"
done
[ "$(mails '"there is no report of that step. Steps 1 to 1 are resolved" in text')" = 4 ] ||
	fail "report 999/-1/x/0 not answered with the steps there are"
# Never to a stranger or a machine; orders win over a command subject.
FROM="Mallory <mallory@example.net>" chat gmail --subject report > s-cmd.eml
receive stranger s-cmd.eml
chat gmail --subject report --header "Auto-Submitted: auto-replied" > auto-cmd.eml
receive ignored auto-cmd.eml
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game france 1 '[]' > o.json
ssh-keygen -q -Y sign -f france -n estafette-orders o.json < /dev/null
"$PY" "$TOP/tests/helpers/make_mail.py" attachments --order o.json --sig o.json.sig \
	--from "France player <france@example.org>" --to orders@example.org | sed 's/^Subject: Orders$/Subject: status/' > ocmd.eml
grep -q "^Subject: status" ocmd.eml || fail "the test could not set the subject"
receive accepted ocmd.eml
[ "$(mails '"mallory@example.net" in to and "report" in str(m["Subject"])')" = 0 ] || fail "a stranger's command was answered"
# The hourly limit: the allies ask twelve times, ten are answered.
for i in $(seq 12); do
	FROM="Allied player <allies@example.org>" chat outlook --subject status > "a$i.eml"
	receive command "a$i.eml"
done
grep -c '"answer":"limited"' "$ESTAFETTE_HOME/games/game/intake.log" | grep -qx 2 || fail "the limit did not hold"
[ "$(mails '"allies@example.org" in to and str(m["Subject"]) == "[game] status"')" = 10 ] ||
	fail "not ten answers in the hour"
# Anyone can forge the allies' From: using up "status" must not silence "help".
FROM="Allied player <allies@example.org>" chat outlook --subject help > a-help.eml
receive command a-help.eml
[ "$(field 'd["answer"]')" = queued ] || fail "help was silenced by the status limit: $(cat "$WORK/last.out")"
# Nor may forged chat flood the GM: ten an hour are passed on, then none (and no receipt).
for i in $(seq 11); do
	chat gmail --subject "question $i" > "q$i.eml"
	receive forwarded "q$i.eml"
done
[ "$(field 'd["gm"]')" = limited ] || fail "the eleventh forward in an hour: $(cat "$WORK/last.out")"
[ "$(mails '"gm@" in to and "question" in str(m["Subject"])')" -le 10 ] || fail "more than ten forwards in the hour"

# --- Bounces ---
msgid() {  # player: the Message-ID of the report of step 1 we sent them
	grep -h -i '^Message-ID:' "$ESTAFETTE_HOME/outbox/game/sent/0001-$1.eml" | head -1 | sed 's/.*<\(.*\)>.*/\1/'
}
bounce() {  # fixture player [msgid] > message
	sed -e "s/{MSGID}/${3:-$(msgid "$2")}/g" -e "s/{RCPT}/$2@example.org/g" \
		-e "s/{ORDERS}/orders@example.org/g" "$BOUNCES/$1.eml"
}
gm_bounce_notices() { mails '"gm@example.net" in to and "bounces" in str(m["Subject"])'; }
for f in postfix-delayed exim-delayed; do
	bounce "$f" france > "$f.eml"
	receive ignored "$f.eml"
	[ "$(field '"bounce" in d')" = False ] || fail "$f: a delay warning taken for a bounce"
done
bounce forged france forged.0001.france@example.org > forged.eml
receive ignored forged.eml
[ "$(field 'd["bounce"]["matched"]')" = "[]" ] || fail "a forged bounce with an id we never sent marked a player"
bounce forged france "$(msgid allies)" > forged2.eml   # our id, but it went to the allies
receive ignored forged2.eml
[ "$(field 'd["bounce"]["matched"]')" = "[]" ] || fail "a bounce naming france marked someone with the allies' id"
expect_exit 0 "$ESTAFETTE" status game --json
[ "$(field 'd["unreachable"]')" = "[]" ] || fail "unreachable after forged bounces: $(cat "$WORK/last.out")"
n=0
for f in postfix exim qmail gmail sendmail; do
	bounce "$f" france > "$f.eml"
	receive ignored "$f.eml"
	[ "$(field 'd["bounce"]["matched"]')" = "['france']" ] || fail "$f: not matched: $(cat "$WORK/last.out")"
	n=$((n + 1))
done
expect_exit 0 "$ESTAFETTE" status game --json
[ "$(field '[(u["player"], u["bounces"]) for u in d["unreachable"]]')" = "[('france', 5)]" ] ||
	fail "status --json: $(cat "$WORK/last.out")"
[ "$(field 'd["unreachable"][0]["status"]')" = 5.1.2 ] || fail "the latest bounce's status is not kept"
expect_exit 0 "$ESTAFETTE" status game
grep -q "^unreachable: france since .*5 bounces (5\.[0-9.]*: " "$WORK/last.out" || fail "status: $(cat "$WORK/last.out")"
[ "$(gm_bounce_notices)" = 1 ] || fail "$(gm_bounce_notices) notices to the GM for one bounce episode"
receive ignored postfix.eml   # the same bounce again: counted, not told
[ "$(gm_bounce_notices)" = 1 ] || fail "a repeated bounce told the GM again"
# Mail from the player's address does not end the episode (anyone can forge it); signed
# orders of their own do. The next bounce starts one and the GM hears again.
chat thunderbird --subject "back" > back.eml
receive forwarded back.eml
[ "$(field 'd.get("reachable_again")')" = None ] || fail "forged chat ended the episode"
expect_exit 0 "$ESTAFETTE" status game --json
[ "$(field '[u["player"] for u in d["unreachable"]]')" = "['france']" ] || fail "chat cleared the mark"
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game france 2 '[]' > back.json
ssh-keygen -q -Y sign -f france -n estafette-orders back.json < /dev/null
"$PY" "$TOP/tests/helpers/make_mail.py" attachments --order back.json --sig back.json.sig \
	--from "France player <france@example.org>" --to orders@example.org > back2.eml
receive accepted back2.eml
[ "$(field 'd["reachable_again"]')" = True ] || fail "signed orders did not end the episode"
expect_exit 0 "$ESTAFETTE" status game --json
[ "$(field 'd["unreachable"]')" = "[]" ] || fail "still unreachable: $(cat "$WORK/last.out")"
sed 's/^Message-Id: <2026/Message-Id: <again-2026/' postfix.eml > postfix2.eml
receive ignored postfix2.eml
[ "$(gm_bounce_notices)" = 2 ] || fail "a new episode did not tell the GM"
# A damaged record: the bounce is still taken (exit 0, a warning), status names the file.
cp "$ESTAFETTE_HOME/games/game/unreachable.json" unreachable.saved
echo '{not json' > "$ESTAFETTE_HOME/games/game/unreachable.json"
sed 's/^Message-Id: <2026/Message-Id: <third-2026/' postfix.eml > postfix3.eml
receive ignored postfix3.eml
field '" ".join(d["warnings"])' | grep -q "unreachable.json: not a JSON object" || fail "no warning of the damaged record"
expect_exit 65 "$ESTAFETTE" status game
grep -q "unreachable.json: not a JSON object of players; remove the file" "$WORK/last.err" || fail "status: $(cat "$WORK/last.err")"
cp unreachable.saved "$ESTAFETTE_HOME/games/game/unreachable.json"

# --- fetch from a real IMAP server: a question, a command and a bounce ---
chmod 755 "$WORK"
start_imapd "$WORK/imapd"
imapd_game game "$ESTAFETTE_HOME"
FROM="Allied player <allies@example.org>" chat outlook --subject "Can France see my cards?" > q.eml
FROM="Allied player <allies@example.org>" chat iphone --subject help \
	--header "Message-ID: <fetch-help@example.org>" > h.eml
bounce exim allies | sed 's/^Message-Id: <E1/Message-Id: <F1/' > b.eml
for f in q.eml h.eml b.eml; do imapd_deliver "$f"; done
expect_exit 0 "$ESTAFETTE" fetch game --json
[ "$(field 'sorted(m["status"] for m in d["messages"])')" = "['command', 'forwarded', 'ignored']" ] ||
	fail "fetch: $(cat "$WORK/last.out")"
[ "$(field '[m["bounce"]["matched"] for m in d["messages"] if "bounce" in m]')" = "[['allies']]" ] ||
	fail "the fetched bounce: $(cat "$WORK/last.out")"
[ "$(mails '"gm@example.net" in to and "Can France see my cards?" in text')" = 1 ] ||
	fail "the fetched question did not reach the GM"
expect_exit 0 "$ESTAFETTE" fetch game --json
[ "$(field 'd["handled"]')" = 0 ] || fail "a second fetch found unseen mail"
stop_imapd
echo "gm_mail: two addresses, forwarding, bounces, mail commands through receive, fetch and SMTP"
