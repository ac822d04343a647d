#!/bin/bash
# Concurrency: eight estafette processes started at once
# on one Napoleonic Empire game, round after round: three `submit`, two
# `receive` (a message on stdin), one `fetch --maildir` and two `run`.
# Every order is a real file signed by ssh-keygen for the player the game
# awaits, each with its own seq. After each round:
#  - every process exited 0, 65 (its order was overtaken: the step was
#    resolved or a higher seq recorded first, and it says so) or 75 (a lock
#    held: it says so and gives the command to retry); never 70 or another;
#  - every order a process accepted is an object reachable from main, and
#    the highest accepted seq of each step is the file the step resolved
#    (turns/NNNN/orders/) or the one waiting (orders/);
#  - steps 1..N each have one commit and one tag, turns/ has no gap;
#  - git fsck --strict is clean; the outbox holds each report once.
# CONCURRENCY_ROUNDS=N for a longer pass (10 by default).
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
ROUNDS=${CONCURRENCY_ROUNDS:-10}
make_players
"$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json >/dev/null
"$ESTAFETTE" run game >/dev/null
mkdir -p md/new md/cur md/tmp
: > accepted.log   # step player seq sha1-of-the-blob, one line per accepted order

# make ROUND I PLAYER: orders for the open step: the discards the hand
# limit asks for (so the file is valid whatever the hand), seq 10*ROUND+I.
make_order() {
	local items
	items=$("$ESTAFETTE" report game --player "$3" --format json | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
hand = [c["id"] for c in d["view"]["hand"]]
excess = max(0, len(hand) - 7) if d["kind"] == "turn" else 0
print(json.dumps([{"type": "discard", "card": c} for c in hand[:excess]]))')
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$3" $((10 * $1 + $2)) "$items" > "r$1-$2.json"
	ssh-keygen -q -Y sign -f "$3" -n estafette-orders "r$1-$2.json" < /dev/null
}
mail() {  # file player > message (attachments: the file's bytes as signed)
	"$PY" "$TOP/tests/helpers/make_mail.py" attachments --order "$1" --sig "$1.sig" \
		--from "$2 <$2@example.org>" --to "GM <gm@example.org>"
}
# overtaken FILE: the refusal of an order some other process overtook.
overtaken() {
	grep -qE 'for an earlier step cannot be replayed|but orders with seq [0-9]+ are already held|field "prev" is [0-9a-f]+, but the state before step' "$1"
}

start=$(date +%s)
codes=""
for round in $(seq "$ROUNDS"); do
	mkdir -p "p$round"
	st=$("$ESTAFETTE" status game --json)
	step=$(json_get 'd["step"]' <<< "$st")
	player=$(json_get 'd["awaiting"][0]["player"]' <<< "$st")
	for i in 1 2 3 4 5 6; do make_order "$round" "$i" "$player"; done
	mail "r$round-4.json" "$player" > "r$round-4.eml"
	mail "r$round-5.json" "$player" > "r$round-5.eml"
	mail "r$round-6.json" "$player" > "md/tmp/r$round.eml"
	mv "md/tmp/r$round.eml" "md/new/r$round.eml"

	# All eight at once; each leaves its exit code beside its output.
	out=p$round
	launch() {  # name command...
		local name=$1; shift
		{ c=0; "$@" > "$out/$name.out" 2> "$out/$name.err" || c=$?; echo "$c" > "$out/$name.rc"; } &
	}
	launch submit1 "$ESTAFETTE" submit game "r$round-1.json"
	launch run1 "$ESTAFETTE" run game
	launch submit2 "$ESTAFETTE" submit game "r$round-2.json"
	launch receive4 sh -c "exec \"$ESTAFETTE\" receive game --json < r$round-4.eml"
	launch fetch6 "$ESTAFETTE" fetch game --maildir md --json
	launch submit3 "$ESTAFETTE" submit game "r$round-3.json"
	launch receive5 sh -c "exec \"$ESTAFETTE\" receive game --json < r$round-5.eml"
	launch run2 "$ESTAFETTE" run game
	wait

	[ "$(ls "$out"/*.rc | wc -l)" = 8 ] || fail "round $round: $(ls "$out"/*.rc | wc -l) exit codes for 8 processes"
	for f in "$out"/*.rc; do
		name=$(basename "$f" .rc)
		rc=$(cat "$f")
		codes="$codes $name=$rc"
		case $rc in
		0) ;;
		75)
			grep -q "holds .*estafette.lock; try again when it ends" "$out/$name.err" ||
				fail "round $round: $name exited 75 without naming the lock: $(cat "$out/$name.err")"
			grep -q "retry later with: estafette " "$out/$name.err" ||
				fail "round $round: $name exited 75 without the command to retry: $(cat "$out/$name.err")"
			;;
		65)
			case $name in submit*) ;; *) fail "round $round: $name exited 65: $(cat "$out/$name.err")" ;; esac
			overtaken "$out/$name.err" || fail "round $round: $name refused for no race: $(cat "$out/$name.err")"
			;;
		*) fail "round $round: $name exited $rc: $(cat "$out/$name.out" "$out/$name.err")" ;;
		esac
		# What each process accepted: submit says so with exit 0; receive
		# and fetch in their JSON (a message refused because another
		# process overtook it is not accepted, and must say why).
		i=${name: -1}
		case $name in
		submit*) [ "$rc" = 0 ] && echo "$step $player $((10 * round + i)) $(git hash-object "r$round-$i.json")" >> accepted.log ;;
		receive* | fetch*)
			[ "$rc" = 0 ] || continue
			status=$(json_get '(d.get("messages") or [d])[0]["status"] if "messages" not in d or d["messages"] else "none"' < "$out/$name.out")
			case $status in
			accepted) echo "$step $player $((10 * round + i)) $(git hash-object "r$round-$i.json")" >> accepted.log ;;
			none) ;;   # fetch found the message taken already (another fetch's) or none: the final fetch below
			refused)
				json_get '" ".join(c.get("error", "") for c in (d.get("messages") or [d])[0]["candidates"])' \
					< "$out/$name.out" > "$out/$name.why"
				overtaken "$out/$name.why" || fail "round $round: $name refused for no race: $(cat "$out/$name.out")"
				;;
			*) fail "round $round: $name: status $status: $(cat "$out/$name.out")" ;;
			esac
			;;
		esac
	done
	# A fetch that lost the race left its message unseen: the next fetch takes it.
	if [ -n "$(ls md/new)" ]; then
		expect_exit 0 "$ESTAFETTE" fetch game --maildir md --json
		[ "$(json_get 'd["messages"][0]["status"]' < "$WORK/last.out")" = accepted ] &&
			echo "$step $player $((10 * round + 6)) $(git hash-object "r$round-6.json")" >> accepted.log
	fi
	[ -z "$(ls md/new)" ] || fail "round $round: a message left unseen in the Maildir"
	# The step goes on whether or not a run won the race.
	expect_exit 0 "$ESTAFETTE" run game

	# --- The checks ---
	git -C game fsck --strict --no-progress 2> fsck.err || fail "round $round: git fsck --strict: $(cat fsck.err)"
	git -C game rev-list --objects main | cut -d' ' -f1 | sort -u > reachable.txt
	while read -r s p q sha; do
		grep -qx "$sha" reachable.txt || fail "round $round: the accepted order of $p (step $s, seq $q) is not in the repository"
	done < accepted.log
	"$PY" - game accepted.log <<'PY' || fail "round $round: the repository's steps"
import collections, json, subprocess, sys
game, log = sys.argv[1:3]
def git(*a):
    return subprocess.run(["git", "-C", game, *a], check=True, capture_output=True, text=True).stdout
last = json.loads(subprocess.run([__import__("os").environ["ESTAFETTE"], "status", game, "--json"],
                                 check=True, capture_output=True).stdout)["step"] - 1
tags = sorted(t for t in git("tag", "-l", "step-*").split())
assert tags == [f"step-{s:04d}" for s in range(last + 1)], f"tags {tags}, {last} steps"
subjects = collections.Counter(l.split(":")[0] for l in git("log", "--format=%s", "main").splitlines()
                               if l.startswith("step "))
want = collections.Counter(f"step {s:04d}" for s in range(1, last + 1))
assert subjects == want, f"step commits {dict(subjects - want)} extra, {dict(want - subjects)} missing"
turns = sorted(l for l in git("ls-tree", "--name-only", "main", "turns/").split())
assert turns == [f"turns/{s:04d}" for s in range(1, last + 1)], f"turns/ holds {turns} for {last} steps"
for s in range(1, last + 1):
    assert git("rev-list", "-n1", f"step-{s:04d}") == git("log", "-n1", "--format=%H", f"--grep=^step {s:04d}", "main"), \
        f"step-{s:04d} does not tag the step's commit"
best = {}
for line in open(log):
    s, p, q, sha = line.split()
    if int(q) > best.get((int(s), p), (0, ""))[0]:
        best[(int(s), p)] = (int(q), sha)
for (s, p), (q, sha) in best.items():
    path = f"turns/{s:04d}/orders/{p}.json" if s <= last else f"orders/{p}.json"
    held = git("rev-parse", f"main:{path}").strip()
    assert held == sha, f"step {s}: {path} is not seq {q}, the highest {p} had accepted"
PY
	# The outbox: one report per player per step, each Message-ID once.
	"$PY" - "$ESTAFETTE_HOME/outbox/game" <<'PY' || fail "round $round: the outbox"
import collections, email, email.policy, pathlib, re, sys
box = pathlib.Path(sys.argv[1])
files = [p for p in box.rglob("*.eml")]
ids = collections.Counter(email.message_from_bytes(p.read_bytes(), policy=email.policy.default)["Message-ID"]
                          for p in files)
dup = [i for i, n in ids.items() if n > 1]
assert not dup, f"Message-IDs twice in the outbox: {dup}"
for p in files:   # <RANDOM.GAME.NAME@HOST>, NAME the file's
    mid = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)["Message-ID"]
    assert re.fullmatch(r"<[0-9a-f]{32}\.game\." + re.escape(p.stem) + r"@[a-z0-9.-]+>", mid), f"{p}: {mid}"
reports = collections.Counter(p.name for p in files if re.fullmatch(r"\d{4}-(france|allies)\.eml", p.name))
assert all(n == 1 for n in reports.values()), f"a report twice: {reports}"
PY
done
took=$(($(date +%s) - start))
n75=$(tr ' ' '\n' <<< "$codes" | grep -c "=75$" || true)
n65=$(tr ' ' '\n' <<< "$codes" | grep -c "=65$" || true)
[ "$n75" -gt 0 ] || fail "no process ever found the lock held in $ROUNDS rounds: the test raced nothing"
echo "concurrency: $ROUNDS rounds of 8 processes in ${took}s; $(wc -l < accepted.log) orders accepted," \
	"$n75 refused for the lock, $n65 overtaken; $(git -C game tag -l 'step-*' | wc -l) steps, no loss, no double"
