#!/bin/bash
# The batch path killed at every named fault point: `run --all` over a
# folder of three Napoleonic Empire games (g1, g2, g3) loses, doubles and
# corrupts nothing, whichever game it was in when it died.
#
# The scenario has three batch runs, each with a real loopback SMTP server:
#   1. run --all at T0: each game resolves step 1 (the join of dice v2,
#      both players' signed files in beforehand) and mails its reports;
#   (the signed orders of every player step 2 awaits in g1 and g2 are submitted)
#   2. run --all at T0+60: g1 and g2 resolve step 2, g3 waits;
#   3. run --all at T0+4000, past every deadline: g1 and g2 resolve step 3,
#      g3 step 2, each without orders (the deadline ended them).
# For each point of fault.h's first list that a run reaches, at the passage
# that falls in g2 for most (so that g1 is done, g2 cut in the middle and g3 not
# started): the second for a point a step passes once, the third for one
# passed for each of a step's two reports (outbox-*, smtp-*); the first is
# fault_points.sh's. Each batch run is made with ESTAFETTE_FAULT=POINT@N; a run
# that dies (SIGKILL, status 137) is made again without it. Then each
# game's main, tags, commits, work tree, hidden records, clock.json and
# outbox are those of an uninterrupted run of the same scenario, git fsck
# --strict is clean, and the SMTP server got every message once, under one
# Message-ID (a second copy only for a kill between the server's acceptance
# and the sent mark). A point no batch run reaches fails the
# test, unless it is one only other commands reach (listed below), and so
# does a point listed there that a batch run reaches.
# BATCH_FAULT_ONLY="NAME..." narrows the points, BATCH_FAULT_PASSAGES="N..."
# tries those passages of every point instead; FAULT_KEEP=1 keeps the folder.
set -euo pipefail
source "$TOP/tests/lib.sh"
source "$TOP/tests/helpers/batch.sh"
scratch
trap 'stop_smtpd; rm -rf "$WORK"' EXIT
[ -z "${FAULT_KEEP:-}" ] || trap 'stop_smtpd; echo "kept $WORK" >&2' EXIT
cd "$WORK"
started=$SECONDS
GAMES=(g1 g2 g3)
# Points of the first list that `run` never reaches: intake's, fetch's, and
# a merge of packs (fault_points.sh makes one).
NOT_RUN=(submit-after-record receive-after-parse receive-after-record receive-after-receipt
	receive-after-log fetch-after-store fetch-after-seen store-after-merged-pack)
not_run() { [[ " ${NOT_RUN[*]} " == *" $1 "* ]]; }

mapfile -t POINTS < <(sed -n '/Points in use:/,/Points only a sealed game reaches/p' \
	"$TOP/internal/util/fault.h" | sed -nE 's/^ \*   ([a-z0-9-]+)  .*/\1/p')
[ "${#POINTS[@]}" -gt 0 ] || fail "no fault points listed in internal/util/fault.h"
start_smtpd "$WORK/smtp"
mkdir orders && (cd orders && make_players)
batch_template "$WORK/tmpl" "${GAMES[@]}"

# batch N: batch run N of the scenario, in the current scenario folder.
batch() {
	local when
	case $1 in 1) when=$T0;; 2) when=$((T0 + 60));; 3) when=$((T0 + 4000));; esac
	"$ESTAFETTE" run --all games --now "@$when" >>log.out 2>>log.err
}

# scenario DIR POINT: the scenario in DIR, each batch run with
# ESTAFETTE_FAULT=POINT (none when empty); sets KILLED (runs killed) and
# ACCEPT_KILLS (of them, kills between acceptance and the sent mark).
scenario() {
	local dir=$1 point=$2 n st
	rm -rf "$dir" && cp -a tmpl "$dir" && cd "$dir"
	export ESTAFETTE_HOME=$PWD/home
	KILLED=0 ACCEPT_KILLS=0
	for n in 1 2 3; do
		[ "$n" != 2 ] || { batch_orders g1; batch_orders g2; }
		st=0
		if [ -n "$point" ]; then
			{ ESTAFETTE_FAULT=$point batch "$n"; } 2>/dev/null || st=$?
			if [ "$st" -eq 137 ]; then
				KILLED=$((KILLED + 1))
				[ "${point%@*}" != smtp-after-accept ] || ACCEPT_KILLS=$((ACCEPT_KILLS + 1))
				st=0; batch "$n" || st=$?
			fi
		else
			batch "$n" || st=$?
		fi
		[ "$st" -eq 0 ] || fail "${point:-uninterrupted}: batch run $n exited $st: $(tail -3 log.err)"
	done
	collect_mail "$WORK/smtp"
	batch_record "${GAMES[@]}"
	cd "$WORK"
}

# The uninterrupted run, and what it must have done.
scenario ref ""
for g in "${GAMES[@]}"; do
	last=3 && [ "$g" != g3 ] || last=2
	[ "$(git -C "ref/games/$g" tag | wc -l)" -eq $((last + 1)) ] ||
		fail "the uninterrupted run: $g has tags $(git -C "ref/games/$g" tag | tr '\n' ' '), expected steps 0-$last"
done
[ "$(git -C ref/games/g1 ls-tree --name-only step-0002 turns/0002/orders/ | grep -c '\.sig$')" -ge 1 ] ||
	fail "the uninterrupted run: g1's step 2 resolved no signed orders"
[ "$(ls ref/mail/*.eml | wc -l)" -ge 16 ] ||
	fail "the uninterrupted run mailed $(ls ref/mail/*.eml | wc -l) messages, expected a report a player a step"

kills=0 tested=0
for p in "${POINTS[@]}"; do
	[ -z "${BATCH_FAULT_ONLY:-}" ] || [[ " $BATCH_FAULT_ONLY " == *" $p "* ]] || continue
	case $p in outbox-*|smtp-*) passages=(3);; *) passages=(2);; esac
	[ -z "${BATCH_FAULT_PASSAGES:-}" ] || read -ra passages <<< "$BATCH_FAULT_PASSAGES"
	! not_run "$p" || passages=(1)   # to see that no run reaches it
	where=
	for n in "${passages[@]}"; do
		scenario "s-$p-$n" "$p@$n"
		batch_verify "s-$p-$n" ref "$ACCEPT_KILLS" "$p@$n" "${GAMES[@]}"
		rm -rf "s-$p-$n"
		[ "$KILLED" -eq 0 ] || where="$where @$n:$KILLED"
		kills=$((kills + KILLED))
	done
	if not_run "$p"; then
		[ -z "$where" ] || fail "point $p is listed as one run does not reach, but run --all reached it"
		continue
	fi
	[ -n "$where" ] || fail "point $p was never reached by run --all"
	tested=$((tested + 1))
	echo "  $p: runs killed $where"
done
echo "batch_fault_points: $tested points, $kills kills survived in run --all over ${#GAMES[@]} games, $((SECONDS - started)) s"
