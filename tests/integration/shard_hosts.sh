#!/bin/bash
# Three hosts share 30 games (docs/hosting.md "Running the same games from
# several hosts"): each game lives in a bare remote, each host keeps its own
# $ESTAFETTE_HOME (the games' dice secrets copied in) and its own clones,
# and runs every clone through hooks/run-and-push --shard K/3, which passes
# over the games of other shards. The players push their orders to the
# remotes; the hosts resolve three steps. Midway through step 2, host 3's
# pass is killed (kill -9, between a run and its push); hosts 1 and 2 then
# take its games over (--shard K/2), and host 3 makes one last pass over its
# old shard, as the guide says. Host 4 is then brought in, its clones made
# after the steps exist, and takes shard 3 of 3 for step 3. At the end
# every step of every game was
# resolved exactly once (git fsck, a linear main, one commit and one tag
# per step, no awaited player missing from any step) and each report was
# mailed exactly once, through a loopback SMTP server. Also: run --all
# --shard over a folder runs exactly the games the hash gives (computed
# here with Python), counts the others apart, and a bad K/N is refused
# with exit 64, by run, status and run-and-push alike.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
export ESTAFETTE
H=$TOP/hooks
GAMES=${SHARD_GAMES:-30}

# shard_of ID N: the guide's one line of Python, apart from estafette.
shard_of() {
	"$PY" -c 'import hashlib,sys; print(int.from_bytes(hashlib.sha256(sys.argv[1].encode()).digest()[:8], "big") % int(sys.argv[2]) + 1)' "$1" "$2"
}

make_players
"$ESTAFETTE" keygen gm -C gm@example.org >/dev/null
chmod 600 gm
start_smtpd "$WORK/smtp"
ids=()
mkdir made remotes players
for i in $(seq -w 1 "$GAMES"); do
	ids+=("g$i")
	"$ESTAFETTE" new "made/g$i" --id "g$i" --ruleset napoleonic-empire --players players.json \
		--gm-signing-key gm --test-dice-secret "shard test $i" >/dev/null
	git clone -q --bare "made/g$i" "remotes/g$i.git"
	git clone -q "remotes/g$i.git" "players/g$i"
done

# --- Refusals: exit 64, naming the option and the rule ---------------------
for bad in 0/3 4/3 1/0 x 1/1001 -1/3 2/3x; do
	expect_exit 64 "$ESTAFETTE" run --all made --shard "$bad"
	grep -qF -- "--shard \"$bad\": not K/N" "$WORK/last.err" || fail "run --shard $bad: $(cat "$WORK/last.err")"
	grep -qF "1 <= K <= N <= 1000" "$WORK/last.err" || fail "run --shard $bad: no rule: $(cat "$WORK/last.err")"
	expect_exit 64 "$ESTAFETTE" status --all made --shard "$bad"
done
expect_exit 64 "$ESTAFETTE" run made/g01 --shard 1/3
grep -qF "only with --all DIR" "$WORK/last.err" || fail "run GAME --shard: $(cat "$WORK/last.err")"

# --- run --all --shard over a folder: exactly the hash's games -------------
declare -A shard3 shard2
for id in "${ids[@]}"; do
	shard3[$id]=$(shard_of "$id" 3)
	shard2[$id]=$(shard_of "$id" 2)
done
mine() {  # K N: the ids of shard K of N, sorted, on one line
	local id out=()
	for id in "${ids[@]}"; do
		if [ "$2" = 3 ]; then [ "${shard3[$id]}" = "$1" ] && out+=("$id"); else [ "${shard2[$id]}" = "$1" ] && out+=("$id"); fi
	done
	echo "${out[*]}"
}
for k in 1 2 3; do
	n=$(mine "$k" 3 | wc -w)
	[ "$n" -gt 0 ] || fail "no game of the $GAMES in shard $k/3: take other ids"
	expect_exit 0 "$ESTAFETTE" run --all made --shard "$k/3" --no-mail
	[ "$(sed -n 's/^\(g[0-9]*\): nothing due$/\1/p' "$WORK/last.out" | xargs)" = "$(mine "$k" 3)" ] ||
		fail "run --all --shard $k/3 ran other games than shard $k: $(cat "$WORK/last.out")"
	grep -qx "$GAMES games, $n in shard $k/3: $n ran, 0 locked or failed temporarily, 0 failed" "$WORK/last.out" ||
		fail "run --all --shard $k/3: totals: $(tail -n 1 "$WORK/last.out")"
	expect_exit 0 "$ESTAFETTE" run --all made --shard "$k/3" --no-mail --json
	[ "$(json_get '" ".join(sorted(g["game"] for g in d if g.get("outcome") != "other-shard"))' < "$WORK/last.out")" = "$(mine "$k" 3)" ] ||
		fail "run --all --shard $k/3 --json: $(cat "$WORK/last.out")"
	[ "$(json_get 'sorted(set(g["shard"] for g in d if g.get("outcome") == "other-shard"))' < "$WORK/last.out")" != "[$k]" ] ||
		fail "run --all --shard $k/3 --json: the other shards' games say shard $k"
	[ "$(json_get 'len([g for g in d if g.get("outcome") == "other-shard"])' < "$WORK/last.out")" = $((GAMES - n)) ] ||
		fail "run --all --shard $k/3 --json does not list the other shards' games"
	expect_exit 0 "$ESTAFETTE" status --all made --shard "$k/3" --json
	[ "$(json_get '" ".join(sorted(g["game"] for g in d))' < "$WORK/last.out")" = "$(mine "$k" 3)" ] ||
		fail "status --all --shard $k/3: $(cat "$WORK/last.out")"
