#!/bin/bash
# A run killed at any moment loses nothing: after a loop of runs killed by
# SIGKILL at random points and one run to finish, the repository passes
# git fsck --strict, every step has its tag, the dice verify, and every
# player's report of every step reached the real SMTP server at least once,
# and always under one Message-ID (a rerun never queues a second copy).
# Git lock files a killed process left are cleared, with a warning.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
make_players
start_smtpd "$WORK/mail"
export ESTAFETTE_COMMIT_TIME=1800000000
"$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json --deadline-hours 1 >/dev/null
git -C game config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"

# Step 1 is the join (dice v2): each player's signed file with "orders": [],
# submitted now; the run below resolves it.
for p in france allies; do
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$p" 1 '[]' > "join-$p.json"
	ssh-keygen -q -Y sign -f "$p" -n estafette-orders "join-$p.json"
	expect_exit 0 "$ESTAFETTE" submit game "join-$p.json"
done

# Git lock files left by a killed process on the refs estafette writes:
# removed under the game's lock, with a warning naming each.
touch game/.git/index.lock game/.git/refs/tags/step-0001.lock
expect_exit 0 "$ESTAFETTE" run game --now @1800000000
grep -q "removed .*index.lock, left by a killed process" "$WORK/last.err" ||
	fail "no warning about index.lock: $(cat "$WORK/last.err")"
grep -q "step-0001.lock" "$WORK/last.err" || fail "no warning about the tag lock"
[ "$(git -C game tag | wc -l)" -eq 2 ] || fail "step 1 was not committed and tagged"

# Every deadline passes at once: each run resolves one step by default
# orders (NMR) and mails it; kill runs at random points, 40 times.
now=1800000000
for i in $(seq 40); do
	now=$((now + 4000))
	timeout -s KILL "0.0$((RANDOM % 6 + 1))" "$ESTAFETTE" run game --now "@$now" &>/dev/null || true
done 2>/dev/null
now=$((now + 4000))
expect_exit 0 "$ESTAFETTE" run game --now "@$now"
expect_exit 0 "$ESTAFETTE" run game --now "@$now"

git -C game fsck --strict --no-progress --no-dangling || fail "git fsck --strict after killed runs"
steps=$(git -C game ls-tree --name-only main turns/ | wc -l)
[ "$(git -C game tag | wc -l)" -eq $((steps + 1)) ] || fail "$(git -C game tag | wc -l) tags for $steps steps"
[ -z "$(git -C game status --porcelain)" ] || fail "the work tree lags: $(git -C game status --porcelain | head -3)"
"$PY" "$TOP/tests/helpers/dice_check.py" repo game >/dev/null || fail "dice_check after killed runs"
[ -z "$(ls "$ESTAFETTE_HOME/outbox/game/pending/" 2>/dev/null)" ] || fail "mail left pending: $(ls "$ESTAFETTE_HOME/outbox/game/pending/")"
for step in $(seq 1 "$steps"); do
	n=$(printf '%04d' "$step")
	for p in france allies; do
		ids=$(grep -hE "$(msgid_re game "$n-$p")" mail/*.eml | sort -u | wc -l)
		[ "$ids" -ge 1 ] || fail "report of step $step for $p never reached the server"
		[ "$ids" -eq 1 ] || fail "report of step $step for $p reached the server under $ids Message-IDs"
	done
done
echo "crash_recovery: $steps steps after 40 killed runs, all reports delivered"
