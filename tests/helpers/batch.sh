# A folder of Napoleonic Empire games for the tests of `run --all` under
# kills and races (batch_fault_points.sh, batch_concurrency.sh): the games,
# the scenario's orders, and the comparison of a scenario's outcome with an
# uninterrupted run's. Source it after tests/lib.sh, with WORK, a running
# loopback SMTP server (start_smtpd "$WORK/smtp") and players in
# $WORK/orders (make_players there).
T0=1800000000
export ESTAFETTE_COMMIT_TIME=$T0

# batch_template DIR GAME...: DIR/games/GAME for each GAME, with a one-hour
# deadline, fixed test dice, mail to the SMTP server and both players'
# signed joins in; DIR/home is its $ESTAFETTE_HOME (exported).
batch_template() {
	local dir=$1 g p f; shift
	export ESTAFETTE_HOME=$dir/home
	mkdir -p "$dir/games"
	for g in "$@"; do
		"$ESTAFETTE" new "$dir/games/$g" --ruleset napoleonic-empire --players "$WORK/orders/players.json" \
			--deadline-hours 1 --test-dice-secret "batch-$g" >/dev/null
		git -C "$dir/games/$g" config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
		git -C "$dir/games/$g" config estafette.sender "GM <gm@example.org>"
		for p in france allies; do
			f=$WORK/orders/join-$g-$p.json
			"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$dir/games/$g" "$p" 1 '[]' > "$f"
			ssh-keygen -q -Y sign -f "$WORK/orders/$p" -n estafette-orders "$f"
			"$ESTAFETTE" submit "$dir/games/$g" "$f" --now "@$T0" >/dev/null ||
				fail "the join: $g $p's file was refused"
		done
	done
}

# batch_orders GAME: the signed orders of every player GAME's step 2
# awaits (in games/, from the current folder), submitted at T0+30, and
# again while the game's lock is held (exit 75), as a player would. Each
# file is made once, in the first scenario to get there (every scenario
# reaches the same state), with the discards the hand limit asks for.
batch_orders() {
	local g=$1 p f items try st
	for p in $("$ESTAFETTE" status "games/$g" --json | json_get '" ".join(a["player"] for a in d["awaiting"])'); do
		f=$WORK/orders/s2-$g-$p.json
		if [ ! -e "$f" ]; then
			items=$("$ESTAFETTE" report "games/$g" --player "$p" --format json | "$PY" -c '
import json, sys
hand = [c["id"] for c in json.load(sys.stdin)["view"]["hand"]]
print(json.dumps([{"type": "discard", "card": c} for c in hand[:max(0, len(hand) - 7)]]))')
			"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "games/$g" "$p" 1 "$items" > "$f.new"
			ssh-keygen -q -Y sign -f "$WORK/orders/$p" -n estafette-orders "$f.new" < /dev/null
			mv "$f.new.sig" "$f.sig" && mv "$f.new" "$f"
		fi
		for try in 1 2 3 4 5 6 7 8 9 10; do
			st=0
			"$ESTAFETTE" submit "games/$g" "$f" --now "@$((T0 + 30))" >>log.out 2>>log.err || st=$?
			[ "$st" -eq 75 ] || break
			sleep 0.3
		done
		[ "$st" -eq 0 ] || fail "$g: $p's orders for step 2: submit exited $st: $(tail -2 log.err)"
	done
}

# batch_record GAME...: what each game ended with, in files of the current folder.
batch_record() {
	local g
	for g in "$@"; do
		git -C "games/$g" for-each-ref --format='%(refname) %(objectname)' > "refs-$g.txt"
		git -C "games/$g" log --format='%H %T %s' main > "log-$g.txt"
		ls "home/outbox/$g/sent" > "sent-$g.txt"
		ls "home/outbox/$g/pending" > "pending-$g.txt"
	done
}

# batch_verify DIR REF KILLS WHAT GAME...: each game of DIR against REF's
# (both recorded by batch_record): git fsck --strict clean; the same refs
# and history; one tag a step; the work tree checked out; the same hidden
# records, clock.json and sent mail, none pending; at the SMTP server every
# message of REF's once, under one Message-ID (KILLS: the kills between a
# server's acceptance and the sent mark, each of which may send one twice).
batch_verify() {
	local d=$1 r=$2 k=$3 what=$4 g n; shift 4
	for g in "$@"; do
		git -C "$d/games/$g" fsck --strict --no-progress --no-dangling >"$d/fsck.out" 2>&1 ||
			fail "$what: $g: git fsck --strict: $(cat "$d/fsck.out")"
		cmp -s "$d/refs-$g.txt" "$r/refs-$g.txt" ||
			fail "$what: $g: refs differ from the uninterrupted run: $(diff "$r/refs-$g.txt" "$d/refs-$g.txt")"
		cmp -s "$d/log-$g.txt" "$r/log-$g.txt" ||
			fail "$what: $g: the history differs: $(diff "$r/log-$g.txt" "$d/log-$g.txt")"
		n=$(git -C "$d/games/$g" ls-tree --name-only main turns/ | wc -l)
		[ "$(git -C "$d/games/$g" tag | wc -l)" -eq $((n + 1)) ] ||
			fail "$what: $g: $(git -C "$d/games/$g" tag | wc -l) tags for steps 0 to $n"
		[ -z "$(git -C "$d/games/$g" status --porcelain)" ] ||
			fail "$what: $g: the work tree lags: $(git -C "$d/games/$g" status --porcelain | head -3)"
		diff -r "$r/home/games/$g/hidden" "$d/home/games/$g/hidden" >/dev/null ||
			fail "$what: $g: the hidden records differ"
		cmp -s "$r/home/games/$g/clock.json" "$d/home/games/$g/clock.json" ||
			fail "$what: $g: clock.json differs"
		cmp -s "$r/sent-$g.txt" "$d/sent-$g.txt" ||
			fail "$what: $g: outbox sent/ differs: $(diff "$r/sent-$g.txt" "$d/sent-$g.txt")"
		[ ! -s "$d/pending-$g.txt" ] || fail "$what: $g: left pending: $(cat "$d/pending-$g.txt")"
	done
	"$PY" "$TOP/tests/helpers/mail_once.py" "$r/mail" "$d/mail" "$k" ||
		fail "$what: mail at the SMTP server"
}
