#!/bin/bash
# hooks/run-and-push mails each report once, from the runner whose push
# published its step, however another runner's passes end (docs/hosting.md
# "Running the same games from several hosts"). One game on a bare remote;
# host A runs it from the home that made it (`estafette new`), hosts B, C
# and D from homes of their own (the dice secrets copied in), each through
# its own clone, all mailing to a loopback SMTP server. A makes steps 1 to
# 3; after each, another host makes a pass that must mail nothing:
#   0. C's clone, made after step 0, at the open join: A (the home that
#      made the game) mails the invitations, C does not;
#   a. B's first run finds the game's lock held (exit 75), its retry does not
#      mail the step the fetch before it brought;
#   b. B's pass is killed (kill -9) between its fetch and its run, then a
#      whole pass;
#   b2. B's pass is killed after its run queued the step's reports again,
#      before it put them aside, then a whole pass;
#   c. host D's clone, made after the steps exist, runs its first pass;
# and the other way round: B makes a step, its pass is killed after the
# push, before the mail; its next pass mails the step (once), A's mails
# nothing. Each stage's mail is checked on its own, so that a failure
# names every stage that went wrong (the run-and-push before this fix fails
# stages 0, a, b, b2 and c).
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
export ESTAFETTE
H=$TOP/hooks

make_players
"$ESTAFETTE" keygen gm -C gm@example.org >/dev/null
chmod 600 gm
start_smtpd "$WORK/smtp"
"$ESTAFETTE" new made --id once --ruleset napoleonic-empire --players players.json \
	--gm-signing-key gm --test-dice-secret "mail once" >/dev/null
[ -f "$ESTAFETTE_HOME/outbox/once/made-here" ] || fail "estafette new did not mark its home (outbox/once/made-here)"
git clone -q --bare made remote.git
git clone -q remote.git players

# clone HOST: HOST's clone of the game, set up for running; host a runs
# from the home that made the game, the others from their own.
clone() {
	local h=$1
	if [ "$h" != a ]; then
		mkdir -p "home-$h"
		chmod 700 "home-$h"
		cp -a "$ESTAFETTE_HOME/games" "home-$h/"
	fi
	git clone -q remote.git "run-$h"
	git -C "run-$h" config estafette.signingkey "$WORK/gm"
	git -C "run-$h" config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
	git -C "run-$h" config estafette.sender "Game <orders@example.org>"
}
# pass HOST [ESTAFETTE]: HOST's cron job, once; its exit code.
pass() {
	local h=$1 home=$WORK/home-$1
	[ "$h" != a ] || home=$ESTAFETTE_HOME
	ESTAFETTE=${2:-$ESTAFETTE} ESTAFETTE_HOME=$home "$H/run-and-push" "run-$h" >>"host-$h.log" 2>&1
}
# killed_pass HOST WRAPPER: pass, without the shell's note that it was killed.
killed_pass() { (pass "$@") 2>/dev/null; }
orders() { push_orders players orders; }
step_on_remote() { git -C remote.git log -1 --format=%s main | sed -n 's/^step \([0-9]*\).*/\1/p'; }
# a_makes STEP: the players' orders, then A's pass publishes and mails STEP.
a_makes() {
	orders
	pass a || fail "host a: $(cat host-a.log)"
	[ "$(step_on_remote)" = "$(printf %04d "$1")" ] || fail "A did not publish step $1: $(cat host-a.log)"
	stage "A makes step $1" $(awaited_reports "$1")
}

# Wrappers around estafette, each acting once (while its flag file exists):
# lock-estafette runs `run` while another process holds the game's lock;
# killed-before-run kills its run-and-push instead of running; killed-after-run
# and killed-before-mail kill it after the run, or instead of the mail.
wrapper() {  # NAME WHEN(before-run|after-run|before-mail|lock)
	cat > "$1" <<SH
#!/bin/bash
if [ -e "$WORK/$1.once" ]; then
	case "$2:\$1" in
	lock:run)
		rm -f "$WORK/$1.once"
		exec flock "\$(git rev-parse --path-format=absolute --git-common-dir)/estafette.lock" "$ESTAFETTE" "\$@" ;;
	before-run:run | before-mail:mail)
		rm -f "$WORK/$1.once"
		kill -9 \$PPID; exit 137 ;;
	after-run:run)
		rm -f "$WORK/$1.once"
		"$ESTAFETTE" "\$@"; kill -9 \$PPID; exit 137 ;;
	esac
fi
exec "$ESTAFETTE" "\$@"
SH
	chmod +x "$1"
	: > "$WORK/$1.once"
}

