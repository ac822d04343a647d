#!/bin/bash
# make bench: every figure against its baseline in the same run,
# several repetitions, median and spread, the targets beside them.
# Each bench prints a table and one JSON line; the JSON lines are collected
# in tests/bench/results.json (not committed; BENCH_OUT=FILE to put them
# elsewhere). BENCH_QUICK=1 runs small sizes (50 games, 500 with nothing
# due, a 300-step history, a 50-step signed audit); BENCH_SMOKE=1 tiny ones,
# whose figures mean nothing: tests/integration/bench_smoke.sh runs it in
# make check so that a change that breaks the bench is seen at once.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-build}
ESTAFETTE=$top/$B/estafette
PY=/usr/bin/python3
out=${BENCH_OUT:-$top/tests/bench/results.json}
DICE=400000
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	N=3 IDLE=4 HIST=26 AUDIT=3 REPS=1 DICE=2000 mode=smoke
elif [ "${BENCH_QUICK:-0}" = 1 ]; then
	N=50 IDLE=500 HIST=300 AUDIT=50 REPS=3 mode=quick
else
	N=1000 IDLE=10000 HIST=2000 AUDIT=200 REPS=3 mode=full
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/estafette-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export ESTAFETTE_HOME=$WORK/home ESTAFETTE_COMMIT_TIME=1800000000
T0=1800000000
raw=$WORK/raw.txt
: > "$raw"
: > "$out"
note() { echo "$*" >> "$raw"; }
# timed LABEL command...: wall seconds (from date, finer than time's %e),
# peak RSS (KiB, /usr/bin/time -v's maximum resident set) and minor page
# faults of the command. The faults show how malloc served the map's large
# surfaces (docs/performance.md, "Memory"): a run that faulted several times
# as often as its neighbours was slowed by that, not by estafette's work.
timed() {
	local label=$1 t0 t1; shift
	t0=$(date +%s%N)
	/usr/bin/time -f "%M %R" -o "$WORK/time" "$@" > "$WORK/timed.out" 2>&1 ||
		{ cat "$WORK/timed.out" >&2; echo "bench: $label failed" >&2; exit 1; }
	t1=$(date +%s%N)
	note "$label $(( (t1 - t0) / 1000 ))e-6 $(cat "$WORK/time")"
}

cd "$WORK"
for p in france allies; do ssh-keygen -q -t ed25519 -N '' -C "$p" -f "$p"; done
cat > players.json <<JSON
{"players": [
 {"id": "france", "name": "France player", "email": "france@example.org", "key": "$(cat france.pub)"},
 {"id": "allies", "name": "Allied player", "email": "allies@example.org", "key": "$(cat allies.pub)"}]}
JSON

# BENCH_ONLY=idle: only the nothing-due bench (and the table of it).
only=${BENCH_ONLY:-}

