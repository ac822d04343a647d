#!/bin/bash
# Killed at every named fault point (internal/util/fault.h), nothing is
# lost, doubled or corrupt. One Napoleonic Empire game plays a scenario of
# eight commands: run, submit, receive (a mail), fetch (a Maildir), fetch (a
# real IMAP server, dovecot), run --no-mail, mail, and a run past the
# deadline (the first run resolves step 1, the join of dice v2, whose two
# files are in before the scenario starts), with orders signed by real
# ssh-keygen keys, press mailed at once (--press-by-mail) and a real
# loopback SMTP server. For each point, every command of the scenario runs
# with ESTAFETTE_FAULT set to it; a command that reaches the point dies by
# SIGKILL (status 137) and is run again without it. Then: git fsck --strict
# is clean; main, every tag and every commit are those of an uninterrupted
# run of the same scenario (same --now, fixed ESTAFETTE_COMMIT_TIME and
# --test-dice-secret: so one commit per step, one tag per step, the same
# state.json and tree); every accepted order is in the history with its
# signature; the work tree, the hidden records, clock.json and the outbox
# match; the Maildir and IMAP messages are seen; every message reached the
# SMTP server at least once, the reports byte for byte but for the random
# part of their Message-ID (and the MIME boundaries derived from it), each
# message under one Message-ID however often it was sent, and none twice
# unless a kill fell between the server's acceptance and the sent mark (at
# most one extra copy per such kill). A point the list names that no command
# reaches, and a point in the code missing from the list, fail the test.
#
# FAULT_PASSES=N adds N longer passes: the four intake commands in a random
# order, each command killed up to three times at random points, each at a
# random passage (NAME@1..3), checked against an uninterrupted run of that
# order. FAULT_ONLY="NAME..." narrows the short pass; FAULT_KEEP=1 keeps the
# scratch folder.
set -euo pipefail
source "$TOP/tests/lib.sh"
source "$TOP/tests/helpers/imapd.sh"
need_pkgs dovecot-imapd
scratch
trap 'stop_imapd 2>/dev/null; stop_smtpd; rm -rf "$WORK"' EXIT
[ -z "${FAULT_KEEP:-}" ] || trap 'stop_imapd 2>/dev/null; stop_smtpd; echo "kept $WORK" >&2' EXIT
cd "$WORK"
started=$SECONDS
PASSES=${FAULT_PASSES:-0}

# The points: fault.h's first list (its second, of sealed games, is
# sealed_fault_points.sh's); the two must name exactly those in the code.
points_of() {  # FROM-PATTERN TO-PATTERN: the names of a list of fault.h
	sed -n "/$1/,/$2/p" "$TOP/internal/util/fault.h" | sed -nE 's/^ \*   ([a-z0-9-]+)  .*/\1/p'
}
mapfile -t POINTS < <(points_of 'Points in use:' 'Points only a sealed game reaches')
mapfile -t ALL_POINTS < <(points_of 'Points in use:' '\*\/')
[ "${#POINTS[@]}" -gt 0 ] || fail "no fault points listed in internal/util/fault.h"
in_code=$(grep -rhoE 'est_fault_point\("[^"]*"\)' "$TOP/internal" "$TOP/cmd" |
	sed -E 's/.*\("([^"]*)"\)/\1/' | sort -u)
listed=$(printf '%s\n' "${ALL_POINTS[@]}" | sort -u)
[ "$(printf '%s\n' "${ALL_POINTS[@]}" | sort | uniq -d)" = "" ] || fail "a point is listed twice in fault.h"
[ "$in_code" = "$listed" ] || fail "fault.h's list and the code differ (< code only, > list only):
$(diff <(echo "$in_code") <(echo "$listed") | grep '^[<>]')"

# The template: keys, players and a new game, copied for every scenario.
export ESTAFETTE_COMMIT_TIME=1800000000
T0=1800000000
start_smtpd "$WORK/mail"
mkdir tmpl orders
(cd orders && make_players)
export ESTAFETTE_HOME=$WORK/tmpl/home
(cd tmpl && "$ESTAFETTE" new game --ruleset napoleonic-empire --players ../orders/players.json \
	--deadline-hours 1 --press-by-mail --test-dice-secret fault-points >/dev/null)
