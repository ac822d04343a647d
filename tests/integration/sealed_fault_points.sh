#!/bin/bash
# A sealed game killed at every named fault point (internal/util/fault.h)
# loses nothing, doubles nothing and leaves no order without its public
# note. A Napoleonic Empire game made with --sealed plays a scenario of
# eight commands: run, submit (France seq 1), receive (a mail, France seq
# 2), run, submit (Allies), run, gm end, reveal, with orders signed by real
# ssh-keygen keys (the first run resolves step 1, the join of dice v2, whose
# two files are in before the scenario starts). Each of its commands writes
# twice: the sealed store first, then main. For each point of fault.h and
# each passage 1 and 2 (the first commit, the second), every command runs
# with ESTAFETTE_FAULT set to it; a command that reaches it dies by SIGKILL
# and is run again without it. Then: git fsck --strict is clean in the game
# and in the sealed store; both stores' refs and histories are an
# uninterrupted run's (fixed ESTAFETTE_COMMIT_TIME and --test-dice-secret
# give the same commit ids), so one sealed commit per accepted order and per
# step, and each public note orders/<player>.received committed exactly
# once; the work tree, hidden records, clock.json and outbox match. A point
# of fault.h's sealed list that no command reaches fails the test.
#
# Before that sweep, the note's repair itself: a submit killed between the
# sealed commit and the note; the GM's status says the note is missing;
# a rerun finishes it (exit 0, "already recorded", the very commit the
# uninterrupted submit made); a second rerun is refused as recorded already
# and writes nothing; a rerun with another signature is refused; and a
# different command next (receive, run) writes the note in its place (the
# same tree; the commit is dated by that command's clock).
# FAULT_ONLY="NAME..." narrows the sweep; FAULT_KEEP=1 keeps the scratch folder.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
[ -z "${FAULT_KEEP:-}" ] || trap 'echo "kept $WORK" >&2' EXIT
cd "$WORK"
started=$SECONDS

mapfile -t POINTS < <(sed -n '/Points in use:/,/\*\//p' "$TOP/internal/util/fault.h" |
	sed -nE 's/^ \*   ([a-z0-9-]+)  .*/\1/p')
mapfile -t SEALED_POINTS < <(sed -n '/Points only a sealed game reaches/,/\*\//p' \
	"$TOP/internal/util/fault.h" | sed -nE 's/^ \*   ([a-z0-9-]+)  .*/\1/p')
[ "${#SEALED_POINTS[@]}" -ge 2 ] || fail "fault.h lists no points of sealed games"

export ESTAFETTE_COMMIT_TIME=1800000000
T0=1800000000
mkdir tmpl orders
(cd orders && make_players && "$ESTAFETTE" keygen gm -C gm@example.org >/dev/null)
export ESTAFETTE_HOME=$WORK/tmpl/home
(cd tmpl && "$ESTAFETTE" new game --ruleset napoleonic-empire --players ../orders/players.json \
	--sealed --deadline-hours 1 --gm-signing-key ../orders/gm --test-dice-secret sealed-faults >/dev/null)
# Step 1 is the join (dice v2): both players' signed files with "orders": []
# are in before the scenario (each a sealed commit and a public note), whose
# first command (run) resolves it with the ruleset's set-up; the scenario's
# orders are for steps 2 and 3.
for p in france allies; do
	(cd tmpl && "$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$p" 1 '[]') > "orders/join-$p.json"
	ssh-keygen -q -Y sign -f "orders/$p" -n estafette-orders "orders/join-$p.json"
	(cd tmpl && "$ESTAFETTE" submit game "../orders/join-$p.json" --now "@$T0" >/dev/null) ||
		fail "the join: $p's file was refused"
	git -C tmpl/game cat-file -e "main:orders/$p.received" || fail "the join: no public note of $p's file"
done

