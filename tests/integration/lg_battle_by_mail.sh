#!/bin/bash
# La Guerre de l'Empereur's sample campaign played by mail through a real
# SMTP server (aiosmtpd on loopback). The game is created exactly as
# tests/demo.sh creates it, so the sample's signed orders and dice hold;
# each order file then goes to the GM as a real RFC 5322 message (several
# client styles; a decision is a reply to the report that asked it) through
# `estafette receive`, and `estafette run` resolves what is due. After every
# run the new mail is read back with Python's email module: one report per
# player per step, and the decision the game awaits asked of the right
# player only. Then the story: the Venetia battle's 5.612 steps 4, 5 and 6
# asked of Austria, France, Austria and answered in later runs; an answer
# from the wrong player refused with a receipt saying so; Britain's army
# moved by the player holding Austria and Britain; the Upper Austria battle
# settled in one run by Austria's standing order. git fsck --strict and
# `estafette audit` close.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
SAMPLE=$TOP/turnfiles/la-guerre
MAIL=$WORK/mail

lgm() { "$PY" "$TOP/tests/helpers/lg_mailbox.py" "$@"; }
# field FILE EXPR: a value from a JSON file, by a Python expression on `d`.
field() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
status() { "$ESTAFETTE" status game --json > "$WORK/status.json"; }
st() { field "$WORK/status.json" "$1"; }
awaited() { st '" ".join(a["player"] for a in d["awaiting"])'; }
# address P: "Name" <email> of player P, from the sample's players.json.
address() {
	"$PY" -c 'import json,sys,email.utils as u
p=[p for p in json.load(open(sys.argv[1]))["players"] if p["id"]==sys.argv[2]][0]
print(u.formataddr((p["name"], p["email"])) if sys.argv[3]=="full" else p["email"])' \
		"$SAMPLE/players.json" "$1" "${2:-full}"
}
mail_of() {  # style order-file player -> message on stdout
	"$PY" "$TOP/tests/helpers/make_mail.py" "$1" --order "$2" --sig "$2.sig" \
		--from "$(address "$3")" --to "la-guerre GM <gm@example.org>"
}

# The game, as tests/demo.sh creates it (plan.json says id, dice secret, clock).
id=$(field "$SAMPLE/plan.json" 'd["game"]')
secret=$(field "$SAMPLE/plan.json" 'd["secret"]')
ESTAFETTE_COMMIT_TIME=$(field "$SAMPLE/plan.json" 'd["clock"]')
export ESTAFETTE_COMMIT_TIME
expect_exit 0 "$ESTAFETTE" new game --ruleset la-guerre --id "$id" --players "$SAMPLE/players.json" \
	--test-dice-secret "$secret" --dice-protocol "$(field "$SAMPLE/plan.json" 'd.get("dice_protocol", "v2")')"
start_smtpd "$MAIL"
git -C game config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
git -C game config estafette.sender "la-guerre GM <gm@example.org>"
expect_exit 0 "$ESTAFETTE" run game
# The first run invites each player to the join (step 1), and mails nothing else.
"$PY" - "$MAIL" "$id" "$SAMPLE/players.json" "$(host_domain)" <<'PY' || fail "the first run's mail is not the invitations"
import email, email.policy, json, pathlib, re, sys
box, game, players = pathlib.Path(sys.argv[1]), sys.argv[2], json.load(open(sys.argv[3]))["players"]
ids = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)["Message-ID"]
       for p in box.glob("*.eml")]
got = sorted(re.fullmatch(r"<[0-9a-f]{32}\.(.+)@" + re.escape(sys.argv[4]) + ">", i).group(1) for i in ids)
want = sorted(f"{game}.0001-{p['id']}-join" for p in players)
assert got == want, (ids, want)
PY
mark=$(lgm last "$MAIL")

