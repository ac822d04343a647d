#!/bin/bash
# The schedule of long games, all with a fake clock
# (run --now, submit --now): deadlines per kind of step that fall only on
# allowed days and hours, the grace period, early resolution and the
# "wait" order field, missed turns (hold, wait, civil disorder) told to
# all, the outage guard and a clock that jumped.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
make_players
SAMPLE=$TOP/turnfiles/napoleonic-empire

iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ; }
T0=$(date -u -d 2026-01-05T10:00:00Z +%s)   # a Monday
H=3600
sign() { rm -f "$1.sig"; ssh-keygen -q -Y sign -f "$2" -n estafette-orders "$1"; }
send() {  # game player orders-json when [make_order options]
	local g=$1 p=$2 o=$3 t=$4; shift 4
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$g" "$p" 1 "$o" "$@" > "$p.json"
	sign "$p.json" "$p"
	"$ESTAFETTE" submit "$g" "$p.json" --now "@$t" >/dev/null
}
run() { "$ESTAFETTE" run "$1" --now "@$2" "${@:3}"; }
# A turn with nothing but the discards the hand limit asks for (Napoleonic Empire, Draw Phase).
pass() {  # game player when
	local o
	o=$("$ESTAFETTE" report "$1" --player "$2" --format json | "$PY" -c '
import json, sys
hand = json.load(sys.stdin)["view"]["hand"]
print(json.dumps([{"type": "discard", "card": c["id"]} for c in hand[:max(0, len(hand) - 7)]]))')
	send "$1" "$2" "$o" "$3"
}
status() { "$ESTAFETTE" status "$1" --now "@$2" --json; }
# The join (step 1 of a dice v2 game) on the fake clock: lib.sh's join runs
# on the real one, which the clock guards would take for a jumped clock.
join_at() {  # game when player...
	local g=$1 t=$2 p; shift 2
	run "$g" "$t" >/dev/null   # opens the join (and mails the invitations)
	for p in "$@"; do send "$g" "$p" '[]' "$t"; done
	run "$g" "$t" | grep -q "resolved step 1$" || fail "$g: the join did not resolve"
}
manifest() { cat "$1/turns/$(printf %04d "$2")/manifest.json"; }

# --- Deadlines per kind, on allowed days and hours only ---
cat > week.json <<'JSON'
{"deadline_hours": 24, "deadlines": {"turn": 48}, "days": ["mon", "tue", "wed", "thu", "fri"],
 "hours": [9, 17], "grace_hours": 2, "clock_jump_hours": 720}
JSON
"$ESTAFETTE" new week --ruleset napoleonic-empire --players players.json --schedule week.json >/dev/null
join_at week "$T0" france allies
[ "$(status week "$T0" | json_get 'd["deadline"]')" = 2026-01-07T10:00:00Z ] ||
	fail "a turn opened Monday 10:00 with 48 hours: $(status week "$T0")"
# A step opened on Friday 16:00 with 48 hours would end on Sunday: it moves to Monday 09:00.
FRI=$(date -u -d 2026-01-09T16:00:00Z +%s)
send week france '[]' "$FRI"
run week "$FRI" >/dev/null
[ "$(status week "$FRI" | json_get 'd["deadline"]')" = 2026-01-12T09:00:00Z ] ||
	fail "a deadline on a Sunday did not move to Monday 09:00: $(status week "$FRI")"
# Grace: an hour past the deadline the step still waits; three hours past, it resolves.
MON=$(date -u -d 2026-01-12T09:00:00Z +%s)
run week $((MON + H)) | grep -q "nothing due" || fail "resolved within the grace period"
run week $((MON + 3 * H)) | grep -q "resolved step 3" || fail "not resolved after the grace period"
manifest week 3 | json_get 'd["missing"][0]["player"]' | grep -qx allies || fail "allies not missing"
grep -q '"type": "nmr"' week/turns/0003/events.json || fail "the missed turn is not an event"
grep -q "Allied player (allies) sent no orders" week/turns/0003/report.txt || fail "the report does not tell the missed turn"
bad() { echo "$1" > bad.json; out=$("$ESTAFETTE" new "b$RANDOM" --ruleset napoleonic-empire --players players.json --schedule bad.json 2>&1) &&
	fail "schedule $1 accepted"; grep -q "$2" <<<"$out" || fail "schedule $1: $out"; }
bad '{"deadline_hour": 3}' 'unknown field "schedule.deadline_hour"'
bad '{"days": ["monday"]}' 'schedule.days\[0\]'
bad '{"hours": [17, 9]}' 'schedule.hours'
bad '{"nmr": "skip"}' 'schedule.nmr'

# --- Early resolution, and "wait": true ---
"$ESTAFETTE" new early --ruleset napoleonic-empire --players players.json --deadline-hours 24 >/dev/null
join_at early "$T0" france allies
send early france '[]' "$T0"
run early $((T0 + H)) | grep -q "resolved step 2" || fail "no early resolution once every order was in"
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" early allies 1 '[]' > allies.json
"$PY" -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d["wait"]=True; open(p,"w").write(json.dumps(d))' allies.json
sign allies.json allies
"$ESTAFETTE" submit early allies.json --now "@$((T0 + H))" >/dev/null
run early $((T0 + 2 * H)) | grep -q "nothing due" || fail "resolved although the order asked to wait"
run early $((T0 + 26 * H)) | grep -q "resolved step 3" || fail "not resolved at the deadline"
[ "$(manifest early 3 | json_get 'len(d["missing"])')" = 0 ] || fail "the waiting player counted as missing"

# --- nmr: wait, and the GM's --force ---
echo '{"deadline_hours": 24, "nmr": "wait"}' > wait.json
"$ESTAFETTE" new waits --ruleset napoleonic-empire --players players.json --schedule wait.json >/dev/null
join_at waits "$T0" france allies
run waits $((T0 + 30 * H)) | grep -q "nothing due" || fail "nmr wait resolved at the deadline"
run waits $((T0 + 30 * H)) --force | grep -q "resolved step 2" || fail "--force did not resolve"
manifest waits 2 | grep -q '"forced"' || fail "the manifest does not say the GM forced it"

# --- Civil disorder after two missed steps in a row ---
echo '{"deadline_hours": 24, "civil_disorder_after": 2}' > cd.json
"$ESTAFETTE" new cd --ruleset napoleonic-empire --players players.json --schedule cd.json >/dev/null
t=$T0
join_at cd "$t" france allies
for turn in 1 2; do
	pass cd france "$t"; run cd "$t" >/dev/null                # France's turn
	t=$((t + 25 * H)); run cd "$t" >/dev/null                       # the Allies miss theirs
done
last=$(status cd "$t" | json_get 'd["step"] - 1')
[ "$(manifest cd "$last" | json_get 'd["missing"][0]["policy"]')" = "no moves received: the ruleset's default orders" ] ||
	fail "step $last: $(manifest cd "$last")"
grep -q "from now on in civil disorder" "cd/turns/$(printf %04d "$last")/events.json" || fail "entering civil disorder is not told"
# Now the Allies are in civil disorder: status says so, and their step still waits for its
# deadline (all it awaits are in civil disorder), then takes the rules' default orders.
pass cd france "$t"
run cd "$t" | grep -q "resolved step $((last + 1))$" || fail "France's step did not resolve"
"$ESTAFETTE" status cd --now "@$t" | grep -q "allies .*awaited (civil disorder)" || fail "status does not show civil disorder"
run cd "$t" | grep -q "nothing due" || fail "the step of a player in civil disorder did not wait for its deadline"
run cd $((t + 25 * H)) | grep -q "resolved step $((last + 2))" || fail "not resolved at the deadline"
manifest cd $((last + 2)) | json_get 'd["missing"][0]["policy"]' | grep -q "^civil disorder" || fail "no civil disorder"
grep -q "3 steps missed in a row" "cd/turns/$(printf %04d $((last + 2)))/events.json" || fail "the count is not told"
# A player in civil disorder who sends orders is back.
t=$((t + 25 * H))
pass cd france "$t"; run cd "$t" >/dev/null
pass cd allies "$t"
run cd "$t" | grep -q "resolved step $((last + 4))" || fail "the returning player's orders did not resolve the step"
[ "$(manifest cd $((last + 4)) | json_get 'len(d["missing"])')" = 0 ] || fail "the returning player counted as missing"

# --- The outage guard: both sides missing at a battle-cards step ---
# Game so-28 with the sample dice secret: the Allies' attack on Italy asks both sides for cards.
cp "$SAMPLE/keys/france" sfrance && cp "$SAMPLE/keys/allies" sallies && chmod 600 sfrance sallies
export ESTAFETTE_COMMIT_TIME=1764000000
S0=1764000000
"$ESTAFETTE" new out --id so-28 --ruleset napoleonic-empire --players "$SAMPLE/players.json" \
	--test-dice-secret "estafette sample game" --dice-protocol v1 --deadline-hours 24 >/dev/null
run out $S0 >/dev/null
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" out france 1 '[]' > f.json && sign f.json sfrance
"$ESTAFETTE" submit out f.json --now "@$S0" >/dev/null && run out $S0 >/dev/null
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" out allies 1 \
	'[{"type": "move", "from": "Austria", "to": "Italy", "armies": 8}]' > a.json && sign a.json sallies
"$ESTAFETTE" submit out a.json --now "@$S0" >/dev/null && run out $S0 >/dev/null
[ "$(status out $S0 | json_get '",".join(a["player"] for a in d["awaiting"])')" = france,allies ] ||
	fail "not both awaited: $(status out $S0)"
out=$(run out $((S0 + 25 * H)) 2>&1)
grep -q "nothing due" <<<"$out" && grep -q "2 of 2 awaited players sent nothing" <<<"$out" || fail "no outage guard: $out"
# No GM address yet: the notice is kept for the GM, never mailed to the orders address.
ls "$ESTAFETTE_HOME/games/so-28/gm-notices/"*-outage.txt >/dev/null 2>&1 || fail "the outage notice was not kept"
grep -q "estafette.gmaddress is not set" <<<"$out" || fail "the run did not say notices cannot reach the GM: $out"
ls "$ESTAFETTE_HOME/outbox/so-28/pending/"*-outage.eml >/dev/null 2>&1 && fail "an outage notice queued with no GM address"
# With one, the next step's outage notice goes to it (docs/mail.md "Two addresses").
git -C out config estafette.gmaddress "GM <gm@example.net>"
rm "$ESTAFETTE_HOME/games/so-28/gm-notices/"*-outage.txt
run out $((S0 + 25 * H)) >/dev/null 2>&1
grep -qi "^To: gm@example.net" "$ESTAFETTE_HOME/outbox/so-28/pending/"*-outage.eml 2>/dev/null ||
	fail "the outage notice did not go to the GM's address"
run out $((S0 + 25 * H)) --force | grep -q "resolved step 4" || fail "--force did not pass the outage guard"
manifest out 4 | grep -q "outage guard" || fail "the manifest does not record the forced outage"
unset ESTAFETTE_COMMIT_TIME

# --- A clock that jumped ---
"$ESTAFETTE" new clock --ruleset napoleonic-empire --players players.json --deadline-hours 24 >/dev/null
join_at clock "$T0" france allies
out=$(run clock $((T0 + 100 * H)) 2>&1)
grep -q "nothing due" <<<"$out" && grep -q "jumped forwards" <<<"$out" || fail "a jump of 100 hours went unnoticed: $out"
out=$(run clock $((T0 - 5 * H)) 2>&1)
grep -q "went backwards" <<<"$out" || fail "a clock that went backwards went unnoticed: $out"
ls "$ESTAFETTE_HOME/games/clock/gm-notices/"clock-*.txt >/dev/null 2>&1 || fail "the GM was not told of the clock"
run clock $((T0 + 100 * H)) --confirm-clock | grep -q "resolved step 2" || fail "--confirm-clock did not resolve"
run clock $((T0 + 101 * H)) >/dev/null 2>clock.err
grep -q "jumped\|backwards" clock.err && fail "the confirmed clock is still doubted: $(cat clock.err)"
# Confirming a clock that went backwards makes it the last run's.
"$ESTAFETTE" new back --ruleset napoleonic-empire --players players.json --deadline-hours 24 >/dev/null
run back "$T0" >/dev/null
run back $((T0 - 50 * H)) --confirm-clock >/dev/null 2>&1
run back $((T0 - 49 * H)) >/dev/null 2>back.err
grep -q "backwards" back.err && fail "the confirmed earlier clock is still doubted: $(cat back.err)"
# "wait": true asks for a deadline: refused in a step that has none.
"$ESTAFETTE" new nodeadline --ruleset napoleonic-empire --players players.json >/dev/null
join_at nodeadline "$T0" france allies
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" nodeadline france 1 '[]' > w.json
"$PY" -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d["wait"]=True; open(p,"w").write(json.dumps(d))' w.json
sign w.json france
out=$("$ESTAFETTE" submit nodeadline w.json --now "@$T0" 2>&1) && fail "wait accepted without a deadline"
grep -q 'field "wait" asks step 2 to wait for its deadline, and it has none' <<<"$out" || fail "$out"
for g in week early waits cd out clock; do git -C "$g" fsck --strict --no-progress || fail "git fsck $g"; done
"$ESTAFETTE" audit cd >/dev/null || fail "audit of the civil-disorder game"
echo "schedule: deadlines, grace, wait, nmr hold/wait/civil disorder, outage and clock guards hold"
