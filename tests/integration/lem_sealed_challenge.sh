#!/bin/bash
# Levée en Masse sealed, and a fair challenge (docs/gm-guide.md "Challenges",
# RULINGS.md S1, S2):
#  - a game made with --sealed keeps the cards to come off its public refs
#    (each pile a commitment and its count) while the cards drawn stay
#    public; it plays to its end, `reveal` publishes, and a player's audit of
#    a fresh clone is complete;
#  - three games of one deal are sealed without being asked. Anne plays to
#    the end, Bert two turns, Carl none. Then no card the deal has not yet
#    shown to Carl is anywhere a player can look: any blob or commit message
#    reachable from any ref of any of the three repositories, a player's
#    clone's `status --json` and `report --format json` of every step, the
#    GM's `status --json` and public reports, and the mails sent to Bert and
#    Carl (a real SMTP server). Anne's `reveal` is refused, naming the games
#    still playing; `standings` says the reveals wait;
#  - once all three are over, each is revealed and audited complete, and
#    the revealed states hold the cards; standings ranks them.
set -euo pipefail
source "$TOP/tests/lib.sh"
source "$TOP/tests/helpers/lem_deal.sh"
scratch
cd "$WORK"
mkdir games

lem_players anne bert carl solo

# Six cards, two of each deck, as the GM's own file: a game of six turns.
lem_short_deck gm-rules

start_smtpd "$WORK/mail"
mail_to() {  # game: the game sends its mail to the test server
	git -C "games/$1" config estafette.sender "Game master <orders@example.org>"
	git -C "games/$1" config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
}

# The player's own view, as the GM's copy gives it.
view() { "$ESTAFETTE" report "games/$1" --player "$1" --format json; }
over() { view "$1" | json_get 'd["over"]'; }
card() { view "$1" | json_get '(d["view"]["card"] or {}).get("id", "")'; }

# Anne attacks what she may, Bert works the Political track, Carl lets turns pass.
orders_of() {  # player -> orders for the open step
	view "$1" | "$PY" -c '
import json, sys
v = json.load(sys.stdin)["view"]
n = v["actions"] if v["awaits_orders"] else 0
if sys.argv[1] == "anne":
    o = [{"type": "military", "army": a["id"]} for a in v["attackable"]][:n]
elif sys.argv[1] == "bert":
    o = [{"type": "political", "marker": "Republic"}] * n
else:
    o = []
print(json.dumps(o))' "$1"
}
turn() {  # game: the player's file for the open step, then a run
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "games/$1" "$1" 1 "$(orders_of "$1")" > "$1.json"
	rm -f "$1.json.sig"
	ssh-keygen -q -Y sign -f "$1" -n estafette-orders "$1.json" < /dev/null
	expect_exit 0 "$ESTAFETTE" submit "games/$1" "$1.json"
	expect_exit 0 "$ESTAFETTE" run "games/$1"
}
is_over() { [ "$("$ESTAFETTE" status "games/$1" --json | json_get 'd["kind"]')" = over ]; }

# 1. One game, sealed by hand: the cards to come are sealed, the cards drawn are not.
expect_exit 0 "$ESTAFETTE" new games/solo --ruleset levee-en-masse --players solo-players.json --sealed --rules gm-rules
json_get 'd["sealed"]' < games/solo/game.json | grep -qx True || fail "--sealed did not seal the game"
turn solo
"$PY" - games/solo/state.json <<'PY' || fail "solo: public state.json: $(cat games/solo/state.json)"
import json, sys
s = json.load(open(sys.argv[1]))["state"]
assert s["current"] and s["played"] == [s["current"]], s
for pile, v in s["deck"].items():
    assert set(v) == {"sealed", "count"}, (pile, v)
assert sum(v["count"] for v in s["deck"].values()) == 5, s["deck"]
PY
for _ in 1 2 3 4 5 6 7; do is_over solo && break; turn solo; done
is_over solo || fail "solo: the six-card game did not end"
expect_exit 0 "$ESTAFETTE" audit games/solo --json
expect_exit 0 "$ESTAFETTE" reveal games/solo
git clone -q games/solo solo-clone
git -C solo-clone fetch -q --tags
ESTAFETTE_HOME=$WORK/player-home expect_exit 0 "$ESTAFETTE" audit solo-clone --json
json_get 'd["complete"]' < "$WORK/last.out" | grep -qx True || fail "solo: audit after reveal is not complete: $(cat "$WORK/last.out")"

