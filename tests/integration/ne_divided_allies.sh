#!/bin/bash
# Napoleonic Empire's divided Allies (--option allies=divided; the ruleset's
# RULINGS.md R36-R38) with the real binary: three players dealt by the
# ruleset (France; England and Prussia; Russia and Austria), the join,
# France's turn, then one Allied turn in which both Allied players are
# awaited side by side. A move from a country the other Allied player
# commands is refused, naming the rule and who may order it; both players'
# moves are resolved in one step; each Allied player's report shows what he
# may see (the hand only to the player holding England, whom every report
# names with the options in force) and offers only the orders he may send;
# audit passes.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"

for p in france albion tsar; do ssh-keygen -q -t ed25519 -N '' -C "$p" -f "$p"; done
cat > players.json <<JSON
{"players": [
 {"id": "france", "name": "France player", "email": "france@example.org", "key": "$(cat france.pub)"},
 {"id": "albion", "name": "First Allied player", "email": "albion@example.org", "key": "$(cat albion.pub)"},
 {"id": "tsar", "name": "Second Allied player", "email": "tsar@example.org", "key": "$(cat tsar.pub)"}]}
JSON

order() {  # player seq orders-json > file, signed
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" g "$1" "$2" "$3" > "$1-$2.json"
	ssh-keygen -q -Y sign -f "$1" -n estafette-orders "$1-$2.json"
}
powers_of() { json_get "\",\".join(next(p[\"powers\"] for p in d[\"players\"] if p[\"id\"] == \"$1\"))" < g/game.json; }
awaiting() { "$ESTAFETTE" status g --json | json_get 'd["kind"] + " " + d["mode"] + " " + ",".join(a["player"] for a in d["awaiting"])'; }
allied() { json_get "d[\"state\"][\"countries\"][\"$1\"][\"Allies\"]" < g/state.json; }

expect_exit 65 "$ESTAFETTE" new bad --ruleset napoleonic-empire --players players.json --option allies=several
grep -q 'option "allies"' "$WORK/last.err" || fail "allies=several: $(cat "$WORK/last.err")"
expect_exit 0 "$ESTAFETTE" new g --ruleset napoleonic-empire --players players.json --option allies=divided \
	--option control=lapses
[ "$(powers_of france)" = France ] || fail "france holds $(powers_of france)"
[ "$(powers_of albion)" = England,Prussia ] || fail "albion holds $(powers_of albion)"
[ "$(powers_of tsar)" = Russia,Austria ] || fail "tsar holds $(powers_of tsar)"
json_get 'd["options"]["allies"]' < g/game.json | grep -qx divided || fail "game.json lacks the option"

# The invitation to the join names the powers a player holds as a list.
"$ESTAFETTE" run g >/dev/null
"$PY" - "$ESTAFETTE_HOME/outbox/g/pending/0001-albion-join.eml" <<'PY' || fail "albion's invitation"
import email, email.policy, sys
msg = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
text = msg.get_body(("plain",)).get_content()
want = 'You are player "albion" in game g (napoleonic-empire), holding: England, Prussia.'
sys.exit(0 if want in text else "no '%s' in %s" % (want, text))
PY

join g france albion tsar
[ "$(awaiting)" = "turn sequential france" ] || fail "France's turn: $(awaiting)"
order france 1 '[]'
"$ESTAFETTE" submit g france-1.json >/dev/null
"$ESTAFETTE" run g >/dev/null

# The Allied turn awaits both Allied players, each once.
[ "$(awaiting)" = "turn simultaneous albion,tsar" ] || fail "the Allied turn: $(awaiting)"
order tsar 1 '[{"type": "move", "from": "England", "to": "Sweden", "armies": 3}]'
expect_exit 65 "$ESTAFETTE" submit g tsar-1.json
grep -q 'moved by the player holding England, not by the player holding Russia' "$WORK/last.err" ||
	fail "a move from England by tsar: $(cat "$WORK/last.err")"
grep -q 'Game Designers Notes' "$WORK/last.err" || fail "the refusal names no rule: $(cat "$WORK/last.err")"