step_name() {
	case $1 in 1) echo run;; 2) echo submit;; 3) echo receive;; 4) echo run-2;; 5) echo submit-allies;;
		6) echo run-3;; 7) echo gm-end;; 8) echo reveal;; esac
}
# do_step N: command N in the current scenario folder (cwd); its status.
do_step() {
	local got=0
	case $1 in
	1) "$ESTAFETTE" run game --now "@$T0" ;;
	2) "$ESTAFETTE" submit game "$WORK/orders/f1.json" --now "@$((T0 + 60))" ;;
	3) "$ESTAFETTE" receive game < "$WORK/orders/f2.eml" ;;
	4) "$ESTAFETTE" run game --now "@$((T0 + 120))" ;;
	5) "$ESTAFETTE" submit game "$WORK/orders/a1.json" --now "@$((T0 + 180))" ;;
	6) "$ESTAFETTE" run game --now "@$((T0 + 240))" ;;
	7) "$ESTAFETTE" gm game end --result draw --reason "the players agree" --now "@$((T0 + 300))" ;;
	8) "$ESTAFETTE" reveal game ;;
	esac >>log.out 2>>log.err || got=$?
	return "$got"
}
SEALED=home/games/game/sealed.git

new_scenario() {  # DIR: a copy of the template; cd there
	rm -rf "$1"
	cp -a "$WORK/tmpl" "$1"
	cd "$1"
	export ESTAFETTE_HOME=$PWD/home
}
signed() {  # PLAYER SEQ NAME: an order file for the open step of the current scenario
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$1" "$2" '[]' > "$WORK/orders/$3.json"
	ssh-keygen -q -Y sign -f "$WORK/orders/$1" -n estafette-orders "$WORK/orders/$3.json" < /dev/null
}
finish_record() {  # what a scenario ended with, in files of its folder
	git -C game for-each-ref --format='%(refname) %(objectname)' > refs.txt
	git -C game log --format='%H %T %s' main > log.txt
	git -C "$SEALED" for-each-ref --format='%(refname) %(objectname)' > sealed-refs.txt
	git -C "$SEALED" log --format='%H %T %s' main > sealed-log.txt
	ls home/outbox/game/pending > pending.txt
}

# The uninterrupted run, each command's status in ref/status.
new_scenario "$WORK/ref"
for s in 1 2 3 4 5 6 7 8; do
	case $s in
	2) signed france 1 f1; signed france 2 f2
	   "$PY" "$TOP/tests/helpers/make_mail.py" plain --order "$WORK/orders/f2.json" \
		--sig "$WORK/orders/f2.json.sig" --from "France player <france@example.org>" \
		--to "GM <gm@example.org>" > "$WORK/orders/f2.eml" ;;
	5) signed allies 1 a1 ;;
	esac
	st=0; do_step "$s" || st=$?
	echo "$s $st" >> status
done
finish_record
cd "$WORK"
[ "$(tr '\n' ' ' < ref/status)" = "1 0 2 0 3 0 4 0 5 0 6 0 7 0 8 0 " ] ||
	fail "the uninterrupted run: $(tr '\n' ' ' < ref/status) $(cat ref/log.err)"
[ -e ref/game/reveal.json ] || fail "the uninterrupted run did not reveal"

# notes REPO PLAYER: commits of main that wrote PLAYER's public note, but
# the join's (made in the template, before the scenario).
notes() { git -C "$1" log --format=%H main -- "orders/$2.received" | while read -r c; do
	git -C "$1" show "$c:orders/$2.received" >/dev/null 2>&1 && echo "$c"; done |
	grep -cvxF "$(git -C "$WORK/tmpl/game" rev-list main)" || true; }
# sealed_orders STORE PATH: commits of the sealed store that wrote PATH.
sealed_orders() { git -C "$1" log --format=%H main -- "$2" | wc -l; }
[ "$(notes ref/game france)" = 2 ] && [ "$(notes ref/game allies)" = 1 ] ||
	fail "the uninterrupted run wrote $(notes ref/game france) notes of France's, $(notes ref/game allies) of the Allies'"
