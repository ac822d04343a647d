#!/bin/bash
# The next-due record (docs/hosting.md "The next-due record"): a run that
# finds nothing due leaves <git dir>/estafette-next-due, and `run --all`
# passes over the game without opening it while the record holds. Passed
# over, it prints byte for byte what the full run prints (text and
# --json). Whatever the record depends on that changes sends the game back
# to the full run, which does the due work: a submit moving main, a GM's
# extend, a git config change, mail waiting, the site gone, the dice
# secrets taken away (the full run fails, 78), the deadline
# reached, a clock behind the record's, and a record corrupted, truncated,
# of another version, writable by others or a link.
#
# That a game was not opened is shown by hiding its objects (an empty
# objects folder): the full run then has no summary for it (it fails on the
# damaged repository), the pass over it prints the summary.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
make_players
"$ESTAFETTE" keygen gm -C gm@example.org >/dev/null
start_smtpd "$WORK/smtp"
T0=1800000000 H=3600
G=games/g R=games/g/.git/estafette-next-due

mkdir games
"$ESTAFETTE" new "$G" --ruleset napoleonic-empire --players players.json --gm-signing-key gm \
	--deadline-hours 24 >/dev/null
git -C "$G" config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
for p in france allies; do
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$G" "$p" 1 '[]' > "join-$p.json"
	ssh-keygen -q -Y sign -f "$p" -n estafette-orders "join-$p.json"
	"$ESTAFETTE" submit "$G" "join-$p.json" --now "@$T0" >/dev/null
done
# A second game, in a folder that sorts after it, that is always run in full.
"$ESTAFETTE" new games/z --ruleset napoleonic-empire --players players.json >/dev/null
git -C games/z config estafette.sender "Z <z@example.org>"

# pass HOURS [ARGS]: run --all at T0 + HOURS, stdout in pass.out, stderr in pass.err.
pass() {
	local at=$(( T0 + $1 * H )); shift
	"$ESTAFETTE" run --all games --now "@$at" "$@" > pass.out 2> pass.err || return $?
}
hide_objects() { mv "$G/.git/objects" "$G/.git/objects.away" && mkdir "$G/.git/objects"; }
show_objects() { rmdir "$G/.git/objects" && mv "$G/.git/objects.away" "$G/.git/objects"; }
# opened HOURS [ARGS]: the pass opens the game: its objects hidden, it has
# no summary (it fails, or, main being packed, it no longer looks like a game).
opened() {
	hide_objects
	pass "$@" || true
	show_objects
	! grep -q "^g: " pass.out
}
# passed_over HOURS [ARGS]: the pass prints g's summary without opening it.
passed_over() {
	hide_objects
	pass "$@" || { show_objects; fail "the pass opened the game: $(cat pass.out pass.err)"; }
	show_objects
}

pass 0
grep -q "^g: resolved step 1" pass.out || fail "step 1 not resolved: $(cat pass.out)"
[ ! -e "$R" ] || fail "a run that resolved a step wrote a record"

# --- passed over: the same summary, byte for byte, text and --json ----------
pass 1 && grep -q "^g: nothing due" pass.out || fail "nothing due: $(cat pass.out)"
[ -e "$R" ] || fail "a run that left nothing due wrote no record"
rm "$R"
for args in "" "--json" "--no-mail" "--json --no-mail"; do
	# shellcheck disable=SC2086
	pass 2 $args && cp pass.out full.out && cp pass.err full.err
	[ -e "$R" ] || fail "the full run with '$args' wrote no record"
	# shellcheck disable=SC2086
	passed_over 2 $args
	cmp -s pass.out full.out || fail "passed over with '$args', stdout differs: $(diff full.out pass.out)"
	cmp -s pass.err full.err || fail "passed over with '$args', stderr differs: $(diff full.err pass.err)"
done
grep -q "estafette.sender is not set" full.out || fail "no sender warning to repeat"
# main in packed-refs (git pack-refs) is read there.
git -C "$G" pack-refs --all
[ ! -e "$G/.git/refs/heads/main" ] || fail "main is still a loose ref"
passed_over 3
grep -q "^g: nothing due" pass.out || fail "packed main: $(cat pass.out)"
# --force and --confirm-clock are the full run's to judge.
opened 3 --force || fail "--force passed the game over: $(cat pass.out pass.err)"
pass 3

# --- each input the record depends on sends the game back to the full run ---
# A config change: the next summary no longer warns about the sender.
git -C "$G" config estafette.sender "Game <orders@example.org>"
pass 4
! grep -q "estafette.sender is not set" pass.err || fail "the config change was not seen"
passed_over 4
! grep -q "estafette.sender is not set" pass.err || fail "the record kept the old warning"

# Mail waiting: the full run sends it.
m=$(ls "$ESTAFETTE_HOME/outbox/g/sent" | grep -m1 '\.eml$')
mv "$ESTAFETTE_HOME/outbox/g/sent/$m" "$ESTAFETTE_HOME/outbox/g/sent/${m%.eml}.json" \
	"$ESTAFETTE_HOME/outbox/g/pending/"
pass 5
grep -q "mail: 1 sent" pass.out || fail "mail waiting was not sent: $(cat pass.out)"

