#!/bin/bash
# Levée en Masse as a challenge: three players play one deal in three games.
# The GM brings a short Headline deck of their own (`new --rules DIR`), so
# the games end within the test, and the provisional-data banner drops the
# file the GM replaced. Every game draws the same card at the same step
# whatever its player does (the games are sealed, as every deal of Levée
# en Masse is: the test reads each player's own view); each player plays
# differently; `estafette standings` ranks the three by the ruleset's score, each confirmed by its
# audit, and a game whose history was rewritten is shown as failing its
# audit (a sealed one: its state does not seal to what the GM's sealed store
# holds) and not ranked (exit 65).
set -euo pipefail
source "$TOP/tests/lib.sh"
source "$TOP/tests/helpers/lem_deal.sh"
scratch
cd "$WORK"
export ESTAFETTE_HOME=$WORK/home
mkdir games

lem_players anne bert carl

# Six cards, two of each deck, as the GM's own file: a game of six turns.
lem_short_deck gm-rules

expect_exit 0 "$ESTAFETTE" new games/anne --ruleset levee-en-masse --players anne-players.json --deal spring-1793 \
	--rules gm-rules --option 10.4=1 --option 10.6=1
for p in bert carl; do
	expect_exit 0 "$ESTAFETTE" new "games/$p" --ruleset levee-en-masse --players "$p-players.json" --deal-from games/anne
done
cmp -s gm-rules/cards.json games/carl/rules/cards.json || fail "the GM's deck did not reach a joining game"

signed() {  # game player orders -> order file
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "games/$1" "$2" 1 "$3" > "$1.json"
	rm -f "$1.json.sig"
	ssh-keygen -q -Y sign -f "$2" -n estafette-orders "$1.json" < /dev/null
	echo "$1.json"
}
# A deal's games are sealed (RULINGS.md S2): the player's own view, as the GM's copy gives it.
view() { "$ESTAFETTE" report "games/$1" --player "$1" --format json; }
card() { view "$1" | json_get '(d["view"]["card"] or {}).get("id", "")'; }
phase() { view "$1" | json_get 'd["view"]["phase"]'; }

# Anne attacks with everything, Bert works the Political track, Carl lets the turns pass.
orders_of() {  # player -> orders for the state now
	view "$1" > "$1-view.json"
	"$PY" - "$1-view.json" "$1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["view"]
s["actions"] = s["actions"] if s["awaits_orders"] else 0
near = sorted((a for a in s["armies"] if a["on_map"] and not a["stationary"]),
              key=lambda a: a["box"])
tracks, targets = set(), []
for a in near:
    if a["track"] not in tracks and a["box"] < 5:
        tracks.add(a["track"])
        targets.append(a["id"])
if sys.argv[2] == "anne":
    o = [{"type": "military", "army": t} for t in targets[:s["actions"]]]
    if o:
        o[0]["reserves"] = "if-fails"
elif sys.argv[2] == "bert":
    o = [{"type": "political", "marker": "Republic"}] * s["actions"]
else:
    o = []
print(json.dumps(o))
PY
}

for p in anne bert carl; do expect_exit 0 "$ESTAFETTE" run "games/$p"; done
turn=0
while [ "$(phase anne)" != over ] || [ "$(phase bert)" != over ] || [ "$(phase carl)" != over ]; do
	turn=$((turn + 1))
	[ "$turn" -le 7 ] || fail "the six-card games did not end"
	# The card every game still playing draws this turn: the first such game's.
	first=
	for p in anne bert carl; do
		[ "$(phase "$p")" = over ] && continue
		[ -n "$first" ] || { first=$(card "$p"); lead=$p; }
		[ "$(card "$p")" = "$first" ] || fail "turn $turn: $p draws card $(card "$p"), $lead $first: not one deal"
		expect_exit 0 "$ESTAFETTE" submit "games/$p" "$(signed "$p" "$p" "$(orders_of "$p")")"
		expect_exit 0 "$ESTAFETTE" run "games/$p"
	done
done

# The banner names the placeholder files, not the GM's deck.
"$ESTAFETTE" report games/bert > bert.txt
grep -q "Provisional data: tracks.json" bert.txt || fail "no banner for the placeholder tracks"
! grep -q "Provisional data: cards.json" bert.txt || fail "the GM's deck is still called provisional"

for p in anne bert carl; do view "$p" > "$p-view.json"; done
expect_exit 0 "$ESTAFETTE" standings games --json
cp "$WORK/last.out" standings.json
"$PY" - standings.json games <<'PY' || fail "standings: $(cat standings.json)"
import json, sys
doc = json.load(open(sys.argv[1]))
[deal] = doc["deals"]
assert deal["deal"] == "spring-1793", deal
rows = {g["game"]: g for g in deal["games"]}
assert sorted(rows) == ["anne", "bert", "carl"], rows
for g in rows.values():
    assert g["over"] and g["audit"].startswith("verified"), g
    assert g["rank"] is not None and g["score"] is not None, g
# The ranks follow the scores, and the scores the ruleset's results.
for a in rows.values():
    for b in rows.values():
        if a["score"] > b["score"]:
            assert a["rank"] < b["rank"], (a, b)
for name, g in rows.items():
    outcome = json.load(open(f"{name}-view.json"))["view"]["result"]["outcome"]
    assert (g["score"] >= 100000) == (outcome == "victory"), (g, outcome)
print("standings:", [(g["rank"], g["game"], g["score"], g["result"]) for g in deal["games"]])
PY
"$ESTAFETTE" standings games > table.txt
grep -q "spring-1793" table.txt && grep -q "verified" table.txt || fail "standings table: $(cat table.txt)"

# A game whose history is rewritten fails its audit and is not ranked.
git clone -q games/carl games/forged
git -C games/forged config user.email forger@example.org
git -C games/forged config user.name forger
"$PY" - games/forged/state.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["state"]["political"]["Republic"] = 4
open(sys.argv[1], "w").write(json.dumps(d, indent=1) + "\n")
PY
git -C games/forged commit -qam "a better ending"
# (the step's tag moved too, or estafette would refuse the state.json edited by hand at once)
git -C games/forged tag -f step-0007 >/dev/null
expect_exit 65 "$ESTAFETTE" standings games --json
"$PY" - "$WORK/last.out" <<'PY' || fail "forged game: $(cat "$WORK/last.out")"
import json, sys
doc = json.load(open(sys.argv[1]))
[deal] = doc["deals"]
assert not any(g["path"].endswith("forged") for g in deal["games"]), deal
[forged] = [u for u in doc["unreadable"] if u["path"] == "games/forged"]
assert "does not seal to state.json at main" in forged["message"], forged
PY
echo "lem_challenge: three games of one deal drew alike, ranked and audited; a forged one is not ranked"