git -C tmpl/game config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
git -C tmpl/game config estafette.sender "GM <gm@example.org>"
# Step 1 is the join (dice v2): both players' signed files with "orders": []
# are in before the scenario, whose first command (run) resolves it with
# the ruleset's set-up; France's orders f1 to f4 are for step 2.
for p in france allies; do
	(cd tmpl && "$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$p" 1 '[]') > "orders/join-$p.json"
	ssh-keygen -q -Y sign -f "orders/$p" -n estafette-orders "orders/join-$p.json"
	(cd tmpl && "$ESTAFETTE" submit game "../orders/join-$p.json" --now "@$T0" >/dev/null) ||
		fail "the join: $p's file was refused"
done
# Small packs more (of unreferenced blobs) up to 17, so that the scenario's
# first commit passes 16 and merges packs (store-after-merged-pack).
for i in $(seq $((17 - $(ls tmpl/game/.git/objects/pack/*.pack | wc -l)))); do
	printf 'filler %d\n' "$i" | git -C tmpl/game hash-object -w --stdin |
		git -C tmpl/game pack-objects -q .git/objects/pack/pack >/dev/null
done
git -C tmpl/game prune-packed
[ "$(ls tmpl/game/.git/objects/pack/*.pack | wc -l)" = 17 ] ||
	fail "the template has $(ls tmpl/game/.git/objects/pack/*.pack | wc -l) packs, expected 17"
chmod 755 "$WORK"   # dovecot's unprivileged processes must reach their files
start_imapd "$WORK/imapd" >/dev/null || fail "dovecot did not start"
imapd_game tmpl/game tmpl/home

# The scenario's commands, by number; intake commands 2, 3, 4 and 8 may
# come in any order. France's orders for step 2 are f1 to f4, seq 1 to 4.
DEFAULT=12348567
step_name() {
	case $1 in 1) echo run;; 2) echo submit;; 3) echo receive;; 4) echo fetch-maildir;;
		5) echo run-no-mail;; 6) echo mail;; 7) echo run-late;; 8) echo fetch-imap;; esac
}
# do_step N: command N in the current scenario folder (cwd); its status.
do_step() {
	local got=0
	case $1 in
	1) "$ESTAFETTE" run game --now "@$T0" ;;
	2) "$ESTAFETTE" submit game "$WORK/orders/f1.json" --now "@$((T0 + 60))" ;;
	3) "$ESTAFETTE" receive game < "$WORK/orders/f2.eml" ;;
	4) "$ESTAFETTE" fetch game --maildir md ;;
	5) "$ESTAFETTE" run game --now "@$((T0 + 120))" --no-mail ;;
	6) "$ESTAFETTE" mail game ;;
	7) "$ESTAFETTE" run game --now "@$((T0 + 4000))" ;;
	8) "$ESTAFETTE" fetch game ;;
	esac >>log.out 2>>log.err || got=$?
	return "$got"
}

# new_scenario DIR: a copy of the template with the Maildir to fetch, and
# f4's mail unseen at the IMAP server; cd there.
new_scenario() {
	rm -rf "$1"
	cp -a tmpl "$1"
	cd "$1"
	export ESTAFETTE_HOME=$PWD/home
	mkdir -p md/new md/cur md/tmp mail
	[ ! -e "$WORK/orders/f3.eml" ] || cp "$WORK/orders/f3.eml" md/new/1700000000.f3.test
	[ ! -e "$WORK/orders/f4.eml" ] || imapd_deliver "$WORK/orders/f4.eml"
}

# signed PLAYER SEQ NAME: an order file for the open step, signed by ssh-keygen.
signed() {
	(cd "$WORK/ref-$DEFAULT" && "$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$1" "$2" '[]' \
		--press "[{\"to\": \"all\", \"text\": \"$3 to all\"}]") > "$WORK/orders/$3.json"
	ssh-keygen -q -Y sign -f "$WORK/orders/$1" -n estafette-orders "$WORK/orders/$3.json" < /dev/null
}
mail_of() {  # NAME: a plain mail from France carrying orders/NAME.json
	"$PY" "$TOP/tests/helpers/make_mail.py" plain --order "$WORK/orders/$1.json" \
		--sig "$WORK/orders/$1.json.sig" --from "France player <france@example.org>" \
		--to "GM <gm@example.org>" > "$WORK/orders/$1.eml"
}

# reference ORDER: an uninterrupted run of the steps in ORDER (e.g. 12348567),
# in ref-ORDER, with each step's status in ref-ORDER/status.
reference() {
	local order=$1 dir=$WORK/ref-$1 i s
	[ -d "$dir" ] && return 0
	new_scenario "$dir"
	for ((i = 0; i < ${#order}; i++)); do
		s=${order:i:1}
		if [ "$order" = "$DEFAULT" ] && [ "$s" = 2 ]; then
			# The order files for step 2, made once the first run opened it.
			signed france 1 f1; signed france 2 f2; signed france 3 f3; signed france 4 f4
			mail_of f2; mail_of f3; mail_of f4
			cp "$WORK/orders/f3.eml" md/new/1700000000.f3.test
			imapd_deliver "$WORK/orders/f4.eml"
		fi
		st=0; do_step "$s" || st=$?
		echo "$s $st" >> status
	done
	collect_mail "$WORK/mail"
	finish_record
	cd "$WORK"
}

# finish_record: what a scenario ended with, in files of its folder.
finish_record() {
	git -C game for-each-ref --format='%(refname) %(objectname)' > refs.txt
	git -C game log --format='%H %T %s' main > log.txt
	ls home/outbox/game/sent > sent.txt
	ls home/outbox/game/pending > pending.txt
}

# recorded REPO NAME: orders/NAME.json and its .sig are france's orders at some commit of main.
recorded() {
	local c
	for c in $(git -C "$1" rev-list main -- orders/france.json); do
		git -C "$1" show "$c:orders/france.json" 2>/dev/null | cmp -s - "$WORK/orders/$2.json" &&
			git -C "$1" show "$c:orders/france.json.sig" 2>/dev/null |
			cmp -s - "$WORK/orders/$2.json.sig" &&
			return 0
	done
	return 1
}

# verify DIR REF KILLS_AFTER_ACCEPT WHAT: the checks of the header comment.
verify() {
	local d=$1 r=$2 k=$3 what=$4 n c found
	git -C "$d/game" fsck --strict --no-progress --no-dangling >"$d/fsck.out" 2>&1 ||
		fail "$what: git fsck --strict: $(cat "$d/fsck.out")"
	cmp -s "$d/refs.txt" "$r/refs.txt" ||
		fail "$what: refs differ from the uninterrupted run:
$(diff "$r/refs.txt" "$d/refs.txt")
history: $(head -5 "$d/log.txt")"
	cmp -s "$d/log.txt" "$r/log.txt" || fail "$what: the history differs: $(diff "$r/log.txt" "$d/log.txt")"
	n=$(git -C "$d/game" ls-tree --name-only main turns/ | wc -l)   # steps 1..n, and step 0
	[ "$(git -C "$d/game" tag | wc -l)" -eq $((n + 1)) ] ||
		fail "$what: $(git -C "$d/game" tag | wc -l) tags for steps 0 to $n"
	[ -z "$(git -C "$d/game" status --porcelain)" ] ||
		fail "$what: the work tree lags: $(git -C "$d/game" status --porcelain | head -3)"
	# Every order the uninterrupted run accepted is in the history, byte for byte, with its signature.
	for f in f1 f2 f3 f4; do
		! recorded "$r/game" "$f" || recorded "$d/game" "$f" ||
			fail "$what: accepted order $f.json is not in the history"
	done
	diff -r "$r/home/games/game/hidden" "$d/home/games/game/hidden" >/dev/null ||
		fail "$what: the hidden records differ"
	cmp -s "$r/home/games/game/clock.json" "$d/home/games/game/clock.json" || fail "$what: clock.json differs"
	cmp -s "$r/sent.txt" "$d/sent.txt" || fail "$what: outbox sent/ differs: $(diff "$r/sent.txt" "$d/sent.txt")"
	[ ! -s "$d/pending.txt" ] || fail "$what: left pending: $(cat "$d/pending.txt")"
	[ -z "$(ls "$d/md/new")" ] && [ "$(ls "$d/md/cur" | grep -c ':2,S$')" -eq 1 ] ||
		fail "$what: the Maildir message is not marked seen once: $(ls "$d/md/new" "$d/md/cur")"
	[ -z "$(ls "$IMAP_MAILDIR/new")" ] && ! ls "$IMAP_MAILDIR/cur" | grep -qv ':2,[A-Z]*S' ||
		fail "$what: a message is unseen at the IMAP server: $(ls "$IMAP_MAILDIR/new" "$IMAP_MAILDIR/cur")"
	"$PY" "$TOP/tests/helpers/mail_once.py" "$r/mail" "$d/mail" "$k" ||
		fail "$what: mail at the SMTP server"
}

# scenario LABEL ORDER POINT-SPEC: ORDER's steps with ESTAFETTE_FAULT set as
# POINT-SPEC says ("NAME": that point at every step; "random": up to three
# random points and passages per step); checked against reference ORDER.
# Adds the kills to KILLS[point] and the commands to WHERE[point].
scenario() {
	local label=$1 order=$2 spec=$3 dir=$WORK/s-$1 i s st want p tries accept_kills=0 pool
	reference "$order"
	new_scenario "$dir"
	for ((i = 0; i < ${#order}; i++)); do
		s=${order:i:1}
		want=$(awk -v s="$s" '$1 == s {print $2}' "$WORK/ref-$order/status")
		tries=0
		while :; do
			if [ "$spec" = random ] && [ $tries -lt 3 ]; then
				# A point the short pass saw this command reach (any, if it did not run).
				read -ra pool <<< "${REACH[$s]:-${POINTS[*]}}"
				p="${pool[RANDOM % ${#pool[@]}]}@$((RANDOM % 3 + 1))"
			elif [ "$spec" != random ] && [ $tries -eq 0 ]; then
				p=$spec
			else
				p=
			fi
			st=0
			if [ -n "$p" ]; then
				{ ESTAFETTE_FAULT=$p do_step "$s"; } 2>/dev/null || st=$?
			else
				do_step "$s" || st=$?
			fi
			tries=$((tries + 1))
			if [ "$st" -eq 137 ] && [ -n "$p" ]; then
				KILLS[${p%@*}]=$(( ${KILLS[${p%@*}]:-0} + 1 ))
				WHERE[${p%@*}]="${WHERE[${p%@*}]:-}$(step_name "$s") "
				[[ " ${REACH[$s]:-} " == *" ${p%@*} "* ]] || REACH[$s]="${REACH[$s]:-} ${p%@*}"
				[ "${p%@*}" != smtp-after-accept ] || accept_kills=$((accept_kills + 1))
				continue
			fi
			# Run again after a kill: the same outcome, or (a file the killed
			# run had recorded already) the refusal saying so.
			[ "$st" -eq "$want" ] ||
				{ [ "$st" -eq 65 ] && [ $tries -gt 1 ] && tail -1 log.err | grep -q "recorded already"; } ||
				fail "$label: $(step_name "$s") (fault ${p:-none}) exited $st, expected $want: $(tail -3 log.err)"
			break
		done
	done
	collect_mail "$WORK/mail"
	finish_record
	cd "$WORK"
	verify "$dir" "$WORK/ref-$order" "$accept_kills" "$label"
	rm -rf "$dir"
}

declare -A KILLS WHERE REACH   # by point: kills, commands; by step: points reached
reference "$DEFAULT"
[ "$(git -C "ref-$DEFAULT/game" tag | wc -l)" -eq 4 ] ||
	fail "the uninterrupted run made $(git -C "ref-$DEFAULT/game" tag | wc -l) tags, expected 4 (steps 0-3)"
[ "$(tr '\n' ' ' < "ref-$DEFAULT/status")" = "1 0 2 0 3 0 4 0 8 0 5 0 6 0 7 0 " ] ||
	fail "the uninterrupted run: $(tr '\n' ' ' < "ref-$DEFAULT/status") $(cat "ref-$DEFAULT/log.err")"
for f in f1 f2 f3 f4; do
	recorded "ref-$DEFAULT/game" "$f" || fail "the uninterrupted run did not record $f.json"
done

# The short pass: every point, at every command of the scenario.
for p in "${POINTS[@]}"; do
	[ -z "${FAULT_ONLY:-}" ] || [[ " $FAULT_ONLY " == *" $p "* ]] || continue
	scenario "$p" "$DEFAULT" "$p"
	[ "${KILLS[$p]:-0}" -gt 0 ] || fail "point $p was never reached by the scenario"
	echo "  $p: killed in ${WHERE[$p]}"
done

# The longer passes, on demand.
for ((pass = 1; pass <= PASSES; pass++)); do
	order=1$(printf '%s\n' 2 3 4 8 | shuf | tr -d '\n')567
	scenario "pass-$pass" "$order" random
done
kills=0 tested=0
for p in "${POINTS[@]}"; do
	kills=$((kills + ${KILLS[$p]:-0}))
	[ -z "${KILLS[$p]:-}" ] || tested=$((tested + 1))
done
echo "fault_points: $tested of ${#POINTS[@]} points tested, $kills kills survived," \
	"1 short pass + $PASSES random passes, $((SECONDS - started)) s"