# The GM's extend moves main: the full run tells the new deadline.
passed_over 6
"$ESTAFETTE" gm "$G" extend --hours 12 --reason "a holiday" --now "@$(( T0 + 6 * H ))" >/dev/null
pass 7 --json
want=$(date -u -d "@$(( T0 + 36 * H ))" +%Y-%m-%dT%H:%M:%SZ)
[ "$(json_get 'd[0]["waiting"]["deadline"]' < pass.out)" = "$want" ] ||
	fail "the extended deadline is not $want: $(cat pass.out)"

# The site: once written, passed over; gone, written again.
git -C "$G" config estafette.sitedir "$WORK/site"
pass 8
grep -q "site: $WORK/site" pass.out || fail "no site written: $(cat pass.out)"
passed_over 8
! grep -q "site:" pass.out || fail "the pass over wrote a site"
rm -rf "$WORK/site"
pass 8
grep -q "site: $WORK/site" pass.out || fail "the site removed was not written again: $(cat pass.out)"

# The dice secrets taken away: the full run says they are missing (78); back, passed over again.
passed_over 8
S=$ESTAFETTE_HOME/games/g/secrets.json
mv "$S" "$WORK/secrets.away"
rc=0; pass 8 || rc=$?
[ "$rc" -eq 78 ] && grep -q "^games/g: failed (config, exit 78): .*secrets are missing" pass.out ||
	fail "a record hid the missing secrets (exit $rc): $(cat pass.out pass.err)"
mv "$WORK/secrets.away" "$S"
pass 8
passed_over 8

# The record itself: garbage, truncated, another version, writable by others, a link.
passed_over 9
cp "$R" good-record
for damage in garbage truncated version mode link; do
	cp good-record "$R" && chmod 600 "$R"
	case $damage in
	garbage) head -c 300 /dev/urandom > "$R" ;;
	truncated) truncate -s 100 "$R" ;;
	version) "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["version"]="0.0.1"
json.dump(d, open(sys.argv[1], "w"))' "$R" ;;
	mode) chmod 666 "$R" ;;
	link) mv "$R" "$WORK/linked-record" && ln -s "$WORK/linked-record" "$R" ;;
	esac
	opened 9 || fail "a record ($damage) passed the game over: $(cat pass.out)"
	rm -f "$R"
	pass 9
done
# A clock behind the run that wrote the record: the full run judges it.
opened 8 || fail "a clock behind the record passed the game over"
rm -f "$WORK/linked-record"

# A submit moves main: the full run resolves step 2.
pass 10
passed_over 10
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$G" france 1 '[]' > o.json
ssh-keygen -q -Y sign -f france -n estafette-orders o.json
"$ESTAFETTE" submit "$G" o.json --now "@$(( T0 + 10 * H ))" >/dev/null
pass 11
grep -q "^g: resolved step 2" pass.out || fail "the submitted orders were not resolved: $(cat pass.out)"

# The deadline reached: a record made before it does not hide the step.
pass 12
passed_over 12
grep -q "^g: nothing due" pass.out || fail "step 3 is due already: $(cat pass.out)"
pass 40
grep -q "^g: resolved step 3" pass.out || fail "the deadline passed and step 3 waits: $(cat pass.out)"

# --- a pass over the game is no run for the clock guard: a record lasts half its bound
# (72 hours by default), so the full run after it is within the bound and trusts the clock.
"$ESTAFETTE" gm "$G" extend --hours 100 --reason "a long week" --now "@$(( T0 + 41 * H ))" >/dev/null
pass 41
grep -q "^g: nothing due" pass.out || fail "after the extend: $(cat pass.out)"
passed_over 76
opened 78 || fail "a record outlived half the clock guard's bound"
pass 78
! grep -qi "jump" pass.out pass.err || fail "the clock guard fired after a record: $(cat pass.out pass.err)"
passed_over 113

# --- --shard: another host's game is passed over by the id its record names --
id=$(git -C "$G" show main:game.json | json_get 'd["id"]')
mine=$("$PY" -c 'import hashlib,sys; print(int.from_bytes(hashlib.sha256(sys.argv[1].encode()).digest()[:8], "big") % 2 + 1)' "$id")
other=$(( 3 - mine ))
# other_shard: g listed as another host's in pass.out (--json).
other_shard() { [ "$(json_get '[g.get("outcome") for g in d if g["game"] == "'"$id"'"]' < pass.out)" = "['other-shard']" ]; }
rm -f "$R"
pass 120 --shard "$other/2" --json
other_shard || fail "g is not shard $mine of 2: $(cat pass.out)"
[ -e "$R" ] || fail "a pass over another host's game wrote no id-only record"
passed_over 120 --shard "$other/2" --json
other_shard || fail "the id-only record did not pass g over: $(cat pass.out)"
# The id-only record stands for nothing else: g's own shard, or no shard, runs it.
opened 120 --shard "$mine/2" || fail "an id-only record passed g over in its own shard"
opened 120 || fail "an id-only record passed g over without --shard"
# Written at another commit of main, it is not trusted for the id either.
pass 120 --shard "$other/2"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["main"]="0"*40
json.dump(d, open(sys.argv[1], "w"))' "$R"
opened 120 --shard "$other/2" --json || true
! other_shard || fail "an id-only record of another main passed g over"
pass 120 --shard "$mine/2"
grep -q "^g: nothing due" pass.out || fail "g in its own shard: $(cat pass.out)"
echo "next-due record: passed over byte for byte; every change, damage and deadline runs the game; another shard's game is passed over by its id"
