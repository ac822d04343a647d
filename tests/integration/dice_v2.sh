#!/bin/bash
# Dice v2 (docs/protocol.md): a new game draws by v2. Each step's dice.json
# records its inputs (the state resolved, each awaited player's resolved order
# file's SHA-256 or null), from which `audit` and the independent
# tests/helpers/dice_check.py recompute every seed and roll. What v1 let a GM
# vary after seeing the orders (the signature's bytes, a file slipped into
# orders/) no longer moves the seed, and an edited input is caught. The
# Napoleonic Empire sample game stays v1 (its plan.json) and audits as one.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
check="$PY $TOP/tests/helpers/dice_check.py"
export ESTAFETTE_COMMIT_TIME=1764000000

make_players
expect_exit 0 "$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json --id v2-game \
	--test-dice-secret dice-v2
[ "$(json_get 'd["dice"]["algorithm"]' < game/game.json)" = estafette/dice/v2 ] ||
	fail "a new game does not draw by dice v2: $(cat game/game.json)"

# The join: step 1 awaits both players, and the set-up draws (the first
# shuffle) take both files. Before the files exist, nothing is drawn: run
# resolves nothing, and the step-0 state holds the deck unshuffled.
expect_exit 0 "$ESTAFETTE" run game
git -C game rev-parse -q --verify step-0001 >/dev/null && fail "step 1 resolved before anyone joined"
"$ESTAFETTE" status game --json | json_get 'd["kind"], [a["player"] for a in d["awaiting"]]' |
	grep -qxF "join ['france', 'allies']" || fail "step 1 is not the join: $("$ESTAFETTE" status game)"
cp -a game regame && cp -a home rehome
join game france allies
d1() { git -C game show main:turns/0001/dice.json | json_get "$1"; }
[ "$(d1 '" ".join(a["player"] + "=" + str(a["sha256"] is not None) for a in d["inputs"]["awaited"])')" = \
	"allies=True france=True" ] || fail "step 1 did not take both players' files: $(d1 'd')"
git -C game show main:turns/0001/events.json | grep -q '"shuffle"' || fail "no first shuffle at the join"

# Choosing the deal: a GM who makes the game again (here: the same secrets,
# the same players) cannot choose the deck, which waits for the players'
# fresh files: another join gives another seed and another deck.
ESTAFETTE_HOME=$WORK/rehome join regame france allies
[ "$(git -C regame show main:turns/0001/dice.json | json_get 'd["seed"]')" != "$(d1 'd["seed"]')" ] ||
	fail "two joins with fresh entropy gave one seed"
[ "$(git -C regame show main:state.json | json_get 'd["state"]["deck"]')" != \
  "$(git -C game show main:state.json | json_get 'd["state"]["deck"]')" ] || fail "both joins dealt one deck"

# Nor by making the game again with other secrets and replaying the players'
# own join files into it: step 0's state.json holds the dice commitment, so a
# join file's "prev" binds it to the chains it was signed for.
mkdir replayed
for p in france allies; do
	git -C game show main:turns/0001/orders/$p.json > replayed/$p.json
	git -C game show main:turns/0001/orders/$p.json.sig > replayed/$p.json.sig
done
ESTAFETTE_HOME=$WORK/remadehome expect_exit 0 "$ESTAFETTE" new remade --ruleset napoleonic-empire \
	--players players.json --id v2-game --test-dice-secret another-secret
ESTAFETTE_HOME=$WORK/remadehome expect_exit 65 "$ESTAFETTE" submit remade replayed/france.json
grep -q "prev" "$WORK/last.err" || fail "a join file replayed into a game made again: $(cat "$WORK/last.err")"

# Nor by a step of his own before the join (a no-op adjust), which would have the
# ruleset's set-up drawn at step 2 with no player's entropy.
mkdir early && cd early && make_players >/dev/null && cd ..
ESTAFETTE_HOME=$WORK/earlyhome expect_exit 0 "$ESTAFETTE" new early/game --ruleset napoleonic-empire \
	--players early/players.json --id v2-early
ESTAFETTE_HOME=$WORK/earlyhome expect_exit 65 "$ESTAFETTE" gm early/game adjust --set '/active="France"' \
	--reason "a typo"
grep -q "awaits the join" "$WORK/last.err" || fail "adjust before the join: $(cat "$WORK/last.err")"
[ "$(ESTAFETTE_HOME=$WORK/earlyhome "$ESTAFETTE" status early/game --json | json_get 'd["kind"]')" = join ] ||
	fail "the game no longer awaits the join"

