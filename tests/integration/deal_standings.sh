#!/bin/bash
# Challenges (docs/gm-guide.md "Challenges: one deal, many players"): three Napoleonic
# Empire games of one deal (its step 1 deals the deck with the hidden stream)
# and one outside it made from the same test secret. Then:
#  - the joined games carry the deal, the first game's dice secrets (chain
#    tips equal, secrets.json 0600), its rules/ byte for byte, its options
#    and its test-secret mark;
#  - after step 1 (the join: every player's signed file, which brings their
#    entropy) the three share the deck and hands, although game c's players
#    sent other entropy, and the game outside the deal does not, although
#    its players sent game a's; their public seeds still differ (game id
#    and orders, even with the same entropy);
#  - `audit` and the independent tests/helpers/dice_check.py (with the GM's
#    hidden records) agree with every hidden roll;
#  - `standings` lists the three, unranked (Napoleonic Empire has no score),
#    verified; a game with the deal's name but other secrets or other rules/
#    is "not this deal", a game whose history was rewritten is "AUDIT
#    FAILED" (exit 65 both);
#  - every misuse of --deal and --deal-from is refused with its exit code.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
make_players
mkdir games
check="$PY $TOP/tests/helpers/dice_check.py"

expect_exit 0 "$ESTAFETTE" new games/a --ruleset napoleonic-empire --players players.json \
	--deal spring-1805 --test-dice-secret challenge
grep -q 'deal spring-1805' "$WORK/last.out" || fail "new --deal does not say the deal: $(cat "$WORK/last.out")"
for g in b c; do
	expect_exit 0 "$ESTAFETTE" new games/$g --ruleset napoleonic-empire --players players.json \
		--deal-from games/a
done
# Outside the deal: the same secret, so only the deal's seeding makes the decks equal.
expect_exit 0 "$ESTAFETTE" new games/solo --ruleset napoleonic-empire --players players.json \
	--test-dice-secret challenge

field() { json_get "$2" < "games/$1/game.json"; }
for g in a b c; do
	[ "$(field $g 'd["deal"]')" = spring-1805 ] || fail "$g: game.json has no deal spring-1805"
	[ "$(field $g 'd["dice"]["test_secret"]')" = challenge ] || fail "$g: the test-secret mark is lost"
	[ "$(field $g 'd["dice"]["chain_tip"], d["dice"]["hidden_chain_tip"]')" = \
	  "$(field a 'd["dice"]["chain_tip"], d["dice"]["hidden_chain_tip"]')" ] || fail "$g: chain tips differ"
	[ "$(field $g 'd["options"]')" = "$(field a 'd["options"]')" ] || fail "$g: options differ"
	[ "$(stat -c %a "$ESTAFETTE_HOME/games/$g/secrets.json")" = 600 ] || fail "$g: secrets.json not 0600"
	cmp -s "$ESTAFETTE_HOME/games/a/secrets.json" "$ESTAFETTE_HOME/games/$g/secrets.json" ||
		fail "$g: dice secrets are not the deal's"
	diff -r games/a/rules games/$g/rules >/dev/null || fail "$g: rules/ differ from the deal's"
done
[ "$(field solo 'd.get("deal")')" = None ] || fail "solo: has a deal"

# Step 1 is the join. Games a, b and solo get the same players' entropy, c other entropy:
# the deal's deck must not depend on it, and solo's must differ for want of the deal alone.
E1=$(echo one | sha256sum | cut -c1-64) E2=$(echo two | sha256sum | cut -c1-64)
for g in a b solo; do ESTAFETTE_TEST_ENTROPY=$E1 join games/$g france allies; done
ESTAFETTE_TEST_ENTROPY=$E2 join games/c france allies
entropy() { "$PY" -c 'import json,sys; print(" ".join(json.load(open(f))["entropy"] for f in sys.argv[1:]))' \
	games/$1/turns/0001/orders/france.json games/$1/turns/0001/orders/allies.json; }
for g in a b c solo; do
	want=$E1; [ $g != c ] || want=$E2
	[ "$(entropy $g)" = "$want $want" ] || fail "$g: the join's entropy is not as sent: $(entropy $g)"
done

# The deck and hands after step 1, as the GM's copy holds them.
deck() { json_get 'json.dumps([d["state"]["deck"], d["state"]["hands"]])' < "games/$1/state.json"; }
[ "$(deck a)" != '[[], {}]' ] || fail "step 1 dealt nothing"
for g in b c; do [ "$(deck $g)" = "$(deck a)" ] || fail "$g: its deck differs from game a's"; done
[ "$(deck solo)" != "$(deck a)" ] || fail "a game outside the deal has the deal's deck"
hidden() { json_get 'json.dumps([(r["sides"], r["value"]) for r in d["rolls"]])' \
	< "$ESTAFETTE_HOME/games/$1/hidden/0001.json"; }
