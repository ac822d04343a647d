#!/bin/bash
# The outbox through the real binary and a real SMTP server on loopback
# (docs/mail.md): with no server configured the reports wait
# as .eml files (mode 0600) and the run says where; with the server down the
# run exits 75 and loses nothing; a 451 leaves the reports for the next run;
# then each report arrives exactly once, all over one connection, and a
# further run sends nothing.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"

make_players
export ESTAFETTE_COMMIT_TIME=1800000000
"$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json --id ne-mail >/dev/null
outbox=$ESTAFETTE_HOME/outbox/ne-mail
# Both players' join files (step 1), submitted at the test's fixed time (lib.sh's
# join runs at the real time, which the runs below would take for a clock jump).
for p in france allies; do
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$p" 1 '[]' > "join-$p.json"
	ssh-keygen -q -Y sign -f "$p" -n estafette-orders "join-$p.json"
	expect_exit 0 "$ESTAFETTE" submit game "join-$p.json" --now @1800000000
done

# 1. No server configured: the run resolves the join, the reports (and the
# receipts of the join files) wait in the outbox, and the run says where.
expect_exit 0 "$ESTAFETTE" run game --now @1800000000
grep -q "resolved step 1" "$WORK/last.out" || fail "the run did not resolve the join: $(cat "$WORK/last.out")"
grep -q "$outbox" "$WORK/last.out" "$WORK/last.err" || fail "the run did not say where mail waits: $(cat "$WORK/last.out")"
pending=$(ls "$outbox/pending/"*.eml | wc -l)
for p in france allies; do
	grep -Eq "$(msgid_re ne-mail "0001-$p")" "$outbox/pending/0001-$p.eml" ||
		fail "no report of step 1 for $p in $outbox/pending: $(ls "$outbox/pending")"
done
[ "$(ls "$outbox/pending/"receipt-*.eml | wc -l)" -eq 2 ] || fail "expected a receipt per join file: $(ls "$outbox/pending")"
[ "$pending" -eq 4 ] || fail "expected 2 reports and 2 receipts in $outbox/pending, found: $(ls "$outbox/pending")"
for f in "$outbox/pending/"*; do
	[ "$(stat -c %a "$f")" = 600 ] || fail "$f has mode $(stat -c %a "$f"), not 600"
done
[ "$(stat -c %a "$outbox/pending")" = 700 ] || fail "$outbox/pending is not mode 700"
for f in "$outbox/pending/"*.eml; do
	[ -f "${f%.eml}.json" ] || fail "$f has no envelope"
	name=$(basename "$f" .eml)
	grep -Eq "$(msgid_re ne-mail "$name")" "$f" || fail "$f: no Message-ID <RANDOM.ne-mail.$name@$(host_domain)>"
	[ "$(grep -c '^Message-ID:' "$f")" -eq 1 ] || fail "$f: more than one Message-ID"
	grep -q "^Auto-Submitted: auto-generated" "$f" || fail "$f: no Auto-Submitted"
done

# 2. Server configured but down: exit 75, everything still pending.
port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
git -C game config estafette.smtpurl "smtp://127.0.0.1:$port"
expect_exit 75 "$ESTAFETTE" run game --now @1800000000
[ "$(ls "$outbox/pending/"*.eml | wc -l)" -eq "$pending" ] || fail "a report left pending while the server was down"

# 3. A server that answers 451 to the first message: still 75, still pending.
start_smtpd "$WORK/mail" --reject-first 1
git -C game config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
expect_exit 75 "$ESTAFETTE" run game --now @1800000000
grep -q "451" "$WORK/last.err" || fail "the 451 was not reported: $(cat "$WORK/last.err")"
[ "$(ls "$outbox/pending/"*.eml | wc -l)" -eq "$pending" ] || fail "reports moved after a 451"

# 4. The next run delivers each report once, over one connection.
expect_exit 0 "$ESTAFETTE" run game --now @1800000000
[ -z "$(ls "$outbox/pending/")" ] || fail "still pending: $(ls "$outbox/pending/")"
[ "$(ls "$outbox/sent/"*.eml | wc -l)" -eq "$pending" ] || fail "sent/ does not hold every report"
[ "$(ls "$WORK/mail/"*.eml | wc -l)" -eq "$pending" ] || fail "the server got $(ls "$WORK/mail/"*.eml | wc -l) messages, expected $pending"
for f in "$outbox/sent/"*.eml; do
	id=$(grep -m1 "^Message-ID:" "$f" | tr -d "\r")
	[ "$(grep -lx "$(printf '%s\r' "$id")" "$WORK/mail/"*.eml | wc -l)" -eq 1 ] ||
		fail "$id did not arrive exactly once"
	# The server stores what it received: the very bytes of the outbox.
	match=$(grep -lx "$(printf '%s\r' "$id")" "$WORK/mail/"*.eml)
	cmp -s "$f" "$match" || fail "$match differs from $f"
done
# connections.log: one for the 451 run, one for the run that sent them all.
[ "$(wc -l <"$WORK/mail/connections.log")" -eq 2 ] ||
	fail "expected 2 connections, got: $(cat "$WORK/mail/connections.log")"

# 5. A further run sends nothing again.
expect_exit 0 "$ESTAFETTE" run game --now @1800000000
[ "$(ls "$WORK/mail/"*.eml | wc -l)" -eq "$pending" ] || fail "a second run sent mail again"
echo "mail_outbox: $pending mails (reports and receipts) waited, survived a dead server and a 451, arrived once"
