#!/bin/bash
# What the engine grew for La Guerre de l'Empereur, for every game:
# - `new` deals a ruleset's powers by its own deal (France alone; the
#   Coalition's powers shared among the others);
# - `new --rules DIR` replaces data files of the same name for one game,
#   refuses a name the ruleset has none of and a file that is no JSON
#   object, keeps the GM's bytes in rules/, and audit replays with them;
# - every report names the data files marked "provenance": "placeholder";
# - a player holding several awaited powers addresses items with "power":
#   an item for a power not held is refused at its index, an item without
#   it for another power's army is refused with that advice, and the
#   Coalition's simultaneous turn applies each item under its power.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"

for p in france austria russia britain; do ssh-keygen -q -t ed25519 -N '' -C "$p" -f "$p"; done
players() {  # ids... -> a players file without powers
	local sep= p
	echo '{"players": ['
	for p in "$@"; do
		echo "$sep{\"id\": \"$p\", \"name\": \"$p player\", \"email\": \"$p@example.org\", \"key\": \"$(cat "$p.pub")\"}"
		sep=,
	done
	echo ']}'
}
powers_of() {  # game player -> "A,B"
	"$PY" -c 'import json,sys; g=json.load(open(sys.argv[1]+"/game.json"))
print(",".join(next(p["powers"] for p in g["players"] if p["id"] == sys.argv[2])))' "$1" "$2"
}

# The ruleset's deal, for 2, 3 and 4 players.
players france austria > two.json
players france austria russia > three.json
players france austria russia britain > four.json
expect_exit 0 "$ESTAFETTE" new g2 --ruleset la-guerre --players two.json
[ "$(powers_of g2 france)" = France ] || fail "2 players: france holds $(powers_of g2 france)"
[ "$(powers_of g2 austria)" = Austria,Russia,Britain ] || fail "2 players: $(powers_of g2 austria)"
expect_exit 0 "$ESTAFETTE" new g3 --ruleset la-guerre --players three.json
[ "$(powers_of g3 austria)" = Austria,Britain ] && [ "$(powers_of g3 russia)" = Russia ] ||
	fail "3 players: $(powers_of g3 austria) / $(powers_of g3 russia)"
expect_exit 0 "$ESTAFETTE" new g4 --ruleset la-guerre --players four.json
[ "$(powers_of g4 britain)" = Britain ] || fail "4 players: britain holds $(powers_of g4 britain)"