# An answer out of turn: while the game awaits $1's decision, $2 signs an
# answer for the same step with its own (valid) key and mails it. receive
# deals with it (exit 0, so the mail system neither bounces nor retries:
# cmd/estafette/receive.c) by refusing it, and the receipt tells $2 why.
wrong_player() {
	local want=$1 other=$2 head kind msgid receipt
	head=$(git -C game rev-parse main)
	kind=$(st 'd["kind"]')
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$other" 1 \
		'[{"type": "option", "option": "attack"}]' > wrong.json
	install -m 600 "$SAMPLE/keys/$other" "$other.key"   # the sample's TEST key
	ssh-keygen -q -Y sign -f "$other.key" -n estafette-orders wrong.json < /dev/null
	mail_of alternative wrong.json "$other" > wrong.eml
	expect_exit 0 "$ESTAFETTE" receive game --json < wrong.eml
	[ "$(json_get 'd["status"]' < "$WORK/last.out")" = refused ] ||
		fail "$other's answer for $want's decision was not refused: $(cat "$WORK/last.out")"
	json_get '" ".join(c["error"] for c in d["candidates"])' < "$WORK/last.out" |
		grep -qF "player \"$other\" is not awaited" ||
		fail "refused, but not because $other is not awaited: $(cat "$WORK/last.out")"
	msgid=$(json_get 'd["message_id"]' < "$WORK/last.out")
	receipt=$(lgm receipt "$MAIL" "$mark" "$(address "$other" email)" "$msgid") ||
		fail "no receipt to $other for the refused answer"
	grep -qF "player \"$other\" is not awaited" <<< "$receipt" ||
		fail "the receipt to $other does not say it is not awaited: $receipt"
	grep -q "ACCEPTED" <<< "$receipt" && fail "the receipt to $other accepts: $receipt"
	mark=$(lgm last "$MAIL")
	[ "$(git -C game rev-parse main)" = "$head" ] || fail "the refused answer was committed"
	git -C game cat-file -e "main:orders/$other.json" 2>/dev/null &&
		fail "orders/$other.json recorded for $want's decision"
	status
	[ "$(awaited)" = "$want" ] && [ "$(st 'd["kind"]')" = "$kind" ] ||
		fail "after the refusal the game awaits $(awaited) ($(st 'd["kind"]')), not $want ($kind)"
	echo "refused: $other's answer to $want's $kind"
}

