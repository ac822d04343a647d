#!/bin/bash
# Concurrency on the batch path: several `run --all` over one folder of six
# Napoleonic Empire games at once, with `submit`, `mail` and `status --all`
# racing them, end where one `run --all` at a time would have.
#
# The scenario: (1) at T0 each game resolves step 1, the join (both
# players' signed files are in beforehand); (2) the orders step 2 awaits
# are submitted to g1-g4 while runs at T0+60 go, and g1-g4 resolve step 2
# once they are in; (3) past every deadline, at T0+4000, g1-g4 resolve
# step 3 and g5-g6 step 2. In a round, each stage starts at once: four
# `run --all` (one --no-mail), `mail` of two games, `status --all`, and at
# stage 2 the submits. Every process must exit 0 or 75 (a game's lock was
# held: `run --all` says "locked, not run" and goes on to the next game);
# then one `run --all` and `mail` of every game finish what a held lock put
# off. Each round is then checked against the same stages run one command
# at a time: git fsck --strict, the same main, tags and commits (fixed
# dice, --now and commit time), work tree, hidden records, clock.json and
# outbox, and every message at the loopback SMTP server exactly once.
# BATCH_CONCURRENCY_ROUNDS=N for more rounds (1 by default).
set -euo pipefail
source "$TOP/tests/lib.sh"
source "$TOP/tests/helpers/batch.sh"
scratch
cd "$WORK"
ROUNDS=${BATCH_CONCURRENCY_ROUNDS:-1}
GAMES=(g1 g2 g3 g4 g5 g6)
start_smtpd "$WORK/smtp"
mkdir orders && (cd orders && make_players)
batch_template "$WORK/tmpl" "${GAMES[@]}"

when() { case $1 in 1) echo "@$T0";; 2) echo "@$((T0 + 60))";; 3) echo "@$((T0 + 4000))";; esac; }

# settle: after a stage, what a held lock put off, one command at a time.
settle() {
	local g
	"$ESTAFETTE" run --all games --now "$(when "$1")" >>log.out 2>>log.err ||
		fail "$2: the run after stage $1 exited $?: $(tail -3 log.err)"
	for g in "${GAMES[@]}"; do
		"$ESTAFETTE" mail "games/$g" >>log.out 2>>log.err || fail "$2: mail $g after stage $1: $(tail -3 log.err)"
	done
}

# stage_at_once N LABEL: stage N's processes started together; each must
# exit 0 or 75 (the lock held).
stage_at_once() {
	local n=$1 label=$2 pids=() outs=() i st g
	for i in 1 2 3; do
		"$ESTAFETTE" run --all games --now "$(when "$n")" >"run-$n-$i.out" 2>&1 &
		pids+=($!) outs+=("run-$n-$i.out")
	done
	"$ESTAFETTE" run --all games --now "$(when "$n")" --no-mail >"run-$n-4.out" 2>&1 &
	pids+=($!) outs+=("run-$n-4.out")
	for g in g1 g5; do
		"$ESTAFETTE" mail "games/$g" >"mail-$n-$g.out" 2>&1 & pids+=($!) outs+=("mail-$n-$g.out")
	done
	"$ESTAFETTE" status --all games >"status-$n.out" 2>&1 & pids+=($!) outs+=("status-$n.out")
	if [ "$n" = 2 ]; then
		for g in g1 g2 g3 g4; do (batch_orders "$g") & pids+=($!) outs+=(log.err); done
	fi
	for i in "${!pids[@]}"; do
		st=0; wait "${pids[$i]}" || st=$?
		[ "$st" -eq 0 ] || [ "$st" -eq 75 ] ||
			fail "$label: stage $n: ${outs[$i]%.out} exited $st: $(grep -v '^  ' "${outs[$i]}")"
	done
}

# scenario DIR MODE: the three stages in a copy of the template, "serial"
# (one command at a time) or "racing"; recorded for batch_verify.
scenario() {
	local dir=$1 mode=$2 n g
	rm -rf "$dir" && cp -a tmpl "$dir" && cd "$dir"
	export ESTAFETTE_HOME=$PWD/home
	for n in 1 2 3; do
		if [ "$mode" = serial ]; then
			[ "$n" != 2 ] || for g in g1 g2 g3 g4; do batch_orders "$g"; done
		else
			stage_at_once "$n" "$dir"
		fi
		settle "$n" "$dir"
	done
	collect_mail "$WORK/smtp"
	batch_record "${GAMES[@]}"
	cd "$WORK"
}

scenario ref serial
for g in "${GAMES[@]}"; do
	last=3 && [[ "$g" != g[56] ]] || last=2
	[ "$(git -C "ref/games/$g" tag | wc -l)" -eq $((last + 1)) ] ||
		fail "the serial run: $g has tags $(git -C "ref/games/$g" tag | tr '\n' ' '), expected steps 0-$last"
done
locked=0
for ((round = 1; round <= ROUNDS; round++)); do
	scenario "r$round" racing
	batch_verify "r$round" ref 0 "round $round" "${GAMES[@]}"
	locked=$((locked + $(cat r$round/run-*.out | grep -c "locked, not run" || true)))
	rm -rf "r$round"
done
echo "batch_concurrency: $ROUNDS rounds of ${#GAMES[@]} games, each like the serial run;" \
	"$locked times a run --all found a game locked and went on"