[ "$(sealed_orders "ref/$SEALED" orders/0002/france.json)" = 2 ] &&
	[ "$(sealed_orders "ref/$SEALED" orders/0003/allies.json)" = 1 ] ||
	fail "the uninterrupted run's sealed store: $(cat ref/sealed-log.txt)"

# verify DIR WHAT [git]: the checks of the header comment (with "git": the repositories only,
# their trees and messages rather than commit ids).
verify() {
	local d=$1 what=$2 r=$WORK/ref repo
	for repo in game "$SEALED"; do
		git -C "$d/$repo" fsck --strict --no-progress --no-dangling >"$d/fsck.out" 2>&1 ||
			fail "$what: git fsck --strict ($repo): $(cat "$d/fsck.out")"
	done
	[ -z "$(cut -d' ' -f3- "$d/sealed-log.txt" | sort | uniq -d)" ] ||
		fail "$what: the sealed store committed twice: $(cut -d' ' -f3- "$d/sealed-log.txt" | sort | uniq -d)"
	[ "$(sealed_orders "$d/$SEALED" orders/0002/france.json)" = 2 ] &&
		[ "$(sealed_orders "$d/$SEALED" orders/0003/allies.json)" = 1 ] ||
		fail "$what: sealed commits of the orders: $(cat "$d/sealed-log.txt")"
	[ "$(notes "$d/game" france)" = 2 ] && [ "$(notes "$d/game" allies)" = 1 ] ||
		fail "$what: public notes: $(notes "$d/game" france) of France's, $(notes "$d/game" allies) of the Allies' (2 and 1 wanted)"
	[ -z "$(git -C "$d/game" status --porcelain)" ] ||
		fail "$what: the work tree lags: $(git -C "$d/game" status --porcelain | head -3)"
	# Another command's repair is dated by that command's clock: the same trees, one by one.
	if [ "${3:-}" = git ]; then
		cmp -s <(cut -d' ' -f2- "$d/log.txt") <(cut -d' ' -f2- "$r/log.txt") ||
			fail "$what: the history differs: $(diff <(cut -d' ' -f2- "$r/log.txt") <(cut -d' ' -f2- "$d/log.txt"))"
		return 0
	fi
	for f in refs.txt log.txt sealed-refs.txt sealed-log.txt; do
		cmp -s "$d/$f" "$r/$f" || fail "$what: $f differs from the uninterrupted run's: $(diff "$r/$f" "$d/$f")"
	done
	diff -r "$r/home/games/game/hidden" "$d/home/games/game/hidden" >/dev/null || fail "$what: the hidden records differ"
	cmp -s "$r/home/games/game/clock.json" "$d/home/games/game/clock.json" || fail "$what: clock.json differs"
	cmp -s "$r/pending.txt" "$d/pending.txt" || fail "$what: the outbox differs: $(diff "$r/pending.txt" "$d/pending.txt")"
}

# --- The note's repair, step by step ---
new_scenario "$WORK/repair"
do_step 1
expect_exit 137 env ESTAFETTE_FAULT=sealed-after-order "$ESTAFETTE" submit game "$WORK/orders/f1.json" --now "@$((T0 + 60))"
[ "$(sealed_orders "$SEALED" orders/0002/france.json)" = 1 ] || fail "the killed submit did not reach the sealed store"
[ "$(notes game france)" = 0 ] || fail "the killed submit wrote the note"
# The GM's status reads the sealed store: received, and it says the note lags.
"$ESTAFETTE" status game > gm-status.txt
grep -q "france .*received, .*(its public note orders/france.received is missing, so players' copies show it awaited; the next submit, receive or run writes it)" gm-status.txt ||
	fail "the GM's status does not say the note is missing: $(cat gm-status.txt)"
"$ESTAFETTE" status game --json | json_get 'd["awaiting"][0]["received"] and d["awaiting"][0]["note_missing"]' |
	grep -qx True || fail "status --json lacks note_missing"