done
expect_exit 0 "$ESTAFETTE" status made/g01 --shard "${shard3[g01]}/3" --json
[ "$(json_get '(d["shard"], d["in_shard"])' < "$WORK/last.out")" = "(${shard3[g01]}, True)" ] ||
	fail "status g01 --shard: $(cat "$WORK/last.out")"
rm -rf "$ESTAFETTE_HOME/outbox"   # (the runs above queued mail no host sends)

# --- Three hosts: their homes (the dice secrets) and clones ----------------
# make_host H: host H's home (the dice secrets copied in) and its clone of
# every game, made now from the remotes.
make_host() {
	local h=$1 id c
	mkdir -p "host$h/home" "host$h/run"
	cp -a "$ESTAFETTE_HOME/games" "host$h/home/"
	chmod 700 "host$h/home"
	for id in "${ids[@]}"; do
		c=host$h/run/$id
		git clone -q "remotes/$id.git" "$c"
		git -C "$c" config estafette.signingkey "$WORK/gm"
		git -C "$c" config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
		git -C "$c" config estafette.sender "Game <orders@example.org>"
	done
}
for h in 1 2 3; do make_host "$h"; done
ESTAFETTE_HOME=$WORK/host1/home expect_exit 64 "$H/run-and-push" --shard 4/3 host1/run/g01
grep -qF -- "--shard \"4/3\": not K/N" "$WORK/last.err" || fail "run-and-push --shard 4/3: $(cat "$WORK/last.err")"
# host 3 pauses a second after each run, before its push: its pass can be
# killed there, with a step resolved but not published.
cat > slow-estafette <<SH
#!/bin/bash
"$ESTAFETTE" "\$@"; rc=\$?
[ "\$1" = run ] && sleep 1
exit \$rc
SH
chmod +x slow-estafette