# --rules DIR: a GM's own scenario for one game.
mkdir gm-rules bad-name not-object
"$PY" - "$TOP/internal/rulesets/la-guerre/data/scenario.json" gm-rules/scenario.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["provenance"] = "the GM's copy of the real game"
s["title"] = "Ulm and Austerlitz, as the GM has it"
next(a for a in s["armies"] if a["id"] == "grande-armee")["movement"] = 5
open(sys.argv[2], "w").write(json.dumps(s, indent=3) + "\n")
PY
echo '{"provenance": "placeholder"}' > bad-name/scenery.json
echo '[1, 2]' > not-object/tables.json
expect_exit 65 "$ESTAFETTE" new x1 --ruleset la-guerre --players two.json --rules bad-name
grep -q "scenery.json is not a data file of this ruleset" "$WORK/last.err" || fail "bad name: $(cat "$WORK/last.err")"
expect_exit 65 "$ESTAFETTE" new x2 --ruleset la-guerre --players two.json --rules not-object
grep -q "one JSON object" "$WORK/last.err" || fail "not an object: $(cat "$WORK/last.err")"
expect_exit 66 "$ESTAFETTE" new x3 --ruleset la-guerre --players two.json --rules no-such-folder
# A GM's file that the rules could not play is refused at `new`, naming the field.
broken() {  # name python-edit expected-message
	rm -rf "broken-$1"; mkdir "broken-$1"
	"$PY" - "$TOP/internal/rulesets/la-guerre/data/$1.json" "broken-$1/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(d))
PY
	expect_exit 65 "$ESTAFETTE" new "x-$1" --ruleset la-guerre --players two.json --rules "broken-$1"
	grep -qF "$3" "$WORK/last.err" || fail "broken $1: $(cat "$WORK/last.err")"
}
broken map 'd["provinces"][1]["adjacent"].append("Bavaria")' 'which is no province of the map or does not list it back'
broken map 'del d["provinces"][0]["name"]' 'field "provinces[0]" needs "name"'
broken tables 'd["approach"]["results"].pop()' 'field "approach.results" ends at 5, but a d6 rolls up to 6; end the last row at 6 or higher'
broken tables 'd["auxiliary"]["results"][2]["effect"] = "teleport"' 'field "auxiliary.results[2].effect" is "teleport", which is no effect the rules carry out'
broken tables 'del d["pursuit"]' 'no table "pursuit"'
broken leaders 'd["leaders"][0]["tactical"] = "high"' 'field "leaders[0].tactical" of "moore" must be the tactical rating'
broken scenario 'd["end"]["season"] = "Monsoon"' '"end.season" must be seasons'
broken scenario 'd["armies"][1]["id"] = d["armies"][0]["id"]' 'repeats the id of an earlier army'
broken scenario 'd["armies"][0]["corps"][0]["divisions"] = 0' 'each with a "name" and 1 to 50 "divisions"'
broken scenario 'd["armies"][0]["location"] = "Atlantis"' '"armies[0].location" is not a province of rules/map.json'
broken scenario 'd["nmr"]["battle-step-4"] = "banzai"' 'field "nmr.battle-step-4" must be an option of that step'
broken scenario 'd["nmr"]["battle-step-6"] = "auxiliary"' 'field "nmr.battle-step-6" must be an option of that step (attack or retreat)'
broken scenario 'd["vp"]["France"] = 2147483647' 'field "vp.France" is 2147483647, outside -10000..10000'
broken tables 'd["victory_points"]["attack_win"] = 2147483647' 'field "victory_points.attack_win" is 2147483647'
broken scenario 'd["sides"]["France"].append("Austria")' '"Austria" stands on France'"'"'s side and also on the Coalition'"'"'s'
broken map 'd["provinces"][3]["terrain"] = "swamp"' 'needs a "terrain" that tables.json "movement" prices'
broken map 'd["provinces"][3]["x"] = "100"' 'needs "x" (0 to 1000)'
broken scenario 'd["armies"][0]["location"] = "Saxony"' 'field "armies[0].location" is "Saxony", neutral at the start'
broken scenario 'd["end"] = {"year": 1804, "season": "Summer"}' 'must put the end at or after the start'
broken scenario 'd["diplomacy"]["Russia"]["status"] = "frenemies"' '"diplomacy.Russia.status" must be war, alliance, peace or inactive'
broken scenario 'd["armies"][0]["id"] = "grande\narmee"' '"armies[0].id" holds U+000A LINE FEED at byte 6, an invisible control'
broken scenario 'd["armies"][0]["id"] = "grande\u061carmee"' '"armies[0].id" holds U+061C ARABIC LETTER MARK at byte 6'
broken scenario 'd["armies"][0]["id"] = "Grande Armee"' 'field "armies[0].id" must be what orders spell: a-z, 0-9 and - only'
broken leaders 'd["leaders"][1]["id"] = d["leaders"][0]["id"]' 'repeats the id'
ls -d x-* 2>/dev/null && fail "a refused new left a game"
# The scenario's name as an option, even when it reads as a number.
expect_exit 0 "$ESTAFETTE" new opt --ruleset la-guerre --players two.json --option scenario=1805
expect_exit 65 "$ESTAFETTE" new opt2 --ruleset la-guerre --players two.json --option scenario=1806
[ ! -e x1 ] && [ ! -e x2 ] && [ ! -e x3 ] || fail "a refused new left a game"
expect_exit 0 "$ESTAFETTE" new own --ruleset la-guerre --players two.json --rules gm-rules
cmp -s gm-rules/scenario.json own/rules/scenario.json || fail "rules/scenario.json is not the GM's file as written"
cmp -s "$TOP/internal/rulesets/la-guerre/data/map.json" own/rules/map.json || fail "rules/map.json changed"
# Step 1 is the join (dice v2): every player's signed [] file, then a run.
join own france austria
"$ESTAFETTE" report own > own.txt
grep -q "Ulm and Austerlitz, as the GM has it" own.txt || fail "the GM's scenario is not played"
grep -q "Provisional data: map.json" own.txt || fail "no banner for the placeholder map"
! grep -q "Provisional data: scenario.json" own.txt || fail "the GM's scenario is still called provisional"
"$ESTAFETTE" report g2 > g2.txt
grep -q "Provisional data: scenario.json" g2.txt || fail "no banner for the placeholder scenario"