"$ESTAFETTE" status --all "$WORK/repair" --json |
	json_get '[n["reason"] for g in d if g["game"] == "game" for n in g["needs_gm"]]' | grep -q "'note'" ||
	fail "status --all does not say the note is missing"
git clone -q --no-local game player
ESTAFETTE_HOME=$WORK/nohome "$ESTAFETTE" status player | grep -q "france .*awaited" ||
	fail "a player's copy knew of the order without its note"
# A rerun with another signature of the same bytes is refused (the note is repaired all the same).
ssh-keygen -q -Y sign -f "$WORK/orders/allies" -n estafette-orders \
	< "$WORK/orders/f1.json" > forged.sig
sealed_before=$(git -C "$SEALED" rev-parse main)
expect_exit 65 "$ESTAFETTE" submit game "$WORK/orders/f1.json" --sig forged.sig --now "@$((T0 + 60))"
grep -q 'signed with the key of "allies", but field "player" is "france"' "$WORK/last.err" ||
	fail "a forged rerun: $(cat "$WORK/last.err")"
[ "$(git -C "$SEALED" rev-parse main)" = "$sealed_before" ] || fail "a forged rerun wrote the sealed store"
[ "$(notes game france)" = 1 ] || fail "the forged rerun did not repair the note"
[ "$(git -C game rev-parse main)" = "$(git -C "$WORK/ref/game" log --format=%H --grep='^orders: france for step 2 (seq 1)$' main)" ] ||
	fail "the repaired note is not the commit the uninterrupted submit made"
# Kill again, and the rerun of the very submit finishes it: exit 0, already recorded.
rm -rf "$WORK/repair" && new_scenario "$WORK/repair"
do_step 1
expect_exit 137 env ESTAFETTE_FAULT=sealed-after-order "$ESTAFETTE" submit game "$WORK/orders/f1.json" --now "@$((T0 + 60))"
git clone -q --no-local game player
expect_exit 0 "$ESTAFETTE" submit game "$WORK/orders/f1.json" --now "@$((T0 + 60))"
grep -q "f1.json: already recorded orders of france for step 2 (seq 1) by a submit cut short before its public note; the note is written now" "$WORK/last.out" ||
	fail "the rerun's answer: $(cat "$WORK/last.out" "$WORK/last.err")"
grep -q "warning: orders/france.received: .*public note was missing" "$WORK/last.err" || fail "no warning of the repair"
[ "$(sealed_orders "$SEALED" orders/0002/france.json)" = 1 ] || fail "the rerun committed the sealed order again"
[ "$(notes game france)" = 1 ] || fail "the rerun wrote $(notes game france) notes"
[ "$(git -C game rev-parse main)" = "$(git -C "$WORK/ref/game" log --format=%H --grep='^orders: france for step 2 (seq 1)$' main)" ] ||
	fail "the rerun's note is not the commit the uninterrupted submit made"
ls home/outbox/game/pending | grep -q '^receipt-.*\.eml$' || fail "the rerun queued no receipt"
"$ESTAFETTE" status game | grep -q "missing" && fail "status still says the note is missing"
git -C player pull -q --ff-only
ESTAFETTE_HOME=$WORK/nohome "$ESTAFETTE" status player | grep -q "france .*received" ||
	fail "a player's copy does not see the order once the note is written"
# A second rerun: recorded already, nothing written anywhere.
before=$(git -C game for-each-ref; git -C "$SEALED" for-each-ref; ls home/outbox/game/pending)
expect_exit 65 "$ESTAFETTE" submit game "$WORK/orders/f1.json" --now "@$((T0 + 60))"
grep -q "this very file is recorded already (orders/0002/france.json)" "$WORK/last.err" ||
	fail "a second rerun: $(cat "$WORK/last.err")"
[ "$before" = "$(git -C game for-each-ref; git -C "$SEALED" for-each-ref; ls home/outbox/game/pending)" ] ||
	fail "a second rerun wrote something"
