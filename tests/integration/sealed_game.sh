#!/bin/bash
# Sealed games: a Napoleonic Empire game created with
# --sealed is played for several steps. Then:
#  - nothing hidden is reachable from the public refs (branches and tags):
#    no sealed order file, whole state, private event or hidden roll record
#    as a blob, no hand, deck or discard pile in any state.json, no private
#    event in any events.json, no hand's cards in sequence in any object;
#  - each player's own report (mailed) still shows its hand;
#  - a player's audit before the reveal checks what it can and says it is
#    not complete; the GM's (with the sealed store) is complete;
#  - `reveal` is refused before the end without --before-end; after it a
#    player's audit of a fresh clone is complete, and a tampered reveal or
#    revealed state is caught.
# Also an unsealed game: its deck shuffles are checked only after reveal.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
make_players
"$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json --sealed >/dev/null
SEALED="$ESTAFETTE_HOME/games/game/sealed.git"
[ -d "$SEALED" ] || fail "no sealed store at $SEALED"
[ "$(stat -c %a "$ESTAFETTE_HOME/games/game")" = 700 ] || fail "the GM's game folder is readable by others"
# Step 1 is the join (dice v2): both players' signed [] files, then a run.
join game france allies

# A hand's cards for `side` at the open step, from the GM's whole state.
hand() {
	"$ESTAFETTE" report game --player "$1" --format json |
		"$PY" -c 'import json,sys; print(" ".join(c["id"] for c in json.load(sys.stdin)["view"]["hand"]))'
}
battle_card() {  # a battle card of player $1's hand that its side may play, else nothing
	"$ESTAFETTE" report game --player "$1" --format json | "$PY" -c '
import json,sys
for c in json.load(sys.stdin)["view"]["hand"]:
    if c["kind"] == "battle" and c["playable"]:
        print(c["id"]); break'
}
play() {  # player orders-json
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$1" 1 "$2" > "$1.json"
	rm -f "$1.json.sig"
	ssh-keygen -q -Y sign -f "$1" -n estafette-orders "$1.json"
	"$ESTAFETTE" submit game "$1.json" >/dev/null
	"$ESTAFETTE" run game >/dev/null
}
awaited() { "$ESTAFETTE" status game --json | json_get 'd["awaiting"][0]["player"]'; }