# 2. A deal of three games: sealed without --sealed.
expect_exit 0 "$ESTAFETTE" new games/anne --ruleset levee-en-masse --players anne-players.json --deal spring-1793 \
	--rules gm-rules --option 10.4=1 --option 10.6=1
for p in bert carl; do
	expect_exit 0 "$ESTAFETTE" new "games/$p" --ruleset levee-en-masse --players "$p-players.json" --deal-from games/anne
done
for p in anne bert carl; do
	json_get 'repr((d["sealed"], d["options"]["deal"]))' < "games/$p/game.json" | grep -qx "(True, 'spring-1793')" ||
		fail "$p: a game of a deal is not sealed by default: $(cat "games/$p/game.json")"
	mail_to "$p"
	turn "$p"  # the join; the start step deals and draws the first card
done
expect_exit 65 "$ESTAFETTE" new games/x --ruleset levee-en-masse --players carl-players.json --option deal=mine
grep -q 'option "deal"' "$WORK/last.err" || fail "a deal option by hand: $(cat "$WORK/last.err")"
expect_exit 65 "$ESTAFETTE" new games/y --ruleset levee-en-masse --players carl-players.json --deal autumn \
	--option deal=mine
grep -q 'option "deal"' "$WORK/last.err" || fail "a deal option by hand beside --deal: $(cat "$WORK/last.err")"

# Anne plays to the end; her cards, turn by turn, are the deal's.
: > deal-cards
for _ in 1 2 3 4 5 6 7; do
	is_over anne && break
	card anne >> deal-cards
	turn anne
done
is_over anne || fail "anne: the six-card game did not end"
[ "$(wc -l < deal-cards)" -ge 3 ] || fail "anne played fewer than three cards: $(cat deal-cards)"
for _ in 1 2; do
	card bert >> bert-cards
	turn bert
done
card carl > carl-cards
head -n 2 deal-cards | cmp -s - bert-cards || fail "bert drew $(cat bert-cards), not the deal's $(head -n 2 deal-cards)"
head -n 1 deal-cards | cmp -s - carl-cards || fail "carl drew $(cat carl-cards), not the deal's first card"
card bert > bert-now
sed -n 3p deal-cards | cmp -s - bert-now || fail "bert's third card is $(cat bert-now), the deal's $(sed -n 3p deal-cards)"

# What Carl must not learn: every card of the deal after his first, by its id and its title.
"$PY" - games/anne/rules/cards.json deal-cards carl-cards > secrets.txt <<'PY'
import json, sys
cards = {c["id"]: c for c in json.load(open(sys.argv[1]))["cards"]}
deal = open(sys.argv[2]).read().split()
seen = set(open(sys.argv[3]).read().split())
for cid in deal:
    if cid not in seen:
        print(cid, cards[cid]["title"], sep="\t")
PY
[ -s secrets.txt ] || fail "nothing of the deal is still hidden from Carl"
# A text shows a card when it holds the card's title (every event, report and view that names a
# card gives its title), or its id as JSON writes it. ("#50" alone is no evidence: the
# placeholder data's notes, public in every report, cite cards by number; nor is the ruleset's
# version in game.json, "ruleset_version", which a card id could match.)
leaks() {  # file label
	"$PY" - secrets.txt "$1" "$2" <<'PY'
import re, sys
text = open(sys.argv[2], encoding="utf-8", errors="replace").read()
# A card id is a JSON string ("2"); game.json's ruleset version is one too, and no card.
text = re.sub(r'"ruleset_version":\s*"[^"]*"', '', text)
found = []
for line in open(sys.argv[1], encoding="utf-8"):
    cid, title = line.rstrip("\n").split("\t")
    for pattern in (re.escape(title), '"%s"' % re.escape(cid)):
        if re.search(pattern, text):
            found.append("card %s (%s) as %s" % (cid, title, pattern))
if found:
    sys.exit("%s shows %s" % (sys.argv[3], "; ".join(found)))
PY
}