signed() {  # game player seq orders -> file
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$1" "$2" "$3" "$4" > "$1-$2-$3.json"
	rm -f "$1-$2-$3.json.sig"
	ssh-keygen -q -Y sign -f "$2" -n estafette-orders "$1-$2-$3.json" < /dev/null
	echo "$1-$2-$3.json"
}

# The Grande Armée marches five provinces only under the GM's scenario.
long='[{"type":"move","army":"grande-armee","path":["Lorraine","Champagne","Belgium","Holland","Hanover"]}]'
join g3 france austria russia
expect_exit 65 "$ESTAFETTE" check g3 "$(signed g3 france 1 "$long")"
grep -q "costs 5 Movement Points" "$WORK/last.err" || fail "five provinces in g3: $(cat "$WORK/last.err")"
expect_exit 0 "$ESTAFETTE" submit own "$(signed own france 1 "$long")"
expect_exit 0 "$ESTAFETTE" run own
grep -q '"location": "Hanover"' own/state.json || fail "the Grande Armée did not reach Hanover"
expect_exit 0 "$ESTAFETTE" audit own

# The Coalition's turn in g2: austria holds Austria, Russia and Britain.
join g2 france austria
expect_exit 0 "$ESTAFETTE" submit g2 "$(signed g2 france 1 '[]')"
expect_exit 0 "$ESTAFETTE" run g2
f=$(signed g2 austria 1 '[{"type":"move","army":"army-of-podolia","path":["Moravia"],"power":"Russia"},
 {"type":"move","army":"expedition","path":["Hanover"],"power":"France"}]')
expect_exit 65 "$ESTAFETTE" check g2 "$f"
grep -q 'orders\[1\].power: France is not among the powers this step awaits from you (Austria, Russia, Britain)' "$WORK/last.err" || fail "power not held: $(cat "$WORK/last.err")"
f=$(signed g2 austria 2 '[{"type":"move","army":"army-of-podolia","path":["Moravia"]}]')
expect_exit 65 "$ESTAFETTE" check g2 "$f"
grep -q 'orders\[0\].army: army "army-of-podolia" is Russia.s, not Austria.s' "$WORK/last.err" ||
	fail "item without power: $(cat "$WORK/last.err")"
f=$(signed g2 austria 3 '[{"type":"standing","at":"Bavaria","step":4,"option":"bombard"},
 {"type":"move","army":"army-of-podolia","path":["Moravia"],"power":"Russia"},
 {"type":"move","army":"expedition","path":["Hanover"],"power":"Britain"},
 {"type":"move","army":"army-of-italy","path":["Carinthia","Styria"],"power":"Russia"}]')
expect_exit 65 "$ESTAFETTE" check g2 "$f"
grep -q 'orders\[3\].army: army "army-of-italy" is Austria.s, not Russia.s' "$WORK/last.err" ||
	fail "a Russian item for an Austrian army, index in the file: $(cat "$WORK/last.err")"
# Mistakes for two powers in one file: both are reported, not only the first power's.
f=$(signed g2 austria 4 '[{"type":"move","army":"armee-d-allemagne","path":["Saxony"],"power":"Austria"},
 {"type":"move","army":"army-of-podolia","path":["Moravia","Bohemia","Bavaria","Wurttemberg"],"power":"Russia"}]')
expect_exit 65 "$ESTAFETTE" check g2 "$f"
grep -q '2 problems with the orders' "$WORK/last.err" && grep -q 'orders\[0\].path: Saxony is neutral' "$WORK/last.err" &&
	grep -q 'orders\[1\].path: the path costs 4 Movement Points' "$WORK/last.err" ||
	fail "two powers' mistakes: $(cat "$WORK/last.err")"