[ "$(hidden b)" = "$(hidden a)" ] && [ "$(hidden c)" = "$(hidden a)" ] || fail "hidden rolls differ in the deal"
seed() { git -C games/$1 show main:turns/0001/dice.json | json_get 'd["seed"]'; }
[ "$(seed a)" != "$(seed b)" ] || fail "the public seeds of two games of the deal are equal"
[ "$(git -C games/a show main:turns/0001/dice.json | json_get 'd["hidden_domain"]')" = \
	estafette/dice/v2/hidden-step ] || fail "dice.json does not name the deal's hidden domain"

for g in a b c solo; do
	expect_exit 0 "$ESTAFETTE" audit games/$g
	grep -q 'all 1 steps hold' "$WORK/last.out" || fail "$g: audit: $(cat "$WORK/last.out")"
	expect_exit 0 $check repo games/$g --hidden "$ESTAFETTE_HOME/games/$g/hidden"
	grep -qx "dice_check: 31 hidden rolls agree" "$WORK/last.out" || fail "$g: dice_check: $(cat "$WORK/last.out")"
done
# The independent check refuses a hidden record under the other domain.
mkdir bad-hidden
"$PY" - "$ESTAFETTE_HOME/games/solo/hidden/0001.json" bad-hidden/0001.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["domain"] = "estafette/dice/v1/deal-step"
json.dump(d, open(sys.argv[2], "w"))
EOF
expect_exit 1 $check repo games/solo --hidden bad-hidden

# standings: the deal's three games, verified, unranked; solo is in no deal.
expect_exit 0 "$ESTAFETTE" standings games
for g in a b c; do grep -Eq "^  -  +$g +France player \(france\) +1 .*verified \(complete\)$" "$WORK/last.out" ||
	fail "standings: no row for $g: $(cat "$WORK/last.out")"; done
grep -q 'deal spring-1805 (3 games)' "$WORK/last.out" || fail "standings: $(cat "$WORK/last.out")"
! grep -q solo "$WORK/last.out" || fail "standings lists a game in no deal"
expect_exit 0 "$ESTAFETTE" standings games --json
"$PY" - "$WORK/last.out" <<'EOF' || fail "standings --json: $(cat "$WORK/last.out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert [x["deal"] for x in d["deals"]] == ["spring-1805"], d
games = d["deals"][0]["games"]
assert [g["game"] for g in games] == ["a", "b", "c"], games
for g in games:
    assert g["rank"] is None and g["score"] is None and g["over"] is False, g
    assert g["audit"] == "verified" and g["complete"] is True and g["in_deal"] is True, g
    assert g["player"] == {"id": "france", "name": "France player"} and g["steps"] == 1, g
    assert g["result"] == "in play", g
EOF

# A game named into the deal with other secrets: not this deal.
expect_exit 0 "$ESTAFETTE" new games/d --ruleset napoleonic-empire --players players.json \
	--deal spring-1805 --test-dice-secret another
expect_exit 65 "$ESTAFETTE" standings games
grep -Eq '^  -  +d .*verified, but NOT THIS DEAL' "$WORK/last.out" || fail "standings: d: $(cat "$WORK/last.out")"
grep -Eq '^  -  +a .*verified \(complete\)$' "$WORK/last.out" || fail "standings flags a: $(cat "$WORK/last.out")"
mv games/d d-aside

# The deal's secrets but rules/ of other bytes (the same data, re-indented): not this deal.
mkdir other-rules
"$PY" -c 'import json,sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], "w"), indent=1)' \
	games/a/rules/cards.json other-rules/cards.json
expect_exit 0 "$ESTAFETTE" new games/e --ruleset napoleonic-empire --players players.json \
	--deal spring-1805 --test-dice-secret challenge --rules other-rules
expect_exit 65 "$ESTAFETTE" standings games --json
"$PY" - "$WORK/last.out" <<'EOF' || fail "standings --json with e: $(cat "$WORK/last.out")"
import json, sys
games = {g["game"]: g for g in json.load(open(sys.argv[1]))["deals"][0]["games"]}
assert games["e"]["in_deal"] is False and "NOT THIS DEAL" in games["e"]["audit"], games["e"]
assert all(games[g]["in_deal"] is True for g in "abc"), games
EOF
mv games/e e-aside

