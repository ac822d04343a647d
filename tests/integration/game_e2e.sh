#!/bin/bash
# A Napoleonic Empire game end to end with the real binary, real ssh-keygen
# keys and signatures, a real git repository and a real SMTP server on
# loopback: bad orders are refused with 65 and commit nothing; good ones are
# recorded and resolved; every player gets its own report, once.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"

make_players
"$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json --id ne-e2e >/dev/null
start_smtpd "$WORK/mail"
git -C game config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
join game france allies

order() { "$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$@"; }
sign() { ssh-keygen -q -Y sign -f "$1" -n estafette-orders "$2"; }
before=$(commits game)

# Refusals: each exits 65, names the rule, and commits nothing.
order france 1 '[]' > forged.json; sign france forged.json
sed -i 's/"seq": 1/"seq": 9/' forged.json
expect_exit 65 "$ESTAFETTE" submit game forged.json
grep -q "signature" "$WORK/last.err" || fail "forged: $(cat "$WORK/last.err")"

order france 1 '[]' > other.json; sign allies other.json
expect_exit 65 "$ESTAFETTE" submit game other.json
grep -q 'key of "allies"' "$WORK/last.err" || fail "re-signed: $(cat "$WORK/last.err")"

order france 1 '[]' --step 1 > replay.json; sign france replay.json
expect_exit 65 "$ESTAFETTE" submit game replay.json
grep -q "replayed" "$WORK/last.err" || fail "replay: $(cat "$WORK/last.err")"

order allies 1 '[]' > early.json; sign allies early.json
expect_exit 65 "$ESTAFETTE" submit game early.json
grep -q "not awaited" "$WORK/last.err" || fail "wrong player: $(cat "$WORK/last.err")"

printf '{"estafette": "orders/1", "step": 2.5}' > bad.json; sign france bad.json
expect_exit 65 "$ESTAFETTE" submit game bad.json

order france 1 '[{"type": "move", "from": "France", "to": "England", "armies": 1}]' > rules.json
sign france rules.json
expect_exit 65 "$ESTAFETTE" submit game rules.json
grep -qi "england" "$WORK/last.err" || fail "rules: $(cat "$WORK/last.err")"

[ "$(commits game)" -eq "$before" ] || fail "a refused order was committed"

# A good order, then a replacement with a higher seq, then a stale seq.
order france 1 '[]' > good.json; sign france good.json
expect_exit 0 "$ESTAFETTE" check game good.json
expect_exit 0 "$ESTAFETTE" submit game good.json
order france 2 '[{"type": "move", "from": "France", "to": "Rhineland", "armies": 4}]' \
	--press '[{"to": ["allies"], "text": "A word in private"}, {"to": "all", "text": "Vive la France"}]' \
	> better.json
sign france better.json
expect_exit 0 "$ESTAFETTE" submit game better.json
expect_exit 65 "$ESTAFETTE" submit game good.json
[ "$(commits game)" -eq $((before + 2)) ] || fail "expected two order commits"

# A file committed out of turn (as a merged pull request would) is not
# resolved, and the manifest says so with its hash.
order allies 1 '[]' > game/orders/allies.json
git -C game add orders/allies.json
git -C game -c user.name=pr -c user.email=pr@example.org commit -qm "merge pull request"
mkdir -p notagame && git -C notagame init -q

# The dice chain's checkpoints beside the secrets: private, and a damaged
# copy (here checkpoint c_9900, which step 2 starts from) is made again
# without stopping the step.
cp_file=$ESTAFETTE_HOME/games/ne-e2e/chain-checkpoints
[ "$(stat -c '%a %s' "$cp_file")" = "600 6464" ] || fail "chain-checkpoints: $(stat -c '%a %s' "$cp_file")"
printf 'damaged' | dd of="$cp_file" bs=1 seek=3170 conv=notrunc status=none
cp "$cp_file" damaged-checkpoints