# Every sample order, in order, by mail; the plan says what each run asks next.
# The join's files (step 1, one per player, no orders) come first; plan.json
# lists the orders that follow.
orders=("$SAMPLE"/orders/*.json)
joins=("$SAMPLE"/orders/0001-*.json)
[ "${#joins[@]}" -eq "$(field "$SAMPLE/players.json" 'len(d["players"])')" ] ||
	fail "the sample's join files are not one per player: ${joins[*]}"
[ "$(field "$SAMPLE/plan.json" 'len(d["plan"])')" -eq $((${#orders[@]} - ${#joins[@]})) ] ||
	fail "plan.json and orders/ disagree on the number of order files"
styles=(attachments plain attachments qp alternative flowed base64)
: > asked.log
wrong_done=
for i in "${!orders[@]}"; do
	order=${orders[$i]}
	player=$(field "$order" 'd["player"]')
	step=$(field "$order" 'd["step"]')
	status
	kind=$(st 'd["kind"]')
	[ "$(st 'd["step"]')" -eq "$step" ] || fail "$order is for step $step, the game awaits $(st 'd["step"]')"
	grep -qw "$player" <<< "$(awaited)" || fail "$order: $player sends, the game awaits $(awaited)"
	echo "$step $kind $(awaited)" >> asked.log
	mail_of "${styles[$((i % ${#styles[@]}))]}" "$order" "$player" > "m$i.eml"
	case $kind in
	battle-step-* | retreat)
		# A decision is answered as a reply to the report that asked it,
		# which an earlier run mailed.
		report=$(lgm path "$MAIL" "$id.$(printf %04d $((step - 1)))-$player") ||
			fail "step $step ($kind): $player answers a report never mailed"
		lgm reply "$report" < "m$i.eml" > "reply$i.eml"
		mv "reply$i.eml" "m$i.eml"
		if [ "$kind" = battle-step-4 ] && [ -z "$wrong_done" ]; then
			other=$( [ "$player" = france ] && echo austria || echo france)
			wrong_player "$player" "$other"
			wrong_done=1
		fi
		;;
	esac
	expect_exit 0 "$ESTAFETTE" receive game --json < "m$i.eml"
	[ "$(json_get 'd["status"]' < "$WORK/last.out")" = accepted ] ||
		fail "$order by mail: $(cat "$WORK/last.out")"
	msgid=$(json_get 'd["message_id"]' < "$WORK/last.out")
	receipt=$(lgm receipt "$MAIL" "$mark" "$(address "$player" email)" "$msgid") ||
		fail "$order: no receipt"
	accepted="ACCEPTED: orders of $player for step $step"
	[ "$step" != 1 ] || accepted="ACCEPTED: $player has joined (step 1"
	grep -qF "$accepted" <<< "$receipt" ||
		fail "$order: the receipt does not accept it: $receipt"
	mark=$(lgm last "$MAIL")

	expect_exit 0 "$ESTAFETTE" run game
	status
	mark=$(lgm run "$MAIL" "$mark" game "$ESTAFETTE" "$step" $(($(st 'd["step"]') - 1))) ||
		fail "the mail of the run after $(basename "$order")"
	# plan.json's "then" names the kind of step that comes next and a player
	# it awaits (one of several when the step is simultaneous).
	then=None
	[ "$i" -lt "${#joins[@]}" ] ||
		then=$(field "$SAMPLE/plan.json" "(lambda t: t and t['player'] + ' ' + t['kind'])(d['plan'][$((i - ${#joins[@]}))].get('then'))")
	if [ "$then" != None ]; then
		[ "$(st 'd["kind"]')" = "${then#* }" ] && grep -qw "${then% *}" <<< "$(awaited)" ||
			fail "after $(basename "$order") the game awaits $(awaited) ($(st 'd["kind"]')), the plan says $then"
	fi
done
[ -n "$wrong_done" ] || fail "the sample never awaited a 5.612 step 4 decision"
last=$(($(st 'd["step"]') - 1))

# The story, from the repository: who was asked, who answered, what happened.
"$PY" - game asked.log "$SAMPLE/orders" <<'PY' || fail "the story"
import json, pathlib, subprocess, sys
game, asked_log, sample = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
def blob(rev, path):
    return json.loads(subprocess.run(["git", "-C", game, "cat-file", "blob", f"{rev}:{path}"],
                                     check=True, capture_output=True).stdout)
asked = {}
for line in open(asked_log):
    step, kind, *players = line.split()
    asked[int(step)] = (kind, players)
last = max(asked)
events = {s: blob("main", f"turns/{s:04d}/events.json")["events"] for s in range(1, last + 1)}
manifest = {s: blob("main", f"turns/{s:04d}/manifest.json") for s in range(1, last + 1)}
def order_items(step, player):
    return blob("main", f"turns/{step:04d}/orders/{player}.json")["orders"]

# Venetia: 5.612 step 4 asked of austria (Austria has the initiative), step 5
# of france, step 6 of austria; each answered by that player alone, in its
# own step, with the option its order file names.
decided = []
for k, player, power in ((4, "austria", "Austria"), (5, "france", "France"), (6, "austria", "Austria")):
    steps = [s for s, ev in events.items() for e in ev
             if e["type"] == "option" and e.get("province") == "Venetia" and e.get("battle_step") == k]
    assert len(steps) == 1, f"Venetia 5.612 step {k} decided in steps {steps}"
    s = steps[0]
    assert asked.get(s) == (f"battle-step-{k}", [player]), \
        f"Venetia step {k} (game step {s}) was asked as {asked.get(s)}, not of {player}"
    assert [o["player"] for o in manifest[s]["orders"]] == [player], manifest[s]["orders"]
    ev = next(e for e in events[s] if e["type"] == "option")
    chosen = [o["option"] for o in order_items(s, player) if o["type"] == "option"]
    assert ev["power"] == power and [ev["option"]] == chosen, \
        f"Venetia step {k}: the events say {ev['power']} chose {ev['option']}, {player} sent {chosen}"
    decided.append(s)
assert decided == sorted(decided) and decided[-1] - decided[0] == 2, \
    f"Venetia's steps 4, 5, 6 are not three steps in a row: {decided}"

# The player holding Austria and Britain moves Britain's army with "power": "Britain".
players = blob("main", "game.json")["players"]
holder = [p["id"] for p in players if "Britain" in p["powers"]]
assert len(holder) == 1 and len(next(p for p in players if p["id"] == holder[0])["powers"]) == 2, \
    f"Britain is held by {holder}, not by a player holding two powers"
holder = holder[0]
britain = [(s, o) for s in range(1, last + 1)
           if any(x["player"] == holder for x in manifest[s]["orders"])
           for o in order_items(s, holder) if o.get("power") == "Britain" and o["type"] == "move"]
assert britain, "no move addressed to Britain"
for s, o in britain:
    before = {a["id"]: a for a in blob(f"step-{s - 1:04d}", "state.json")["state"]["armies"]}
    after = {a["id"]: a for a in blob(f"step-{s:04d}", "state.json")["state"]["armies"]}
    army = o["army"]
    assert before[army]["nation"] == "Britain", f"{army} is not British"
    assert after[army]["location"] == o["path"][-1] != before[army]["location"], \
        f"{army} did not move to {o['path'][-1]} in step {s}"
    moves = [e for e in events[s] if e["type"] == "move" and e.get("army") == army]
    assert len(moves) == 1 and moves[0]["text"].startswith("Britain's army"), moves
    powers = [x["powers"] for x in manifest[s]["orders"] if x["player"] == holder][0]
    assert "Britain" in powers, f"step {s}: the manifest gives {holder} {powers}"

# Upper Austria: France's move starts the battle and Austria's standing order
# answers its 5.612 step 4 in the same step, so no step awaits that decision.
said = [s for s, ev in events.items() for e in ev
        if "standing order for Upper Austria, step 4, answers" in e["text"]]
assert len(said) == 1, f"the standing order for Upper Austria answers in steps {said}"
s = said[0]
assert asked[s] == ("turn", ["france"]), f"Upper Austria's step {s} was {asked[s]}, not France's turn"
ua = [(t, e) for t, ev in events.items() for e in ev
      if e["type"] == "option" and e.get("province") == "Upper Austria"]
assert [(t, e["battle_step"], e["power"]) for t, e in ua] == [(s, 4, "Austria")], ua
standing = [o for t in range(1, s) if any(x["player"] == "austria" for x in manifest[t]["orders"])
            for o in order_items(t, "austria")
            if o["type"] == "standing" and o["at"] == "Upper Austria" and o["step"] == 4]
assert standing and ua[0][1]["option"] == standing[-1]["option"], (standing, ua)
assert not asked.get(s + 1, ("",))[0].startswith("battle-step"), \
    f"a decision followed the Upper Austria battle: {asked.get(s + 1)}"
print(f"story: Venetia decided in steps {decided}; Britain moved in {[s for s, _ in britain]}; "
      f"Upper Austria settled in step {s} by a standing order")
PY

# No report ever asked austria about Upper Austria: the decision never came up.
"$PY" - "$MAIL" <<'PY' || fail "a report asked the Upper Austria decision"
import email, email.policy, pathlib, sys
for p in sorted(pathlib.Path(sys.argv[1]).glob("*.eml")):
    m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
    body = m.get_body(("plain",))
    text = body.get_content() if body else ""
    for line in text.splitlines():
        if line.strip().startswith("Awaited: 5.612") and "Upper Austria" in line:
            sys.exit(f"{p.name} to {m['To']}: {line.strip()}")
PY

summary=$(lgm all "$MAIL" game "$last") || fail "the reports in the mailbox"
git -C game fsck --strict --no-progress || fail "git fsck --strict"
expect_exit 0 "$ESTAFETTE" audit game
echo "lg_battle_by_mail: $last steps by mail; $summary"