# A copy of game b whose step 1 was rewritten (the deck reordered): AUDIT FAILED.
git clone -q games/b games/f
git -C games/f config user.name mallory
git -C games/f config user.email mallory@example.org
"$PY" - games/f/state.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["state"]["deck"].reverse()
open(sys.argv[1], "w").write(json.dumps(d, indent=2, sort_keys=True) + "\n")
EOF
git -C games/f commit -q -a --amend -m "step 1 (rewritten)"
git -C games/f tag -f step-0001 >/dev/null
expect_exit 65 "$ESTAFETTE" standings games
grep -Eq '^  -  +b .*AUDIT FAILED: ' "$WORK/last.out" || fail "standings: rewritten game: $(cat "$WORK/last.out")"
grep -Eq '^  -  +a .*verified \(complete\)$' "$WORK/last.out" || fail "standings: $(cat "$WORK/last.out")"
rm -rf games/f
expect_exit 0 "$ESTAFETTE" standings games
expect_exit 66 "$ESTAFETTE" standings no-such-folder

# After `reveal`, anyone recomputes the deal's hidden seeds from reveal.json alone.
expect_exit 0 "$ESTAFETTE" reveal games/c --before-end
expect_exit 0 $check repo games/c
grep -qx "dice_check: 31 hidden rolls agree" "$WORK/last.out" || fail "dice_check after reveal: $(cat "$WORK/last.out")"
git clone -q games/c player-copy
git clone -q games/b player-copy-b
# b's chains come from a public test secret, so a player's copy checks its hidden draws too.
ESTAFETTE_HOME=$WORK/no-secrets expect_exit 0 "$ESTAFETTE" audit player-copy-b
grep -q 'all 1 steps hold' "$WORK/last.out" || fail "a player's audit of a test-secret game: $(cat "$WORK/last.out")"
# A game whose secrets are the GM's alone: a player's copy cannot check its deck before reveal.
expect_exit 0 "$ESTAFETTE" new private --ruleset napoleonic-empire --players players.json
join private france allies
git clone -q private player-copy-private
ESTAFETTE_HOME=$WORK/no-secrets expect_exit 0 "$ESTAFETTE" audit player-copy-private
grep -q 'NOT COMPLETE' "$WORK/last.out" || fail "a player's audit of an unrevealed game: $(cat "$WORK/last.out")"
ESTAFETTE_HOME=$WORK/no-secrets expect_exit 0 "$ESTAFETTE" audit player-copy
grep -q 'all 1 steps hold' "$WORK/last.out" || fail "a player's audit after reveal: $(cat "$WORK/last.out")"

# Misuse of --deal and --deal-from.
new() { "$ESTAFETTE" new "$@" --ruleset napoleonic-empire --players players.json; }
expect_exit 65 new x1 --deal spring-1805 --deal-from games/a
grep -q 'starts a deal or joins' "$WORK/last.err" || fail "both flags: $(cat "$WORK/last.err")"
expect_exit 65 new x2 --deal-from games/a --rules other-rules
expect_exit 65 new x3 --deal-from games/a --option turns=3
expect_exit 65 new x3 --deal-from games/a --scenario short
expect_exit 65 new x4 --deal-from games/a --test-dice-secret challenge
expect_exit 65 new x4 --deal-from games/a --dice-protocol v1
grep -q "draws by the protocol of" "$WORK/last.err" || fail "deal and protocol: $(cat "$WORK/last.err")"
expect_exit 65 new x5 --deal "Spring 1805"
grep -q 'deal "Spring 1805"' "$WORK/last.err" || fail "bad deal name: $(cat "$WORK/last.err")"
expect_exit 65 new x6 --deal-from games/solo
grep -q 'in no deal' "$WORK/last.err" || fail "no deal: $(cat "$WORK/last.err")"
expect_exit 66 new x7 --deal-from no-such-game
expect_exit 0 "$ESTAFETTE" new lg --ruleset la-guerre --players players.json --deal lg-deal
expect_exit 65 new x8 --deal-from lg
grep -q 'plays la-guerre' "$WORK/last.err" || fail "other ruleset: $(cat "$WORK/last.err")"
mv "$ESTAFETTE_HOME/games/a/secrets.json" secrets-aside.json
expect_exit 78 new x9 --deal-from games/a
grep -q 'dice secrets' "$WORK/last.err" || fail "missing secrets: $(cat "$WORK/last.err")"
mv secrets-aside.json "$ESTAFETTE_HOME/games/a/secrets.json"
for x in x1 x2 x3 x4 x5 x6 x7 x8 x9; do [ ! -e $x ] || fail "a refused new left $x"; done
echo "deal_standings: ok"