expect_exit 0 "$ESTAFETTE" run --all "$WORK" --json
! cmp -s "$cp_file" damaged-checkpoints || fail "the damaged chain-checkpoints were not made again"
grep -q notagame "$WORK/last.out" && fail "run --all took a folder that is not a game"
resolved=$(json_get 'len(d[0]["resolved"])' < "$WORK/last.out")
ignored=$(git -C game show main:turns/0002/manifest.json | json_get 'd["ignored"][0]["file"]')
[ "$ignored" = allies.json ] || fail "the out-of-turn file is not named in the manifest"
[ "$resolved" -ge 1 ] || fail "run resolved nothing: $(cat "$WORK/last.out")"
git -C game show main:turns/0002/orders/france.json | cmp - better.json ||
	fail "the resolved order file is not byte for byte the signed one"

# Mail: every player got each report once, and sees only its own hand.
sent=$(ls mail/*.eml | wc -l)
[ "$sent" -ge 4 ] || fail "expected reports for both players over two steps, got $sent"
for p in france allies; do
	grep -l "To: .*$p@example.org" mail/*.eml >/dev/null || fail "no report for $p"
	# (the join's receipts count among the mails, so each report is counted by its subject)
	for s in 1 2; do
		n=$(grep -l "^Subject: \[ne-e2e\] step $s: report for" $(grep -l "^To: .*$p@example.org" mail/*.eml) | wc -l)
		[ "$n" -eq 1 ] || fail "$p got $n reports of step $s, expected one"
	done
	n=$(grep -l "^Subject: \[ne-e2e\] your orders for step 1 were recorded" $(grep -l "^To: .*$p@example.org" mail/*.eml) | wc -l)
	[ "$n" -eq 1 ] || fail "$p got $n receipts of its join, expected one"
done
# Press: the private message reaches its recipient (and sender) only; the one to all, everyone.
allied_report=$("$ESTAFETTE" report game --step 2 --player allies)
public_report=$("$ESTAFETTE" report game --step 2)
grep -q "A word in private" <<< "$allied_report" || fail "press to allies"
grep -q "Vive la France" <<< "$public_report" || fail "press to all"
! grep -q "A word in private" <<< "$public_report" || fail "private press in public"
order allies 9 '[]' --press '[{"to": ["prussia"], "text": "x"}]' > press.json; sign allies press.json
expect_exit 65 "$ESTAFETTE" check game press.json
grep -q 'press\[0\].to\[0\] is "prussia"' "$WORK/last.err" || fail "press to a stranger: $(cat "$WORK/last.err")"
head_before=$(git -C game rev-parse main)
expect_exit 0 "$ESTAFETTE" run game
[ "$(git -C game rev-parse main)" = "$head_before" ] || fail "a second run committed"
[ "$(ls mail/*.eml | wc -l)" -eq "$sent" ] || fail "a second run sent mail again"

# A GM's own template, committed into the game, wins over the installed one.
mkdir -p game/templates
printf 'Custom report of {{game}}, step {{step}}, by {{template.source}}\n' > game/templates/report.txt.mustache
git -C game add templates
git -C game -c user.name=gm -c user.email=gm@example.org commit -qm "our own report template"
custom=$("$ESTAFETTE" report game --player france)
grep -q "^Custom report of ne-e2e, step 2, by the game's templates/ folder" <<< "$custom" ||
	fail "the game's template was not used: $custom"
grep -q "from template report.html (estafette" <<< "$("$ESTAFETTE" report game --format html)" ||
	fail "the installed HTML template should still serve"

git -C game fsck --strict --no-progress || fail "git fsck --strict"
tags=$(git -C game tag | wc -l)
steps=$(git -C game ls-tree --name-only main turns/ | wc -l)
[ "$tags" -eq $((steps + 1)) ] || fail "$tags tags for $steps steps (and step 0)"
"$PY" "$TOP/tests/helpers/dice_check.py" repo game >/dev/null || fail "dice_check disagrees"
echo "game_e2e: $steps steps, $sent mails, refusals and replays held"
