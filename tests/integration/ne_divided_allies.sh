#!/bin/bash
# Napoleonic Empire's divided Allies (--option allies=divided; the ruleset's
# RULINGS.md R36-R38) with the real binary: three players dealt by the
# ruleset (France; England and Prussia; Russia and Austria), the join,
# France's turn, then one Allied turn in which both Allied players are
# awaited side by side. A move from a country the other Allied player
# commands is refused, naming the rule and who may order it; both players'
# moves are resolved in one step; each Allied player's report shows what he
# may see (the hand only to the player holding England); audit passes.
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
expect_exit 0 "$ESTAFETTE" new g --ruleset napoleonic-empire --players players.json --option allies=divided
[ "$(powers_of france)" = France ] || fail "france holds $(powers_of france)"
[ "$(powers_of albion)" = England,Prussia ] || fail "albion holds $(powers_of albion)"
[ "$(powers_of tsar)" = Russia,Austria ] || fail "tsar holds $(powers_of tsar)"
json_get 'd["options"]["allies"]' < g/game.json | grep -qx divided || fail "game.json lacks the option"

join g france albion tsar
[ "$(awaiting)" = "turn sequential france" ] || fail "France's turn: $(awaiting)"
order france 1 '[]'
"$ESTAFETTE" submit g france-1.json >/dev/null
"$ESTAFETTE" run g >/dev/null

# The Allied turn awaits both Allied players, each once.
[ "$(awaiting)" = "turn simultaneous albion,tsar" ] || fail "the Allied turn: $(awaiting)"
order tsar 1 '[{"type": "move", "from": "England", "to": "Sweden", "armies": 3}]'
expect_exit 65 "$ESTAFETTE" submit g tsar-1.json
grep -q 'moved by the player holding England, not Russia' "$WORK/last.err" ||
	fail "a move from England by tsar: $(cat "$WORK/last.err")"
grep -q 'Game Designers Notes' "$WORK/last.err" || fail "the refusal names no rule: $(cat "$WORK/last.err")"

# Each Allied player's report: the hand to England's player only.
"$ESTAFETTE" report g --player albion > albion.txt
"$ESTAFETTE" report g --player tsar > tsar.txt
grep -q '^YOUR HAND (England)' albion.txt || fail "albion's report has no hand: $(cat albion.txt)"
grep -q 'you move the Allied armies in .*England' albion.txt || fail "albion's command"
grep -q 'THE ALLIED HAND is kept and played by the player holding England' tsar.txt ||
	fail "tsar's report: $(cat tsar.txt)"
grep -q '^YOUR HAND' tsar.txt && fail "tsar's report shows the Allied hand"
grep -q 'you move the Allied armies in Russia, Austria' tsar.txt || fail "tsar's command: $(cat tsar.txt)"
"$ESTAFETTE" report g --player tsar --format html > tsar.html
grep -q 'The Allied hand is kept and played by the player holding England' tsar.html || fail "tsar's HTML report"
grep -q 'Your hand' tsar.html && fail "tsar's HTML report shows the Allied hand"

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