# Every object of every ref of every game of the deal, and every commit message and diff, but
# for rules/: the GM's cards.json lists every card of the deal (which cards is public; which
# comes when is not).
for g in anne bert carl; do
	git -C "games/$g" rev-list --objects --all | grep -v ' rules/' | cut -d' ' -f1 |
		git -C "games/$g" cat-file --batch > "objects-$g.txt"
	git -C "games/$g" log -p --all -- . ':!rules' > "log-$g.txt"
	leaks "objects-$g.txt" "$g: an object of its public refs"
	leaks "log-$g.txt" "$g: git log -p --all"
	# The public rolls do not say what they were for: not the Action, not the Army attacked.
	"$PY" - "objects-$g.txt" <<'PY' || fail "$g: a public roll says what it was for"
import html, re, sys
text = html.unescape(open(sys.argv[1], encoding="utf-8", errors="replace").read())
purposes = set(re.findall(r'"purpose": "([^"]*)"', text))
assert all(p.startswith("an Action's roll (what for stays sealed") for p in purposes), purposes
# the reports' dice lines, "d6 = 4: PURPOSE", in text and HTML
shown = set(re.findall(r"d\d+ = \d+: ([^\n<]*)", text))
assert all(p.startswith("an Action's roll (what for stays sealed") for p in shown), shown
PY
	"$ESTAFETTE" status "games/$g" --json > "status-$g.json"
	leaks "status-$g.json" "$g: the GM's status --json"
	# A player's copy: what anyone who can read the repository sees.
	git clone -q "games/$g" "clone-$g"
	git -C "clone-$g" fetch -q --tags
	ESTAFETTE_HOME=$WORK/player-home "$ESTAFETTE" status "clone-$g" --json > "clone-status-$g.json"
	leaks "clone-status-$g.json" "$g: a player's status --json"
	steps=$(json_get 'd["step"]' < "clone-status-$g.json")
	for s in $(seq 1 $((steps - 1))); do
		ESTAFETTE_HOME=$WORK/player-home "$ESTAFETTE" report "clone-$g" --step "$s" --format json > "report-$g-$s.json"
		leaks "report-$g-$s.json" "$g: a player's report --step $s --format json"
		"$ESTAFETTE" report "games/$g" --step "$s" --format json > "gm-report-$g-$s.json"
		leaks "gm-report-$g-$s.json" "$g: the GM's public report --step $s --format json"
	done
	ESTAFETTE_HOME=$WORK/player-home expect_exit 0 "$ESTAFETTE" audit "clone-$g" --json
done
grep -q "an Action's roll (what for stays sealed" objects-anne.txt ||
	fail "Anne's public refs hold no roll: the search for what rolls were for saw none"
# Anne's public state says her game is over, and nothing of how.
json_get 'repr((d["state"]["phase"], sorted(d["state"]["current"])))' < games/anne/state.json |
	grep -qx "('over', \['sealed'\])" || fail "anne's public state: $(cat games/anne/state.json)"

# The mails Bert and Carl got, decoded, part by part.
"$PY" - "$WORK/mail" <<'PY' > mail-summary.txt
import email, email.policy, json, pathlib, sys
for meta in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    rcpt = json.load(open(meta))["rcpt_tos"]
    msg = email.message_from_bytes(meta.with_suffix(".eml").read_bytes(), policy=email.policy.default)
    parts = [str(msg["Subject"])]
    for part in msg.walk():
        if part.get_content_maintype() != "image" and (part.get_content_maintype() == "text" or part.get_filename()):
            payload = part.get_payload(decode=True) or b""
            parts.append(payload.decode("utf-8", "replace"))
    for who in ("bert", "carl", "anne"):
        if any(who in r for r in rcpt):
            with open("mail-%s.txt" % who, "a") as f:
                f.write("\n".join(parts))
            print(who)
