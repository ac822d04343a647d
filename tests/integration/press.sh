#!/bin/bash
# Press settings (issue 5, item 7): game.json "press" mode full / public /
# none, enforced on every order; press mailed at once with --press-by-mail
# (to its readers only, once), and always an event of the step seen by its
# readers and its sender (private press never in the public report).
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
make_players

send() {  # game player press-json -> exit status of submit
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$1" "$2" 1 '[]' --press "$3" > "$2.json"
	rm -f "$2.json.sig" && ssh-keygen -q -Y sign -f "$2" -n estafette-orders "$2.json"
	"$ESTAFETTE" submit "$1" "$2.json" 2>&1
}
for mode in public none; do
	"$ESTAFETTE" new "$mode" --ruleset napoleonic-empire --players players.json --press "$mode" >/dev/null
	"$ESTAFETTE" run "$mode" >/dev/null
done
out=$(send public france '[{"to": ["allies"], "text": "a secret"}]') && fail "private press in a public-press game"
grep -q 'has public press only' <<<"$out" || fail "$out"
send public france '[{"to": "all", "text": "to everyone"}]' >/dev/null || fail "public press refused"
out=$(send none france '[{"to": "all", "text": "hello"}]') && fail "press in a no-press game"
grep -q 'this game has no press' <<<"$out" || fail "$out"
send none france '[]' >/dev/null || fail "an order without press refused in a no-press game"
expect_exit 64 "$ESTAFETTE" new bad --ruleset napoleonic-empire --players players.json --press loud

"$ESTAFETTE" new mail --ruleset napoleonic-empire --players players.json --press-by-mail >/dev/null
"$ESTAFETTE" run mail >/dev/null
pending=$ESTAFETTE_HOME/outbox/mail/pending
send mail france '[{"to": ["allies"], "text": "Meet me in Vienna"}]' >/dev/null
ls "$pending"/press-*-allies.eml >/dev/null 2>&1 || fail "the press was not mailed at once: $(ls "$pending")"
ls "$pending"/press-*-france.eml >/dev/null 2>&1 && fail "the sender got its own press"
grep -q "Meet me in Vienna" "$pending"/press-*-allies.eml || fail "the press mail lacks the text"
"$ESTAFETTE" run mail >/dev/null
grep -q "Meet me in Vienna" mail/turns/0002/report.txt && fail "private press in the public report"
for p in allies france; do
	"$ESTAFETTE" report mail --step 2 --player "$p" > "report-$p.txt"
	grep -q "Meet me in Vienna" "report-$p.txt" || fail "$p's report lacks the press"
done
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["press"] == {"mode": "full", "delivery": "mail"}, d' mail/game.json
echo "press: modes full, public and none, and press by mail hold"
