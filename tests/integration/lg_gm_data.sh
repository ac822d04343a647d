#!/bin/bash
# La Guerre de l'Empereur with data a GM types in (docs/la-guerre-data.md):
# - `new --rules DIR` with a good folder (the GM's leaders and tables: an
#   Approach table indexed by die and tactical rating, an Auxiliary column
#   using the effect vocabulary, attack losses by margin) makes the game,
#   keeps the GM's files, and drops them from the "Provisional data" banner;
#   the report of step 0 opens with "step 0 (new game)", never "step 0 ()";
# - the first battle is rolled on the GM's Approach table, and audit replays
#   the game under the GM's files;
# - a bad folder is refused with exit 65 and one line naming the file, the
#   field's JSON path, what is wrong and the fix, and no game is made.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
make_players
DATA=$TOP/internal/rulesets/la-guerre/data

# gm_folder DIR PYTHON: DIR holds the shipped tables.json and leaders.json
# changed by PYTHON (on `t` and `l`), marked as the GM's copy.
gm_folder() {
	mkdir -p "$1"
	"$PY" - "$DATA" "$1" "$2" <<'PY'
import json, sys
data, out, edit = sys.argv[1:]
t = json.load(open(data + "/tables.json"))
l = json.load(open(data + "/leaders.json"))
t["provenance"] = l["provenance"] = "the GM's copy of the 2nd edition"
t["approach"] = {"provenance": "the GM's copy", "die": 6, "add": "tactical", "results": [
    {"min": -9, "max": 2, "name": "GM lost on the march", "effect": "drm", "drm": -1},
    {"min": 3, "max": 5, "name": "GM orderly approach", "effect": "none"},
    {"min": 6, "max": 7, "name": "GM high ground", "effect": "drm", "drm": 1},
    {"min": 8, "max": 20, "name": "GM ambush", "effect": "eliminate", "divisions": 1}]}
t["auxiliary"]["results"][2] = {"roll": 3, "name": "Grand battery", "effect": "bombard"}
t["attack"] = {"provenance": "the GM's copy", "die": 6, "corps_superiority_drm": 1, "tie": "defender",
               "results": [{"min": 0, "max": 1, "loser_loses": 1, "winner_loses": 1},
                           {"min": 2, "max": 99, "loser_loses": 2, "winner_loses": 0}]}
next(x for x in l["leaders"] if x["id"] == "mack")["tactical"] = -1
exec(edit)
json.dump(t, open(out + "/tables.json", "w"), indent=1, ensure_ascii=False)
json.dump(l, open(out + "/leaders.json", "w"), indent=1, ensure_ascii=False)
PY
}

# A good folder: the game is made, with the GM's bytes in rules/.
gm_folder good 'pass'
expect_exit 0 "$ESTAFETTE" new game --ruleset la-guerre --players players.json --rules good
cmp -s good/tables.json game/rules/tables.json || fail "rules/tables.json is not the GM's file"
cmp -s good/leaders.json game/rules/leaders.json || fail "rules/leaders.json is not the GM's file"
"$ESTAFETTE" report game > step0.txt
[ "$(head -1 step0.txt)" = "LA GUERRE DE L'EMPEREUR - game game, step 0 (new game)" ] ||
	fail "step 0's report opens: $(head -1 step0.txt)"
grep -q "Provisional data: map.json" step0.txt || fail "no banner for the placeholder map"
! grep -q "Provisional data: tables.json\|Provisional data: leaders.json" step0.txt ||
	fail "the GM's files are still called provisional"

# The Grande Armée enters Bavaria, where Mack's army stands: 5.513 and 5.612
# steps 1-2 are rolled, on the GM's Approach table whatever the dice.
join game france allies
f=$WORK/move.json
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game france 1 \
	'[{"type":"move","army":"grande-armee","path":["Baden","Wurttemberg","Bavaria"]}]' > "$f"
ssh-keygen -q -Y sign -f france -n estafette-orders "$f"
expect_exit 0 "$ESTAFETTE" submit game "$f"
expect_exit 0 "$ESTAFETTE" run game
"$ESTAFETTE" report game | tr -s '\n ' '  ' > battle.txt  # one line: the report wraps at 78 columns
[ "$(grep -o "on the Approach to Battlefield Table: GM " battle.txt | wc -l)" -eq 2 ] ||
	fail "the approach was not rolled on the GM's table: $(cat battle.txt)"
grep -q "(Mack, tactical -1)" battle.txt || fail "the GM's rating for Mack is not used: $(cat battle.txt)"
expect_exit 0 "$ESTAFETTE" audit game

# Bad folders: refused at `new`, one line each, and no game made.
refused() {  # name python-edit expected-line
	gm_folder "$1" "$2"
	expect_exit 65 "$ESTAFETTE" new "x-$1" --ruleset la-guerre --players players.json --rules "$1"
	grep -qxF "estafette: $3" "$WORK/last.err" || fail "$1: $(cat "$WORK/last.err")"
	[ ! -e "x-$1" ] || fail "$1: a refused new left a game"
}
refused teleport 't["auxiliary"]["results"][2]["effect"] = "teleport"' \
	'rules/tables.json: field "auxiliary.results[2].effect" is "teleport", which is no effect the rules carry out; write one of none, drm, enemy-drm, eliminate, lose, bombard (docs/la-guerre-data.md "Effects")'
refused gap 't["approach"]["results"][1]["min"] = 4' \
	'rules/tables.json: field "approach.results[1]" starts at 4, but the row before ends at 2: the rows leave totals with no result; list them from the lowest total up, each starting one above the end of the row before'
refused strategic 'l["leaders"][0]["strategic"] = 3' \
	'rules/leaders.json: field "leaders[0].strategic" is no field the rules read, so its value would be ignored (the seed'"'"'s rules use the tactical rating only); remove it, or spell one of: id, name, nation, tactical, list, note'
refused bounds 't["attack"]["loser_losses_max"] = 4' \
	'rules/tables.json: field "attack.loser_losses_max" is not read when "attack.results" gives the losses by margin; remove it, or remove "results"'
echo "lg_gm_data: a GM's own tables played, bad ones refused naming file, field and fix, step 0 named"