PY
grep -qx carl mail-summary.txt && grep -qx bert mail-summary.txt || fail "no mail reached bert and carl: $(cat mail-summary.txt)"
leaks mail-carl.txt "the mails to carl"
# Bert has seen two cards more than Carl: his mails may show those, nothing after.
tail -n +4 deal-cards > bert-secrets
"$PY" - secrets.txt bert-secrets <<'PY' > secrets-bert.txt
import sys
ids = set(open(sys.argv[2]).read().split())
print("".join(l for l in open(sys.argv[1]) if l.split("\t")[0] in ids), end="")
PY
cp secrets.txt secrets-carl.txt
if [ -s secrets-bert.txt ]; then
	cp secrets-bert.txt secrets.txt
	leaks mail-bert.txt "the mails to bert"
	cp secrets-carl.txt secrets.txt
fi
# Anne's own mails show her cards: the test's search does find a card where there is one.
! leaks mail-anne.txt "the mails to anne" 2>/dev/null || fail "the search for cards found none in anne's own mails"

# Anne's reveal would open the deal's hidden chain: refused, naming the games still playing.
expect_exit 64 "$ESTAFETTE" reveal games/anne
# Each with the step its orders carry, as its status says.
for g in bert carl; do
	step=$("$ESTAFETTE" status "games/$g" --json | json_get 'd["step"]')
	grep -q "$g (awaiting step $step)" "$WORK/last.err" ||
		fail "reveal of anne did not name $g, awaiting step $step: $(cat "$WORK/last.err")"
done
[ ! -e games/anne/reveal.json ] || fail "a refused reveal wrote reveal.json"
expect_exit 0 "$ESTAFETTE" standings games
grep -q "reveals wait until every game of the deal is over (2 still playing)" "$WORK/last.out" ||
	fail "standings does not say when the reveals happen: $(cat "$WORK/last.out")"

# 3. The deal ends: Bert and Carl play on, then every game is revealed and audited complete.
for p in bert carl; do
	for _ in 1 2 3 4 5 6 7; do is_over "$p" && break; turn "$p"; done
	is_over "$p" || fail "$p: the six-card game did not end"
done
# Over but not yet revealed: standings names the games the reveals wait for.
expect_exit 0 "$ESTAFETTE" standings games
grep -q "every game is over; 3 not yet revealed (anne, bert, carl): reveal each" "$WORK/last.out" ||
	fail "standings before the reveals: $(cat "$WORK/last.out")"
for p in anne bert carl; do
	expect_exit 0 "$ESTAFETTE" reveal "games/$p"
	rm -rf "clone-$p"
	git clone -q "games/$p" "clone-$p"
	git -C "clone-$p" fetch -q --tags
	ESTAFETTE_HOME=$WORK/player-home expect_exit 0 "$ESTAFETTE" audit "clone-$p" --json
	json_get 'd["complete"]' < "$WORK/last.out" | grep -qx True ||
		fail "$p: audit after the reveal is not complete: $(cat "$WORK/last.out")"
done
# The revealed states hold the cards the deal dealt, in its order.
"$PY" - games/anne deal-cards <<'PY' || fail "anne's revealed states"
import glob, json, sys
played = []
for f in sorted(glob.glob(sys.argv[1] + "/revealed/*/state.json")):
    played = json.load(open(f))["state"]["played"] or played
assert played == open(sys.argv[2]).read().split(), played
PY
expect_exit 0 "$ESTAFETTE" standings games --json
"$PY" - "$WORK/last.out" <<'PY' || fail "standings after the deal: $(cat "$WORK/last.out")"
import json, sys
[deal] = [d for d in json.load(open(sys.argv[1]))["deals"] if d["deal"] == "spring-1793"]
for g in deal["games"]:
    assert g["over"] and g["complete"] and g["revealed"] and g["rank"] is not None, g
    # Scored from the revealed last state: the result, no longer "sealed until the deal is revealed".
    assert "sealed" not in g["result"] and " after " in g["result"], g
assert deal["reveal"].startswith("every game is over and revealed: the deal's cards are public"), deal["reveal"]
PY
# The text says so too, and no longer asks for the reveals just made.
expect_exit 0 "$ESTAFETTE" standings games
grep -q "every game is over and revealed: the deal's cards are public" "$WORK/last.out" &&
	! grep -q "reveal each" "$WORK/last.out" || fail "standings after the reveals: $(cat "$WORK/last.out")"
echo "lem_sealed_challenge: a sealed game plays and reveals; a deal's public refs, reports and mails keep its cards until its last game ends"