# Each Allied player's report: the hand to England's player only, its keeper named.
"$ESTAFETTE" report g --player albion > albion.txt
"$ESTAFETTE" report g --player tsar > tsar.txt
grep -qx 'Report for First Allied player (albion), playing England, Prussia' albion.txt ||
	fail "albion's report line: $(grep '^Report for' albion.txt)"
grep -q '^  First Allied player (albion) for England, Prussia - simultaneous' albion.txt ||
	fail "albion's awaited line: $(grep -A4 '^AWAITED' albion.txt)"
grep -q '^YOUR HAND (England)' albion.txt || fail "albion's report has no hand: $(cat albion.txt)"
grep -q '^  You keep the Allied hand' albion.txt || fail "albion is not told he keeps the hand"
grep -q 'you move the Allied armies in .*England' albion.txt || fail "albion's command"
grep -q 'THE ALLIED HAND is kept and played by First Allied player (albion),' tsar.txt ||
	fail "tsar's report: $(cat tsar.txt)"
grep -q '^YOUR HAND' tsar.txt && fail "tsar's report shows the Allied hand"
grep -q 'you move the Allied armies in Russia, Austria' tsar.txt || fail "tsar's command: $(cat tsar.txt)"
"$ESTAFETTE" report g --player tsar --format html > tsar.html
grep -q 'The Allied hand is kept and played by First Allied player (albion)' tsar.html || fail "tsar's HTML report"
grep -q 'Your hand' tsar.html && fail "tsar's HTML report shows the Allied hand"

# Every report states the options: the control reading, who commands what, the hand's keeper.
"$ESTAFETTE" report g --player france > france.txt
for f in france.txt albion.txt tsar.txt; do
	grep -q '^OPTIONS IN FORCE' $f || fail "$f states no options: $(cat $f)"
	grep -q '^  Control lapses: ' $f || fail "$f: no control reading"
	grep -q '^    Russia (Second Allied player, tsar): Russia, Sweden, Warsaw' $f ||
		fail "$f: who commands Russia's countries: $(cat $f)"
	grep -q '^  The Allied hand is kept by First Allied player (albion), who holds England:' $f ||
		fail "$f: the hand's keeper"
done

# What this step takes, per player: the keeper every kind of order; tsar only
# moves, from the countries he commands (R36, R37), nothing check refuses.
takes() { sed -n '/^THIS STEP TAKES/,/^$/p' "$1" | sed -n 's/^  {"type": "\([a-z-]*\)".*/\1/p' | paste -sd ' '; }
[ "$(takes tsar.txt)" = "move" ] || fail "tsar's report offers: $(takes tsar.txt)"
grep -q 'out of a country you command (Russia, Austria,$' tsar.txt ||
	fail "tsar's move choice names no countries: $(sed -n '/^THIS STEP TAKES/,$p' tsar.txt)"
[ "$(takes albion.txt)" = "discard play play move rebels retreat standing-play" ] ||
	fail "albion's report offers: $(takes albion.txt)"

order albion 1 '[{"type": "move", "from": "England", "to": "Sweden", "armies": 3}]'
order tsar 2 '[{"type": "move", "from": "Russia", "to": "Warsaw", "armies": 2}]'
"$ESTAFETTE" submit g albion-1.json >/dev/null
"$ESTAFETTE" submit g tsar-2.json >/dev/null
"$ESTAFETTE" run g >/dev/null
# Both moves made; the Reinforcements Phase added Sweden's 1, Warsaw's 1, England's 3.
[ "$(allied Sweden)" = 4 ] || fail "Sweden: $(allied Sweden) Allied armies"
[ "$(allied Warsaw)" = 3 ] || fail "Warsaw: $(allied Warsaw) Allied armies"
[ "$(allied England)" = 10 ] || fail "England: $(allied England) Allied armies"
[ "$(awaiting)" = "turn sequential france" ] || fail "after the Allied turn: $(awaiting)"

expect_exit 0 "$ESTAFETTE" audit g
echo "ne_divided_allies: ok"