# pass HOST [RUN-AND-PUSH OPTIONS]: the host's cron job, once: every clone
# through run-and-push; a failure is a line of the host's log.
pass() {
	local h=$1 g; shift
	for g in "$WORK/host$h/run"/*/; do
		ESTAFETTE_HOME=$WORK/host$h/home "$H/run-and-push" "$@" "$g" || echo "FAILED: $g (exit $?)"
	done >>"$WORK/host$h.log" 2>&1
}

# order_game ID: the game's orders for its next step, pushed by the players.
order_game() { push_orders "players/$1" "orders for $1"; }
orders() {
	local id
	for id in "${ids[@]}"; do order_game "$id"; done
}
# at STEP: every remote's main has resolved STEP, and no later one.
at() {
	local id
	for id in "${ids[@]}"; do
		[ "$(git -C "remotes/$id.git" log -1 --format=%s main)" = "orders for $id" ] &&
			fail "$id: its orders for step $1 were not resolved"
		git -C "remotes/$id.git" log -1 --format=%s main | grep -q "^step $(printf %04d "$1")" ||
			fail "$id: main is not at step $1: $(git -C "remotes/$id.git" log -1 --format=%s main)"
	done
}
no_failures() {
	! grep -h "FAILED\|refused" "$WORK"/host*.log || fail "a run-and-push failed (above)"
}

start=$SECONDS
# --- Step 1 (the join): the three hosts at once, each its shard of 3 -------
orders
pass 1 --shard 1/3 & p1=$!
pass 2 --shard 2/3 & p2=$!
pass 3 --shard 3/3 & p3=$!
wait "$p1" "$p2" "$p3"
no_failures
at 1
for h in 1 2 3; do
	n=$(mine "$h" 3 | wc -w)
	[ "$(grep -c "pushed main" "host$h.log")" = "$n" ] || fail "host $h pushed other than its $n games: $(cat "host$h.log")"
	[ "$(grep -c "not this host's $h/3: another host runs it; passed over" "host$h.log")" = $((GAMES - n)) ] ||
		fail "host $h did not pass over the other shards' games: $(cat "host$h.log")"
done

# --- Step 2: host 3's pass killed midway, then hosts 1 and 2 take over -----
orders
: > host3.log
pass 1 --shard 1/3 & p1=$!
pass 2 --shard 2/3 & p2=$!
( export ESTAFETTE=$WORK/slow-estafette; exec setsid bash -c "$(declare -f pass); WORK='$WORK' H='$H'; pass 3 --shard 3/3" ) & p3=$!
n3=$(mine 3 3 | wc -w)
for _ in $(seq 600); do
	[ "$(grep -c "pushed main" host3.log)" -ge $((n3 / 2)) ] && break
	sleep 0.05
done
sleep 0.5   # (inside the pause after a run: resolved, not pushed)
kill -9 -- -"$p3" 2>/dev/null || fail "host 3's pass ended before it could be killed"
{ wait "$p3"; } 2>/dev/null || true   # (the braces hide bash's "Killed" note)
wait "$p1" "$p2"
left=0
for id in $(mine 3 3); do
	git -C "remotes/$id.git" log -1 --format=%s main | grep -q "^step 0002" || left=$((left + 1))
done
[ "$left" -gt 0 ] || fail "host 3 was killed after its whole pass: $(cat host3.log)"
echo "host 3 killed with $left of its $n3 games not yet at step 2"
pass 1 --shard 1/2 & p1=$!
pass 2 --shard 2/2 & p2=$!
wait "$p1" "$p2"
no_failures
at 2

# --- Host 3's last pass over its old shard: it publishes nothing, drops
# the mail of the step it resolved but never pushed, and mails what it
# pushed but had not sent when it was killed.
: > host3.log
pass 3 --shard 3/3
no_failures
! grep -q "pushed main" host3.log || fail "host 3's last pass resolved a step: $(cat host3.log)"

# --- Host 4 brought in, its clones made now (after steps 1 and 2), in
# host 3's place: its first pass finds nothing due and mails nothing (the
# steps its clones came with are other hosts'); at step 3 it runs its
# shard, and mails those reports.
make_host 4
before=$(ls smtp/*.eml | wc -l)
pass 4 --shard 3/3
no_failures
! grep -q "pushed main" host4.log || fail "host 4's first pass resolved a step: $(cat host4.log)"
[ "$(ls smtp/*.eml | wc -l)" = "$before" ] || fail "host 4's first pass mailed what other hosts sent"
orders
pass 1 --shard 1/3 & p1=$!
pass 2 --shard 2/3 & p2=$!
pass 4 --shard 3/3 & p4=$!
wait "$p1" "$p2" "$p4"
no_failures
at 3
for id in $(mine 3 3); do
	grep -q "^run-and-push: pushed main .* to origin$" <(grep -A2 "^$id: resolved step 3$" host4.log) ||
		fail "host 4 did not publish step 3 of $id, a game of its shard: $(grep -h -A2 "^$id: \|/$id/" host*.log)"
done
echo "three steps of $GAMES games on four hosts, one killed, one brought in: $((SECONDS - start)) s"

# --- Every step resolved once, in every remote -----------------------------
for id in "${ids[@]}"; do
	r=remotes/$id.git
	git -C "$r" fsck --strict --no-progress >fsck.out 2>&1 || fail "$id: git fsck: $(cat fsck.out)"
	[ -z "$(git -C "$r" rev-list --min-parents=2 main)" ] || fail "$id: main has a merge"
	[ "$(git -C "$r" tag -l 'step-*' | xargs)" = "step-0000 step-0001 step-0002 step-0003" ] ||
		fail "$id: step tags $(git -C "$r" tag -l | xargs)"
	for s in 0001 0002 0003; do
		[ "$(git -C "$r" log --format=%s main | grep -c "^step $s")" = 1 ] || fail "$id: not one commit of step $s"
		[ "$(git -C "$r" log -1 --format=%s "step-$s")" = "$(git -C "$r" log --format=%s main | grep "^step $s")" ] ||
			fail "$id: step-$s does not tag its step's commit"
		git -C "$r" merge-base --is-ancestor "step-$s" main || fail "$id: step-$s is not on main"
		[ "$(git -C "$r" show "main:turns/$s/manifest.json" | json_get 'len(d["missing"])')" = 0 ] ||
			fail "$id: step $s resolved with an awaited player missing"
	done
	# one commit of orders per step, each followed by its step
	[ "$(git -C "$r" log --format=%s main | grep -c "^orders for $id")" = 3 ] || fail "$id: orders commits"
done

# --- Each report mailed once ----------------------------------------------
"$PY" - "$WORK/smtp" "${ids[@]}" <<'PY'
import collections, email, email.policy, pathlib, re, sys
box, ids = pathlib.Path(sys.argv[1]), sys.argv[2:]
seen = collections.Counter()
for eml in sorted(box.glob("*.eml")):
    msg = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    m = re.match(r"<[0-9a-f]{32}\.([^.]+)\.([^@]+)@", msg["Message-ID"] or "")
    if not m:
        sys.exit(f"FAIL: {eml}: no estafette Message-ID: {msg['Message-ID']}")
    seen[(m.group(1), m.group(2))] += 1
want = {(g, f"{s:04d}-{p}") for g in ids for s in (1, 2, 3) for p in ("france", "allies")}
twice = sorted(k for k, n in seen.items() if n > 1)
missing = sorted(want - set(seen))
extra = sorted(set(seen) - want)
if twice or missing or extra:
    sys.exit(f"FAIL: mail: sent more than once {twice}; never sent {missing}; unexpected {extra}")
print(f"{len(seen)} reports, each mailed once")
PY
echo "ok"