f=$(signed g2 austria 5 '[{"type":"standing","at":"Bavaria","step":4,"option":"bombard","power":"Austria"},
 {"type":"move","army":"army-of-podolia","path":["Moravia"],"power":"Russia"},
 {"type":"move","army":"expedition","path":["Hanover"],"power":"Britain"}]')
expect_exit 0 "$ESTAFETTE" submit g2 "$f"
expect_exit 0 "$ESTAFETTE" run g2
"$PY" - g2/state.json <<'PY' || fail "the Coalition's orders were not applied under their powers"
import json, sys
s = json.load(open(sys.argv[1]))["state"]
where = {a["id"]: a["location"] for a in s["armies"]}
assert where["army-of-podolia"] == "Moravia", where
assert where["expedition"] == "Hanover", where
assert s["provinces"]["Hanover"]["controller"] == "Britain", s["provinces"]["Hanover"]
assert s["standing"]["Austria"] == [{"at": "Bavaria", "step": 4, "option": "bombard"}], s["standing"]
assert "Russia" not in s["standing"] or s["standing"]["Russia"] == [], s["standing"]
PY
expect_exit 0 "$ESTAFETTE" audit g2
# A ruleset whose powers are optional (Campaign's bases): the players'
# powers reach set-up through options["players"], kept in game.json.
expect_exit 0 "$ESTAFETTE" new cp3 --ruleset campaign --players three.json
[ "$(powers_of cp3 france)" = Spain ] && [ "$(powers_of cp3 austria)" = Prussia ] ||
	fail "campaign, 3 players: $(powers_of cp3 france) / $(powers_of cp3 austria)"
json_get 'd["options"]["players"]' < cp3/game.json | grep -q Prussia || fail "game.json lacks the players' bases"
join cp3 france austria russia
expect_exit 0 "$ESTAFETTE" audit cp3
"$PY" - three.json fp.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p, power in zip(d["players"], ["France", "Prussia", "Russia"]):
    p["powers"] = [power]
json.dump(d, open(sys.argv[2], "w"))
PY
expect_exit 65 "$ESTAFETTE" new cpfp --ruleset campaign --players fp.json
grep -q "France and Prussia cannot be used as base countries at the same time" "$WORK/last.err" ||
	fail "France with Prussia: $(cat "$WORK/last.err")"
expect_exit 65 "$ESTAFETTE" new cpopt --ruleset campaign --players four.json --option players=x
grep -q 'option "players" is set by `new`' "$WORK/last.err" || fail "players option: $(cat "$WORK/last.err")"
# A GM's Campaign board the rules could not play is refused at `new`.
cp_broken() {  # python-edit expected-message
	rm -rf cp-board; mkdir cp-board
	"$PY" - "$TOP/internal/rulesets/campaign/data/board.json" cp-board/board.json "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(d))
PY
	expect_exit 65 "$ESTAFETTE" new cpx --ruleset campaign --players four.json --rules cp-board
	grep -qF "$2" "$WORK/last.err" || fail "campaign board: $(cat "$WORK/last.err")"
}
cp_broken 'd["seating"] = ["France", "France", "Russia"]' 'field "seating[1]" must be a country'
cp_broken 'd["seating"] = ["France", "Russia", "Austria"]' '"seating" lacks Spain'
cp_broken 'd["enlistment"]["France"] = []' 'field "enlistment.France" lists 0 squares; give 4 or more'
cp_broken 'd["start"]["France"]["infantry"][0] = next(c["square"] for c in d["capitals"] if c["country"] == "France")' 'field "start.France.infantry[0]" is [5, 5], France'\''s capital or a square listed before'
cp_broken 'd["towns"][0]["colour"] = "green"' 'field "towns[0].colour" (Lille) is "green"; make it "red" or "yellow"'
cp_broken 'd["crossings"][0] = [d["crossings"][0][0], d["crossings"][0][0]]' 'field "crossings[0]" is not two neighbouring land squares of two countries'
cp_broken 'd["countries"][3] = "X" + d["countries"][3][1:]' 'field "countries[3]" has '\''X'\'' at column 0; use only F P R A I S'
echo "rules_and_powers: deal, --rules DIR, provisional banner and orders by power hold"