# Six turns. A standing play names a card of the hand: it must stay sealed.
standing=""
# France attacks Prussia first: a battle draws public rolls.
play france '[{"type": "move", "from": "Rhineland", "to": "Prussia", "armies": 4}]'
# In a turn: the discards the hand limit asks for (R27: face down, so sealed), and extra items.
turn_orders() {  # player extra-items-json
	"$ESTAFETTE" report game --player "$1" --format json | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
hand = [c["id"] for c in d["view"]["hand"] if c["id"] != sys.argv[1]]
discards = [{"type": "discard", "card": c} for c in hand[:max(0, len(d["view"]["hand"]) - 7)]]
print(json.dumps(discards + json.loads(sys.argv[2])))' "${standing:-none}" "$2"
}
# At least six turns, more until a battle card came to an awaited player's hand (the deal
# is random: some deals give none in six turns).
for i in $(seq 1 16); do
	[ "$i" -gt 6 ] && [ -n "$standing" ] && break
	p=$(awaited)
	kind=$("$ESTAFETTE" status game --json | json_get 'd["kind"]')
	card=$(battle_card "$p")
	if [ "$kind" != turn ]; then
		play "$p" '[]'
	elif [ -n "$card" ] && [ -z "$standing" ]; then
		country=$("$PY" -c 'import json,sys
cards = json.load(open(sys.argv[1]))["cards"]
c = next(c for c in cards if c["id"] == sys.argv[2])
print("Austria" if c["countries"] == "anywhere" else c["countries"][0])' game/rules/cards.json "$card")
		standing=$card
		play "$p" "$(turn_orders "$p" "[{\"type\": \"standing-play\", \"card\": \"$card\", \"country\": \"$country\"}]")"
	else
		play "$p" "$(turn_orders "$p" '[]')"
	fi
done
last=$("$ESTAFETTE" status game --json | json_get 'd["step"] - 1')
[ "$last" -ge 7 ] || fail "only $last steps resolved"
# Main never carried an order: they went to the sealed store.
[ -z "$(git -C game log --all --format= --name-only -- orders | grep -v '\.received$')" ] ||
	fail "order files appeared on the public refs"
[ -n "$(git -C game log --all --format= --name-only -- orders)" ] || fail "no orders/<player>.received notes"
[ "$(git -C "$SEALED" ls-tree -r --name-only main orders | wc -l)" -ge 12 ] || fail "orders are not in the sealed store"

# The player's own report still shows its hand.
fh=$(hand france)
[ -n "$fh" ] || fail "France holds no card at step $last (the test needs one)"
eml=$(ls "$ESTAFETTE_HOME/outbox/game/pending/$(printf %04d "$last")-france.eml")
for c in $fh; do
	name=$("$PY" -c 'import json,sys; print(next(c["name"] for c in json.load(open(sys.argv[1]))["cards"] if c["id"] == sys.argv[2]))' game/rules/cards.json "$c")
	grep -q "$name" "$eml" || fail "France's report lacks its card $name"
done
grep -q "YOUR HAND" game/turns/*/report.txt && fail "a public report shows a hand"

# --- Nothing hidden reachable from the public refs ---
git -C game rev-list --objects --branches --tags | cut -d' ' -f1 | sort -u > public.oids
hidden_blobs() {  # every file of the sealed store's history that holds a secret
	git -C "$SEALED" rev-list --objects --all | while read -r oid path; do
		case "$path" in
		orders/*/*.json|steps/*/state.json|steps/*/hidden.json) echo "$oid" ;;
		# A step without private events has the same events.json in public: no secret.
		steps/*/events.json) git -C "$SEALED" cat-file -p "$oid" | grep -q visible_to && echo "$oid" ;;
		esac
	done | sort -u
}
hidden_blobs > hidden.oids
[ "$(wc -l < hidden.oids)" -ge $((2 * last + 6)) ] || fail "the sealed store holds too little: $(wc -l < hidden.oids)"
leaks=$(comm -12 public.oids hidden.oids | wc -l)
[ "$leaks" = 0 ] || fail "$leaks sealed files are reachable from the public refs"
# Each hidden pile of every step, as a sequence of card ids, must appear in no public object.
for t in $(seq 1 "$last"); do
	git -C "$SEALED" show "main:steps/$(printf %04d "$t")/state.json"
done > whole-states.json
cat > leaks.py <<'PY'
import json, os, re, subprocess, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.environ["TOP"], "tests", "helpers"))
from states import read_states
repo, oids_file, states_file, standing = sys.argv[1:5]
oids = open(oids_file).read().split()
states = read_states(states_file)
piles = []
for s in states:
    piles += [s["deck"], s["discard"], s["hands"]["France"], s["hands"]["Allies"]]
patterns = [re.compile(r'"\s*,\s*"'.join(map(re.escape, p)).encode()) for p in piles if len(p) >= 2]
step0 = subprocess.run(["git", "-C", repo, "rev-parse", "step-0000:state.json"], capture_output=True,
                       text=True, check=True).stdout.strip()
batch = subprocess.run(["git", "-C", repo, "cat-file", "--batch"], input=("\n".join(oids) + "\n").encode(),
                       capture_output=True, check=True).stdout
pos, checked = 0, 0
while pos < len(batch):
    header_end = batch.index(b"\n", pos)
    oid, kind, size = batch[pos:header_end].split()
    body = batch[header_end + 1:header_end + 1 + int(size)]
    pos = header_end + 1 + int(size) + 1
    checked += 1
    if oid.decode() == step0:
        continue  # the set-up: the deck in card-list order, before any shuffle
    for p in patterns:
        if kind != b"tree" and p.search(body):
            sys.exit(f"FAIL: {kind.decode()} {oid.decode()} holds a hidden pile: {p.pattern[:80]!r}")
    if kind == b"blob" and body.lstrip().startswith(b"{"):
        try:
            doc = json.loads(body)
        except ValueError:
            continue
        st = doc.get("state") if isinstance(doc, dict) else None
        if isinstance(st, dict) and doc.get("step", 0) >= 1:
            for part in (st["deck"], st["discard"], *st["hands"].values(), *st["standing"].values(),
                         *st["defaults"].values()):
                if set(part) - {"sealed", "count"}:
                    sys.exit(f"FAIL: state.json {oid.decode()} holds an unsealed part: {part}")
        if isinstance(doc, dict) and isinstance(doc.get("events"), list):
            if any("visible_to" in e for e in doc["events"]):
                sys.exit(f"FAIL: events.json {oid.decode()} holds a private event")
        if standing and isinstance(doc, dict) and "orders" in doc and standing in body.decode():
            sys.exit(f"FAIL: {oid.decode()} names the standing play's card")
print(f"sealed_game: {checked} public objects, {len(patterns)} hidden piles, no leak")
PY
[ -n "$standing" ] || fail "no standing play was made: the test did not exercise sealed orders"
"$PY" leaks.py game public.oids whole-states.json "$standing"

# --- Audits before the reveal ---
git clone -q --no-local game player
ESTAFETTE_HOME="$WORK/nohome" "$ESTAFETTE" audit player --json > partial.json || fail "a player's audit before the reveal fails"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["ok"] and not d["complete"] and d["unverified"]["first"] == 1 and d["checked"]["rolls"] > 0, d' partial.json
"$ESTAFETTE" audit game --json > gm.json
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["ok"] and d["complete"] and d["checked"]["orders"] >= 6, d' gm.json
# A player's copy cannot resolve: only the GM has the whole state.
ESTAFETTE_HOME="$WORK/nohome" expect_exit 78 "$ESTAFETTE" run player

# An act's file is public: an adjust of a hand (or of what holds the hands) would publish it.
for hidden in /hands/France /hands; do
	expect_exit 64 "$ESTAFETTE" gm game adjust --set "$hidden=[]" --reason "a lost card"
	grep -q "a hidden part of this sealed game" "$WORK/last.err" ||
		fail "gm adjust of $hidden in a sealed game: $(cat "$WORK/last.err")"
done

# --- Reveal ---
expect_exit 64 "$ESTAFETTE" reveal game
"$ESTAFETTE" reveal game --before-end >/dev/null
git -C game fsck --strict --no-progress || fail "git fsck --strict (game)"
git -C "$SEALED" fsck --strict --no-progress || fail "git fsck --strict (sealed store)"
rm -rf player && git clone -q --no-local game player
ESTAFETTE_HOME="$WORK/nohome" "$ESTAFETTE" audit player --json > full.json || fail "audit after reveal: $(cat full.json)"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["ok"] and d["complete"] and d["checked"]["steps"] == d["steps"], d' full.json
grep -q "\"$standing\"" "player/revealed/"*/orders/*.json || fail "the revealed orders lack the standing play"
# The leak check is not blind: once revealed, the same walk finds the hands.
git -C game rev-list --objects --branches --tags | cut -d' ' -f1 | sort -u > public.oids
"$PY" leaks.py game public.oids whole-states.json "$standing" 2>/dev/null && fail "the leak check misses revealed hands"

# tamper FILE PYTHON-EDIT: the GM, who holds the GM key, forges FILE in a copy of the game
# and commits it signed (a clone has no estafette.signingkey of its own: the game's is set).
tamper() {  # file python-edit
	rm -rf t && git clone -q --no-local player t
	git -C t config estafette.signingkey "$(git -C game config estafette.signingkey)"
	"$PY" -c "import json,sys; p=sys.argv[1]; d=json.load(open(p)); $2; open(p,'w').write(json.dumps(d, indent=2, sort_keys=True) + '\n')" "t/$1"
	gm_git t commit -qam "tamper"
	ESTAFETTE_HOME="$WORK/nohome" "$ESTAFETTE" audit t --json > t.json && fail "audit missed: $1"
	json_get 'd["failure"]["check"]' < t.json
}
[ "$(tamper reveal.json 'd["hidden_reveal"] = "00" * 32')" = reveal ] || fail "a forged reveal was not named"
[ "$(tamper revealed/0002/state.json 'd["state"]["hands"]["France"].reverse(); d["state"]["hands"]["France"].append("forged")')" = state ] ||
	fail "a forged revealed state was not named"

# --- A killed submit's lock in the sealed store does not block the game ---
touch "$SEALED/.git/refs/heads/main.lock"
"$ESTAFETTE" run game 2> lock.err >/dev/null || fail "run with a stale lock in the sealed store: $(cat lock.err)"
grep -q "removed .*sealed.git/.git/*refs/heads/main.lock" lock.err || fail "the sealed store's stale lock stays: $(cat lock.err)"
[ ! -e "$SEALED/.git/refs/heads/main.lock" ] || fail "the lock file is still there"

# --- A missed step in a sealed game: the manifest leaves the default orders out, audit recomputes them ---
T0=$(date -u -d 2026-01-05T10:00:00Z +%s)
"$ESTAFETTE" new late --ruleset napoleonic-empire --players players.json --sealed --deadline-hours 24 >/dev/null
# The join on the fake clock (lib.sh's join runs on the real one, which the
# clock guard would then see go backwards).
"$ESTAFETTE" run late --now "@$T0" >/dev/null
for p in france allies; do
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" late "$p" 1 '[]' > "late-$p.json"
	ssh-keygen -q -Y sign -f "$p" -n estafette-orders "late-$p.json"
	"$ESTAFETTE" submit late "late-$p.json" --now "@$T0" >/dev/null
done
"$ESTAFETTE" run late --now "@$T0" | grep -q "resolved step 1$" || fail "the join of the late game did not resolve"
"$ESTAFETTE" run late --now "@$((T0 + 25 * 3600))" | grep -q "resolved step 2" || fail "the missed step did not resolve"
"$PY" -c 'import json,sys; m=json.load(open(sys.argv[1])); assert m["missing"] and "orders" not in m["missing"][0], m' \
	late/turns/0002/manifest.json
"$ESTAFETTE" audit late --json | json_get 'd["complete"]' | grep -qx True || fail "the GM's audit of a missed step"
"$ESTAFETTE" reveal late --before-end >/dev/null
ESTAFETTE_HOME="$WORK/nohome" "$ESTAFETTE" audit late --json > late.json || fail "audit after reveal: $(cat late.json)"
json_get 'd["complete"]' < late.json | grep -qx True || fail "$(cat late.json)"

# --- An unsealed game: the shuffle of step 1 is checked only after reveal ---
"$ESTAFETTE" new open --ruleset napoleonic-empire --players players.json >/dev/null
join open france allies
ESTAFETTE_HOME="$WORK/nohome" "$ESTAFETTE" audit open --json > o.json
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["ok"] and not d["complete"], d' o.json
"$ESTAFETTE" reveal open --before-end >/dev/null
ESTAFETTE_HOME="$WORK/nohome" "$ESTAFETTE" audit open --json > o.json
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["ok"] and d["complete"], d' o.json
echo "sealed_game: $last steps sealed, audited partial then complete after reveal"
