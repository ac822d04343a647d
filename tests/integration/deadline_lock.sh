#!/bin/bash
# Deadlines and the lock: a step whose deadline passed resolves with the
# ruleset's default orders for the missing player (told in the manifest);
# before the deadline nothing happens; a second process on a locked game
# exits 75 and changes nothing.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"

make_players
export ESTAFETTE_COMMIT_TIME=1800000000   # 2027-01-15T08:00:00Z
"$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json --deadline-hours 48 \
	--reminder-hours 6 >/dev/null
# Step 1 is the join (dice v2): each player's signed file with "orders": [],
# then a run at the game's start time resolves it (the run in lib.sh's join
# would record the machine's clock, far from the --now times used here).
# Step 2 is France's first turn.
for p in france allies; do
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$p" 1 '[]' > "join-$p.json"
	ssh-keygen -q -Y sign -f "$p" -n estafette-orders "join-$p.json"
	"$ESTAFETTE" submit game "join-$p.json" >/dev/null
done
"$ESTAFETTE" run game --now @1800000000 >/dev/null
[ "$("$ESTAFETTE" status game --json | json_get 'd["step"]')" = 2 ] || fail "the join did not resolve"
"$ESTAFETTE" status game --json > status.json
deadline=$(json_get 'd["awaiting"][0]["deadline"]' < status.json)
[ "$deadline" = "2027-01-17T08:00:00Z" ] || fail "deadline $deadline"

# Reminders: none before the offset; from 6 hours before the deadline, one to
# the player whose orders are missing, once however often run is called.
before_reminders=$(commits game)
reminders() { ls "$ESTAFETTE_HOME/outbox/game/pending/" | grep -c 'reminder\.eml$' || true; }
expect_exit 0 "$ESTAFETTE" run game --now 2027-01-17T01:59:59Z
[ "$(reminders)" -eq 0 ] || fail "a reminder before the offset"
expect_exit 0 "$ESTAFETTE" run game --now 2027-01-17T02:00:00Z
expect_exit 0 "$ESTAFETTE" run game --now 2027-01-17T03:00:00Z
[ "$(reminders)" -eq 1 ] || fail "$(reminders) reminders queued, expected 1 (france's)"
grep -q "^To: .*france@example.org" "$ESTAFETTE_HOME"/outbox/game/pending/0002-france-reminder.eml ||
	fail "the reminder is not for france"
[ "$(commits game)" -eq "$before_reminders" ] || fail "a reminder run committed"

# Before the deadline: nothing due.
before=$(commits game)
expect_exit 0 "$ESTAFETTE" run game --now 2027-01-17T07:59:59Z
[ "$(commits game)" -eq "$before" ] || fail "resolved before the deadline"

# The lock: a run while another process holds it exits 75 and writes nothing.
flock game/.git/estafette.lock sleep 3 &
holder=$!
sleep 0.5
expect_exit 75 "$ESTAFETTE" run game --now 2027-01-18T00:00:00Z
grep -q "holds" "$WORK/last.err" || fail "lock message: $(cat "$WORK/last.err")"
wait "$holder"
[ "$(commits game)" -eq "$before" ] || fail "a locked run committed"

# After the deadline: France's turn resolves with default orders (no moves received).
expect_exit 0 "$ESTAFETTE" run game --now 2027-01-18T00:00:00Z
[ "$(commits game)" -gt "$before" ] || fail "nothing resolved after the deadline"
git -C game show main:turns/0002/manifest.json > manifest.json
[ "$(json_get 'd["missing"][0]["player"]' < manifest.json)" = france ] ||
	fail "the manifest does not name the missing player: $(cat manifest.json)"
[ "$(json_get 'len(d["orders"])' < manifest.json)" = 0 ] || fail "orders in an NMR step"
# An order recorded later does not move the open step's deadline.
deadline=$("$ESTAFETTE" status game --json | json_get 'd["deadline"]')
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game allies 1 '[]' > allies.json
ssh-keygen -q -Y sign -f allies -n estafette-orders allies.json
ESTAFETTE_COMMIT_TIME=1800090000 expect_exit 0 "$ESTAFETTE" submit game allies.json
[ "$("$ESTAFETTE" status game --json | json_get 'd["deadline"]')" = "$deadline" ] ||
	fail "recording an order moved the deadline from $deadline"

git -C game fsck --strict --no-progress || fail "git fsck --strict"
echo "deadline_lock: deadline, default orders and lock held"