# Nor by rolling back to step 0 and drawing the set-up again without the players.
ESTAFETTE_HOME=$WORK/rehome expect_exit 65 "$ESTAFETTE" gm regame rollback --to 0 --reason "start again"
grep -q "would undo the join" "$WORK/last.err" || fail "rollback to 0: $(cat "$WORK/last.err")"

cp -a game down && cp -a home downhome
order() { "$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$@"; }
order france 1 \
	'[{"type": "move", "from": "Rhineland", "to": "Prussia", "armies": 4},
	  {"type": "move", "from": "France", "to": "Rhineland", "armies": 12}]' > f2.json
ssh-keygen -q -Y sign -f france -n estafette-orders f2.json
expect_exit 0 "$ESTAFETTE" submit game f2.json

# Two copies of the game and of the GM's home: in the second the GM appends a
# byte to the signature (it still verifies) and slips a file into orders/.
cp -a game game2 && cp -a home home2
printf '\n' >> game2/orders/france.json.sig
echo "a variant" > game2/orders/notes.txt
git -C game2 add -A orders && gm_git game2 \
	commit -q -m "the GM varies bytes no player signed"
expect_exit 0 "$ESTAFETTE" run game
ESTAFETTE_HOME=$WORK/home2 expect_exit 0 "$ESTAFETTE" run game2
seed() { git -C "$1" show main:turns/0002/dice.json | json_get "$2"; }
[ "$(seed game 'd["seed"]')" = "$(seed game2 'd["seed"]')" ] ||
	fail "the signature's bytes or a stray file moved the seed"
[ "$(seed game 'json.dumps(d["rolls"])')" = "$(seed game2 'json.dumps(d["rolls"])')" ] || fail "rolls differ"
git -C game2 show main:turns/0002/manifest.json | grep -q notes.txt || fail "the stray file is not named ignored"

# The inputs: france's file as signed, the state step 2 resolved.
want=$(sha256sum f2.json | cut -c1-64)
[ "$(seed game 'd["inputs"]["awaited"][0]["sha256"]')" = "$want" ] || fail "inputs: $(seed game 'd["inputs"]')"
prev=$(git -C game show step-0001:state.json | sha256sum | cut -c1-64)
[ "$(seed game 'd["inputs"]["prev"]')" = "$prev" ] || fail "inputs' prev: $(seed game 'd["inputs"]')"
[ "$(seed game 'd["algorithm"]')" = estafette/dice/v2 ] && [ "$(seed game '"manifest_sha256" in d')" = False ] ||
	fail "dice.json: $(seed game 'd')"

for g in game game2; do
	expect_exit 0 "$ESTAFETTE" audit $g
	grep -q 'all 2 steps hold' "$WORK/last.out" || fail "$g: audit: $(cat "$WORK/last.out")"
	expect_exit 0 $check repo $g
	grep -q 'step 0001: reveal chains, inputs and seed agree' "$WORK/last.out" ||
		fail "$g: dice_check, the join: $(cat "$WORK/last.out")"
	expect_exit 0 $check repo $g
	grep -q 'step 0002: reveal chains, inputs and seed agree' "$WORK/last.out" ||
		fail "$g: dice_check: $(cat "$WORK/last.out")"
done

# restep GAME: step 2 forged in GAME's working tree, committed over the step's
# own commit and tagged again, both signed by the GM's key, as the GM would.
restep() {
	gm_git "$1" commit -qa --amend --no-edit
	gm_git "$1" tag -s -f -m "step 0002" step-0002 main >/dev/null
}

# A GM who grinds by listing a player the step never awaited (a "ghost", missing),
# with the inputs and the seed made again to match, in the step's own commit and
# tag: the dice agree with themselves, but the step did not await that player.
cp -a game ghost
"$PY" - ghost "$TOP/tests/helpers" <<'PY'
import sys
repo = sys.argv[1]
sys.path.insert(0, sys.argv[2])
import forge_step as fs
m, d = fs.load(repo, "turns/0002/manifest.json"), fs.load(repo, "turns/0002/dice.json")
m["missing"].append({"player": "zz1", "powers": [], "missed_in_a_row": 1, "policy": "ghost"})
d["inputs"]["awaited"] = sorted(d["inputs"]["awaited"] + [{"player": "zz1", "sha256": None}],
                                key=lambda e: e["player"].encode())