# tally: "<name> <count>" for every message the server took, by the name in
# its Message-ID (0003-france, 0001-allies-join, ...), sorted.
tally() {
	"$PY" - "$WORK/smtp" <<'PY'
import collections, email, email.policy, pathlib, re, sys
seen = collections.Counter()
for eml in sorted(pathlib.Path(sys.argv[1]).glob("*.eml")):
    msg = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    m = re.match(r"<[0-9a-f]{32}\.once\.([^@]+)@", msg["Message-ID"] or "")
    seen[m.group(1) if m else "?" + str(msg["Message-ID"])] += 1
for name in sorted(seen):
    print(name, seen[name])
PY
}
failed=()
seen_before=
mark() { seen_before=$(tally); }
# stage NAME WANT...: the messages the server took since `mark` are exactly
# WANT (names, each once); otherwise the stage is noted as failed.
stage() {
	local name=$1 got want; shift
	got=$({ diff <(printf '%s\n' "$seen_before") <(tally) || true; } | sed -n 's/^> //p' |
		while read -r n c; do
			was=$(printf '%s\n' "$seen_before" | awk -v n="$n" '$1 == n { print $2 }')
			echo "$n $((c - ${was:-0}))"
		done | sort)
	want=$(for n in "$@"; do echo "$n 1"; done | sort)
	if [ "$got" != "$want" ]; then
		echo "FAIL: stage $name: mail sent: [$(echo $got)], expected: [$(echo $want)]" >&2
		failed+=("$name")
	else
		echo "stage $name: mail as expected: [$(echo $want)]"
	fi
	mark
}
reports() { local p; for p in france allies; do printf '%s-%s ' "$1" "$p"; done; }
awaited_reports() {  # STEP: the reports of STEP, to every player
	reports "$(printf %04d "$1")"
}

mark
clone a
pass a || fail "host a, first pass: $(cat host-a.log)"
stage "A at the open join" 0001-france-join 0001-allies-join

# 0. C's clone, made now, at the same open join: the invitations are A's.
clone c
pass c || fail "host c: $(cat host-c.log)"
pass c || fail "host c: $(cat host-c.log)"
stage "0: a clone made after step 0"

clone b
pass b || fail "host b: $(cat host-b.log)"
stage "b's first pass, at the open join"

# The join, resolved and mailed by A.
a_makes 1

# a. B's first run finds the lock held.
wrapper lock-estafette lock
pass b "$WORK/lock-estafette" || fail "host b (lock held once): $(cat host-b.log)"
[ ! -e lock-estafette.once ] || fail "B never ran"
grep -q "the game's lock is held (estafette exit 75); trying again" host-b.log || fail "B's run did not find the lock held: $(cat host-b.log)"
stage "a: B's lock held at the first try"

# b. B's pass killed between its fetch and its run.
a_makes 2
wrapper killed-before-run before-run
killed_pass b "$WORK/killed-before-run" && fail "B's pass was not killed: $(cat host-b.log)"
[ ! -e killed-before-run.once ] || fail "B's pass did not get to its run"
[ "$(git -C run-b rev-parse step-0002)" = "$(git -C remote.git rev-parse step-0002)" ] ||
	fail "B's killed pass had not taken the remote's steps"
pass b || fail "host b: $(cat host-b.log)"
stage "b: B killed between its fetch and its run"

# b2. B's pass killed after its run queued the reports again.
a_makes 3
wrapper killed-after-run after-run
killed_pass b "$WORK/killed-after-run" && fail "B's pass was not killed: $(cat host-b.log)"
[ ! -e killed-after-run.once ] || fail "B's pass did not get to its run"
ls home-b/outbox/once/pending/0003-*.eml >/dev/null 2>&1 || fail "B's killed run queued nothing for step 3 (nothing tested)"
pass b || fail "host b: $(cat host-b.log)"
stage "b2: B killed after its run, before it put the reports aside"

# c. D's clone, made after the steps exist.
clone d
pass d || fail "host d: $(cat host-d.log)"
pass d || fail "host d: $(cat host-d.log)"
stage "c: a clone made after step 3"
pass c || fail "host c: $(cat host-c.log)"
stage "C, a step later"

# B makes step 4; killed after its push, before its mail: its next pass
# mails the step, A's does not.
orders
wrapper killed-before-mail before-mail
killed_pass b "$WORK/killed-before-mail" && fail "B's pass was not killed: $(cat host-b.log)"
[ ! -e killed-before-mail.once ] || fail "B's pass did not get to its mail"
[ "$(step_on_remote)" = 0004 ] || fail "B did not publish step 4: $(cat host-b.log)"
stage "B publishes step 4, killed before its mail"
pass a || fail "host a: $(cat host-a.log)"
stage "A after B's step 4"
pass b || fail "host b: $(cat host-b.log)"
stage "B's next pass mails its step 4" $(awaited_reports 4)

# e. The git host drops the latest step's tag (main as it was): C, which
# has not seen step 5, must not take it for its own when its run tags the
# step again.
a_makes 5
git -C remote.git tag -d step-0005 >/dev/null
pass c || fail "host c (the host dropped step-0005): $(cat host-c.log)"
stage "e: the host dropped the latest step's tag"

# f. A new clone whose own main (what the host served at the clone, never
# verified) names another game id, one that leads out of the outboxes:
# the outbox is the verified main's, and nothing is mailed or moved.
clone e
sed -i 's/^  "id": "once",$/  "id": "..\/..\/escaped",/' run-e/game.json
git -C run-e -c user.name=host -c user.email=host@example.org commit -qam "served at the clone"
pass e || fail "host e (its clone's main forged): $(cat host-e.log)"
stage "f: a clone's unverified main names another id"
[ ! -e "$WORK/escaped" ] && [ "$(ls home-e/outbox)" = once ] ||
	fail "host e's pass wrote outside its game's outbox: $(ls home-e/outbox "$WORK")"

# Everything, once.
for s in 1 2 3 4 5; do for n in $(awaited_reports "$s"); do
	[ "$(tally | awk -v n="$n" '$1 == n { print $2 }')" = 1 ] || failed+=("total: $n")
done; done
[ "${#failed[@]}" -eq 0 ] || fail "mail went wrong in: $(printf '[%s] ' "${failed[@]}")"
echo "ok"