cd "$WORK"

# The next command writes the note, whichever it is: receive, then run.
for next in 3 4; do
	new_scenario "$WORK/next-$next"
	kill_at=$((next - 1))
	for s in $(seq 1 $((kill_at - 1))); do do_step "$s"; done
	{ ESTAFETTE_FAULT=sealed-after-order do_step "$kill_at"; } 2>/dev/null && fail "$(step_name "$kill_at") was not killed"
	do_step "$next" || fail "$(step_name "$next") after a killed $(step_name "$kill_at"): $(tail -3 log.err)"
	grep -q "warning: orders/france.received: .*written now" log.err || fail "$(step_name "$next") did not say it wrote the note"
	for s in $(seq $((next + 1)) 8); do do_step "$s" || fail "$(step_name "$s"): $(tail -3 log.err)"; done
	finish_record
	cd "$WORK"
	verify "$WORK/next-$next" "$(step_name "$kill_at") killed, then $(step_name "$next")" git
	rm -rf "$WORK/next-$next"
done

# --- The sweep: every point, passages 1 and 2, at every command ---
declare -A KILLS WHERE
scenario() {  # POINT@N: the scenario with ESTAFETTE_FAULT=POINT@N at each command, each rerun once
	local spec=$1 dir=$WORK/s s st want kills=0
	new_scenario "$dir"
	for s in 1 2 3 4 5 6 7 8; do
		want=$(awk -v s="$s" '$1 == s {print $2}' "$WORK/ref/status")
		st=0
		{ ESTAFETTE_FAULT=$spec do_step "$s"; } 2>/dev/null || st=$?
		if [ "$st" -eq 137 ]; then
			kills=$((kills + 1))
			KILLS[${spec%@*}]=$(( ${KILLS[${spec%@*}]:-0} + 1 ))
			WHERE[${spec%@*}]="${WHERE[${spec%@*}]:-}$(step_name "$s")@${spec#*@} "
			st=0; do_step "$s" || st=$?
			# Run again: the same outcome, or the refusal saying the killed run did it.
			[ "$st" -eq "$want" ] ||
				{ [ "$st" -eq 65 ] && tail -1 log.err | grep -q "recorded already"; } ||
				{ [ "$st" -eq 64 ] && [ "$s" = 7 ] && tail -1 log.err | grep -q "the game is over"; } ||
				{ [ "$st" -eq 64 ] && [ "$s" = 8 ] && tail -1 log.err | grep -q "reveals up to step 4 already"; } ||
				fail "$spec: $(step_name "$s") run again exited $st, expected $want: $(tail -3 log.err)"
		elif [ "$st" -ne "$want" ]; then
			fail "$spec: $(step_name "$s") exited $st, expected $want: $(tail -3 log.err)"
		fi
	done
	finish_record
	cd "$WORK"
	[ "$kills" -eq 0 ] || verify "$dir" "$spec"
	rm -rf "$dir"
}
for p in "${POINTS[@]}"; do
	[ -z "${FAULT_ONLY:-}" ] || [[ " $FAULT_ONLY " == *" $p "* ]] || continue
	for n in 1 2; do scenario "$p@$n"; done
	[ -z "${KILLS[$p]:-}" ] || echo "  $p: killed in ${WHERE[$p]}"
done
for p in "${SEALED_POINTS[@]}"; do
	[ -n "${KILLS[$p]:-}" ] || [ -n "${FAULT_ONLY:-}" ] || fail "point $p was never reached by the sealed scenario"
done
kills=0 tested=0
for p in "${POINTS[@]}"; do
	kills=$((kills + ${KILLS[$p]:-0}))
	[ -z "${KILLS[$p]:-}" ] || tested=$((tested + 1))
done
echo "sealed_fault_points: $tested of ${#POINTS[@]} points reached, $kills kills survived, $((SECONDS - started)) s"