fs.reseed(repo, 2, m, d)
PY
restep ghost
expect_exit 65 "$ESTAFETTE" audit ghost
grep -q 'names player "zz1", whom step 2 did not await' "$WORK/last.err" ||
	fail "the ghost player: $(cat "$WORK/last.out" "$WORK/last.err")"

# A GM who drops an accepted order: france's file, recorded before the step, set
# aside and france given default orders, with the manifest, the inputs and the seed
# made again to match, in the step's own commit and tag.
cp -a game dropped
"$PY" - dropped "$TOP/tests/helpers" <<'PY'
import os, sys
repo = sys.argv[1]
sys.path.insert(0, sys.argv[2])
import forge_step as fs
m, d = fs.load(repo, "turns/0002/manifest.json"), fs.load(repo, "turns/0002/dice.json")
france = m["orders"].pop(0)
m["missing"].append({"player": "france", "powers": france["powers"], "missed_in_a_row": 1,
                     "policy": "no moves received: the ruleset's default orders", "orders": {"France": []}})
for f in ("france.json", "france.json.sig"):
    os.remove(f"{repo}/turns/0002/orders/{f}")
d["inputs"]["awaited"] = [{"player": "france", "sha256": None}]
fs.reseed(repo, 2, m, d)
PY
restep dropped
expect_exit 65 "$ESTAFETTE" audit dropped
grep -q 'recorded orders/france.json for step 2 (player "france", seq 1, .*default orders instead' "$WORK/last.err" ||
	fail "the dropped order: $(cat "$WORK/last.out" "$WORK/last.err")"

# An input edited after the fact: france's file swapped for another in dice.json.
"$PY" - game/turns/0002/dice.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["inputs"]["awaited"][0]["sha256"] = "00" * 32
open(sys.argv[1], "w").write(json.dumps(d, indent=2, sort_keys=True) + "\n")
PY
gm_git game commit -qam "another input"
expect_exit 1 $check repo game
grep -q "inputs' awaited players are not those of manifest.json" "$WORK/last.err" ||
	fail "dice_check: $(cat "$WORK/last.err")"
expect_exit 65 "$ESTAFETTE" audit game
grep -q "turns/0002" "$WORK/last.out" "$WORK/last.err" || fail "audit: $(cat "$WORK/last.out" "$WORK/last.err")"

# Choosing the orders: the GM puts france's accepted seq 1 back over the seq 2
# it accepted after, and resolves; main's history still holds the commit that
# recorded seq 2, and the audit names it.
export ESTAFETTE_HOME=$WORK/downhome
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" down france 1 '[]' > s1.json
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" down france 2 \
	'[{"type": "move", "from": "France", "to": "Rhineland", "armies": 4}]' > s2.json
for f in s1 s2; do
	ssh-keygen -q -Y sign -f france -n estafette-orders $f.json
	expect_exit 0 "$ESTAFETTE" submit down $f.json
done
recorded=$(git -C down rev-parse --short=7 main)
cp s1.json down/orders/france.json && cp s1.json.sig down/orders/france.json.sig
gm_git down commit -qam "orders: france for step 2 (seq 1)"
expect_exit 0 "$ESTAFETTE" run down
[ "$(git -C down show main:turns/0002/manifest.json | json_get 'd["orders"][0]["seq"]')" = 1 ] ||
	fail "the downgraded step did not resolve seq 1"
expect_exit 65 "$ESTAFETTE" audit down
grep -q "commit $recorded recorded orders/france.json for step 2 (player \"france\", seq 2, .*resolved seq 1 .*an older order replaced a newer accepted one" "$WORK/last.err" ||
	fail "the downgraded order: $(cat "$WORK/last.out" "$WORK/last.err")"
export ESTAFETTE_HOME=$WORK/home

# --dice-protocol: v1 on request, nothing else.
expect_exit 0 "$ESTAFETTE" new old --ruleset napoleonic-empire --players players.json --id v1-game \
	--dice-protocol v1
[ "$(json_get 'd["dice"]["algorithm"]' < old/game.json)" = estafette/dice/v1 ] || fail "v1 on request"
expect_exit 0 "$ESTAFETTE" run old
expect_exit 0 $check repo old
expect_exit 65 "$ESTAFETTE" new x --ruleset napoleonic-empire --players players.json --dice-protocol v3
grep -q 'the dice protocols are v2' "$WORK/last.err" || fail "v3: $(cat "$WORK/last.err")"
echo "dice v2: seeds over inputs only, checked by audit and dice_check.py"