# sign_awaited GAME WHEN: signed orders for every awaited player, submitted.
# An order is the discards the Draw Phase's hand limit asks for.
sign_awaited() {
	local g=$1 when=$2 p o
	for p in $("$ESTAFETTE" status "$g" --json |
		"$PY" -c 'import json,sys; print(" ".join(a["player"] for a in json.load(sys.stdin)["awaiting"]))'); do
		o=$("$ESTAFETTE" report "$g" --player "$p" --format json | "$PY" -c '
import json, sys
hand = json.load(sys.stdin)["view"].get("hand", [])
print(json.dumps([{"type": "discard", "card": c["id"]} for c in hand[:max(0, len(hand) - 7)]]))')
		"$PY" "$top/tests/helpers/make_order.py" "$ESTAFETTE" "$g" "$p" 1 "$o" > "$p.json"
		rm -f "$p.json.sig"
		ssh-keygen -q -Y sign -f "$p" -n estafette-orders "$p.json"
		"$ESTAFETTE" submit "$g" "$p.json" --sig "$p.json.sig" --now "@$when" >/dev/null
	done
}

# --- (0) nothing due: IDLE games (each its own, with its own id: run
# --all refuses a second folder of one id), each at its join, awaiting
# both players, their invitations sent (the outbox empty), run --all over
# them with their next-due records, against the same pass run in full (the
# records removed first) and against a shell loop that only reads a game's
# main with git rev-parse, the floor of checking a ref with git (over the
# first 1,000 games).
idle_bench() {
	local home=$WORK/home-idle i r
	mkdir idle-games
	seq -w 1 "$IDLE" | ESTAFETTE_HOME=$home xargs -P "$(nproc)" -I{} sh -c '
		"$1" new "idle-games/g$2" --ruleset napoleonic-empire --players players.json \
			--deadline-hours 48 --test-dice-secret bench >/dev/null &&
		git -C "idle-games/g$2" config estafette.sender "Bench <orders@example.org>"' sh "$ESTAFETTE" {}
	# The first pass queues each game's invitations, sent here by hand.
	ESTAFETTE_HOME=$home "$ESTAFETTE" run --all idle-games --now "@$T0" --no-mail >/dev/null
	for i in "$home"/outbox/*/pending; do
		mkdir -p "$i/../sent" && find "$i" -type f -exec mv -t "$i/../sent" {} +
	done
	sync
	# The second runs each game in full and writes its record.
	ESTAFETTE_HOME=$home "$ESTAFETTE" run --all idle-games --now "@$((T0 + 60))" > idle.out
	[ "$(grep -c ': nothing due$' idle.out)" -eq "$IDLE" ] ||
		{ echo "bench: the idle games are not all nothing due: $(tail -3 idle.out)" >&2; exit 1; }
	for r in $(seq "$REPS"); do
		find idle-games -maxdepth 3 -name estafette-next-due -delete
		ESTAFETTE_HOME=$home timed "idle_full" "$ESTAFETTE" run --all idle-games --now "@$((T0 + 120))"
		cp "$WORK/timed.out" idle-full.out
		ESTAFETTE_HOME=$home timed "idle_record" "$ESTAFETTE" run --all idle-games --now "@$((T0 + 120))"
		cmp -s "$WORK/timed.out" idle-full.out ||
			{ echo "bench: the pass with records printed other than the full run" >&2; exit 1; }
		# git's own start is some 15 ms here: the first 1,000 games are enough.
		timed "idle_rev_parse" sh -c 'for g in $(ls -d idle-games/* | head -n 1000); do
			git -C "$g" rev-parse main; done'
	done
	note "idle_games $IDLE"
	note "idle_rev_parse_games $(( IDLE < 1000 ? IDLE : 1000 ))"
}
idle_bench
if [ "$only" = idle ]; then
	"$PY" "$top/tests/bench/summarize.py" "$mode" "$raw" "$out" idle
	exit 0
fi

# --- (1) batch: N distinct games, each with its awaited orders signed and in.
# The template game is for the one-step memory figure.
"$ESTAFETTE" new template --ruleset napoleonic-empire --players players.json \
	--test-dice-secret bench >/dev/null
"$ESTAFETTE" run template --now "@$T0" >/dev/null
sign_awaited template "$T0"
"$PY" "$top/tests/bench/make_batch.py" "$ESTAFETTE" batch-src "$N" players.json . "$T0"
# Each repetition from the same start, its own copies of the repositories
# and of $ESTAFETTE_HOME (outbox, hidden state), all made first: ext4 without
# a journal skips recently deleted inodes when it allocates one, so a run
# right after deleting a thousand repositories would measure that.
for r in $(seq "$REPS"); do
	cp -a batch-src "batch-$r" && cp -a batch-src "base-$r" && cp -a "$ESTAFETTE_HOME" "home-$r"
done
sync
for r in $(seq "$REPS"); do
	ESTAFETTE_HOME=$WORK/home-$r timed "batch_estafette" "$ESTAFETTE" run --all "batch-$r" --now "@$T0"
	timed "batch_baseline" "$top/tests/bench/baseline_step.sh" "base-$r"
done
ln -s batch-1 batch
git -C batch/g$(printf %0${#N}d 1) rev-parse -q --verify step-0002 >/dev/null ||
	{ echo "bench: run --all did not resolve step 2" >&2; exit 1; }
note "batch_games $N"
# One game's step alone, for memory.
rm -rf one && cp -a template one
timed "one_step" "$ESTAFETTE" run one --now "@$T0"

# --- (2) the floor: count what a real step wrote and verified.
g=batch/g$(printf %0${#N}d 1)
# diff-tree lines: ":OLDMODE NEWMODE OLDSHA NEWSHA STATUS\tPATH"; trees have mode 040000.
objs=$(git -C "$g" diff-tree -r -t step-0001 step-0002 | awk '$4 !~ /^0+$/')
blobs=$(awk '$2 ~ /^100/' <<<"$objs" | wc -l)
trees=$(( $(awk '$2 == "040000"' <<<"$objs" | wc -l) + 1 ))
bytes=$(awk '$2 ~ /^100/ {print $4}' <<<"$objs" | git -C "$g" cat-file --batch-check='%(objectsize)' |
	awk '{s += $1} END {print int(s / NR)}')
sigs=$(git -C "$g" ls-tree --name-only step-0002:turns/0002/orders | grep -c '\.sig$' || true)
"$top/$B/bench/floor_bench" "$sigs" "$blobs" "$trees" "$bytes" 200 | tee -a /dev/stderr | grep '^{' >> "$out"

# --- (3) history: one game resolved step by step by deadline (no orders
# after the join), timed over two windows of WINDOW steps, early (steps 16
# to 20) and late (the last WINDOW): the median of a window, so that the one
# step in many that merges packs (which steps do is fixed by the history)
# is seen in the spread and does not stand for the whole.
# time_step STEP T WINDOW-NAME: the game's next step (STEP, at time T)
# resolved on a copy of the game and of $ESTAFETTE_HOME, made (and synced)
# first, then on a bare copy: without a work tree there is no git index,
# which holds an entry for every file of every step and which each commit
# reads and writes whole (as git itself does), so the two show what is
# estafette's.
WINDOW=5
time_step() {
	local s=$1 t=$2 w=$3 c=s$1 tag g
	tag=step-$(printf %04d "$s")
	# Copies are kept to the end: ext4 without a journal skips recently
	# deleted inodes when it allocates, which would slow the later step.
	cp -a hist "wt-$c" && home_copy "home-wt-$c"
	cp -a hist/.git "bare-$c.git" && git -C "bare-$c.git" config core.bare true
	rm -f "bare-$c.git/index" && home_copy "home-bare-$c"
	sync
	ESTAFETTE_HOME=$WORK/home-wt-$c timed "hist_step_$w" "$ESTAFETTE" run "wt-$c" --now "@$t"
	ESTAFETTE_HOME=$WORK/home-bare-$c timed "histbare_step_$w" "$ESTAFETTE" run "bare-$c.git" --now "@$t"
	for g in "wt-$c" "bare-$c.git"; do
		[ "$(git -C "$g" rev-parse -q --verify "$tag^{tree}")" = \
		  "$(git -C "wt-$c" rev-parse -q --verify "$tag^{tree}")" ] ||
			{ echo "bench: $g did not resolve $tag as the work tree copy did" >&2; exit 1; }
	done
}
window_of() {  # STEP: early, late or nothing
	if [ "$1" -gt $((20 - WINDOW)) ] && [ "$1" -le 20 ]; then echo early
	elif [ "$1" -gt $((HIST - WINDOW)) ]; then echo late
	fi
}
# home_copy DIR: what the history game keeps in $ESTAFETTE_HOME (its hidden
# state and outbox), not the batch's thousand games.
home_copy() {
	mkdir -p "$1/games" "$1/outbox"
	cp -a "$ESTAFETTE_HOME/games/$hist_id" "$1/games/"
	[ ! -d "$ESTAFETTE_HOME/outbox/$hist_id" ] || cp -a "$ESTAFETTE_HOME/outbox/$hist_id" "$1/outbox/"
}
# Both players miss every step after the join, which the outage guard would
# take for a mail outage and not resolve: the guard is off (outage_percent
# 100). The join (step 1) needs both players' signed order files.
echo '{"deadline_hours": 1, "outage_percent": 100}' > hist-schedule.json
"$ESTAFETTE" new hist --ruleset napoleonic-empire --players players.json \
	--schedule hist-schedule.json --test-dice-secret bench >/dev/null
sign_awaited hist "$T0"
hist_id=$(git -C hist show main:game.json | "$PY" -c 'import json, sys; print(json.load(sys.stdin)["id"])')
t=$T0
for s in $(seq 1 "$HIST"); do
	t=$((t + 7200))
	w=$(window_of "$s")
	[ -z "$w" ] || time_step "$s" "$t" "$w"
	"$ESTAFETTE" run hist --now "@$t" >/dev/null
	if [ -n "$w" ]; then
		[ "$(git -C hist rev-parse "step-$(printf %04d "$s")^{tree}")" = \
		  "$(git -C "wt-s$s" rev-parse "step-$(printf %04d "$s")^{tree}")" ] ||
			{ echo "bench: the copy's step $s is not the game's" >&2; exit 1; }
	fi
done
git -C hist rev-parse -q --verify "step-$(printf %04d "$HIST")" >/dev/null ||
	{ echo "bench: the history game did not reach step $HIST" >&2; exit 1; }
note "hist_steps $HIST"
note "hist_window $WINDOW"
note "hist_repo_bytes $(du -sb hist/.git | cut -f1)"
git -C hist gc -q
note "hist_repo_packed_bytes $(du -sb hist/.git | cut -f1)"

# --- (4) audit: a game with signed orders for every step, against ssh-keygen.
"$ESTAFETTE" new aud --ruleset napoleonic-empire --players players.json \
	--test-dice-secret bench >/dev/null
t=$T0
"$ESTAFETTE" run aud --now "@$t" >/dev/null
for s in $(seq 2 "$AUDIT"); do
	t=$((t + 60))
	sign_awaited aud "$t"
	"$ESTAFETTE" run aud --now "@$t" >/dev/null
done
sync
for r in $(seq "$REPS"); do
	timed "audit_estafette" "$ESTAFETTE" audit aud
	timed "audit_baseline" "$top/tests/bench/baseline_audit.sh" aud
	timed "audit_hist" "$ESTAFETTE" audit hist
done
note "audit_steps $(git -C aud tag -l 'step-*' | wc -l)"
note "audit_orders $(git -C aud ls-tree -r --name-only main turns | grep -c '/orders/.*\.json$')"
note "audit_hist_steps $(git -C hist tag -l 'step-*' | wc -l)"

# --- (5) dice.
"$top/$B/bench/dice_bench" "$DICE" | tee -a /dev/stderr | grep '^{' >> "$out"

# --- the table and the JSON.
"$PY" "$top/tests/bench/summarize.py" "$mode" "$raw" "$out"
echo "results: $out"
