#!/bin/bash
# Many games on one host: a folder of 20 games, one damaged, one locked by
# another process, and a folder that is not a game. `run --all` runs the
# other 18 (each resolves step 1: the join its players sent, or g12's
# automatic set-up), says what happened to the two and exits
# 66 (the damaged game's code: a hard failure outranks a held lock); with
# only the lock left it exits 75. `status --all` lists the 20 with what needs
# the GM (deadline passed, locked, cannot be read, mail waiting, dice chain
# low) and counts missed steps per player from the manifests.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"

make_players
export ESTAFETTE_COMMIT_TIME=1800000000   # 2027-01-15T08:00:00Z
T0=@1800000000
T2=@1800007200                           # two hours later
mkdir games
for i in $(seq -w 1 20); do
	# g01..g04: a one-hour deadline; the others wait for every order.
	hours=() proto=()
	[ "$((10#$i))" -le 4 ] && hours=(--deadline-hours 1)
	# g12 is a dice v1 game: its step 1 is the ruleset's automatic set-up (no
	# join), the one kind of step status --all reports as due.
	[ "$i" = 12 ] && proto=(--dice-protocol v1)
	"$ESTAFETTE" new "games/g$i" --ruleset napoleonic-empire --players players.json \
		"${hours[@]}" "${proto[@]}" >/dev/null
done
# Step 1 is the join: every game but g12 gets both players' files now
# (recorded, each with its receipt queued, not run), so that run --all below
# is what resolves step 1 of each.
join_files() {  # GAME
	local p f
	for p in france allies; do
		f=$WORK/join-$p.json
		"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$1" "$p" 1 '[]' > "$f"
		rm -f "$f.sig" && ssh-keygen -q -Y sign -f "$p" -n estafette-orders "$f"
		"$ESTAFETTE" submit "$1" "$f" --now "$T0" >/dev/null || fail "$1: $p's join was refused"
	done
}
for i in $(seq -w 1 20); do [ "$i" = 12 ] || join_files "games/g$i"; done
mkdir games/notes && echo "not a game" > games/notes/README
git init -q games/other-repo                          # a repository, but no game
mkdir games/.hidden

# g07 is damaged: main is gone (its step-0000 tag says it was a game).
rm -f games/g07/.git/refs/heads/main games/g07/.git/packed-refs
# hold_lock GAME: another process holds GAME's lock (flock, as estafette
# takes it) until `release`; one process, so killing it frees the lock.
holder=
hold_lock() {
	rm -f "$WORK/locked"
	"$PY" -c 'import fcntl, sys, time
f = open(sys.argv[1], "a"); fcntl.flock(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close(); time.sleep(60)' "$1/.git/estafette.lock" "$WORK/locked" &
	holder=$!
	for _ in $(seq 100); do [ -e "$WORK/locked" ] && return; sleep 0.05; done
	fail "could not lock $1"
}
release() { kill "$holder" 2>/dev/null || true; wait "$holder" 2>/dev/null || true; holder=; }
trap 'release; stop_smtpd; rm -rf "$WORK"' EXIT
# g13 is locked by another process for the length of the first run.
hold_lock games/g13

# --- status --all before any run: 20 games, g07 unreadable (exit 66), g13 locked.
expect_exit 66 "$ESTAFETTE" status --all games --now "$T0" --json
cp "$WORK/last.out" status0.json
[ "$(json_get 'len(d)' < status0.json)" = 20 ] || fail "status lists $(json_get 'len(d)' < status0.json) games, expected 20"
[ "$(json_get '",".join(g["game"] for g in d)' < status0.json)" = \
  "$(seq -f 'g%02g' -s , 1 20)" ] || fail "status lists the wrong games"
reasons() { json_get "\",\".join(sorted(r['reason'] for g in d if g['game']=='$2' for r in g['needs_gm']))" < "$1"; }
[ "$(reasons status0.json g07)" = unreadable ] || fail "g07: $(reasons status0.json g07)"
json_get '[g for g in d if g["game"]=="g07"][0]["message"]' < status0.json | grep -q "damaged" ||
	fail "g07's message does not say the repository is damaged"
# (a join with every file in is not "due": that reason is for an automatic step, as g12's)
[ "$(reasons status0.json g13)" = "locked,mail" ] || fail "g13: $(reasons status0.json g13)"
[ "$(reasons status0.json g01)" = mail ] || fail "g01 before the run: $(reasons status0.json g01)"
[ "$(json_get '[(g["step"], g["kind"], g["awaiting"]) for g in d if g["game"]=="g01"][0]' < status0.json)" = \
  "(1, 'join', [{'player': 'france', 'received': True}, {'player': 'allies', 'received': True}])" ] ||
	fail "g01 before the run: $(json_get '[g for g in d if g["game"]=="g01"][0]' < status0.json)"
[ "$(reasons status0.json g12)" = due ] || fail "g12 before the run: $(reasons status0.json g12)"

# --- run --all: 18 games resolve step 1; g07 fails, g13 is locked; exit 66.
expect_exit 66 "$ESTAFETTE" run --all games --now "$T0"
cp "$WORK/last.out" run1.out
[ "$(grep -c '^g[0-9]*: resolved step 1$' run1.out)" = 18 ] ||
	fail "run --all did not resolve step 1 of 18 games: $(cat run1.out)"
grep -q '^games/g13: locked, not run (locked, exit 75): .*holds' run1.out ||
	fail "the summary does not say g13 is locked: $(cat run1.out)"
grep -q '^games/g07: failed (not-found, exit 66): games/g07: the repository is damaged' run1.out ||
	fail "the summary does not say g07 is damaged: $(cat run1.out)"
grep -q '^20 games: 18 ran, 1 locked or failed temporarily, 1 failed$' run1.out ||
	fail "no totals line: $(cat run1.out)"
grep -q "notes\|other-repo\|hidden" run1.out && fail "run --all took a folder that is no game"
for i in $(seq -w 1 20); do
	case $i in 07 | 13) continue ;; esac
	git -C "games/g$i" rev-parse -q --verify step-0001 >/dev/null || fail "g$i has no step 1"
done
git -C games/g13 rev-parse -q --verify step-0001 >/dev/null && fail "the locked g13 was run"

# --json: one object per game; the two failures say what they are.
expect_exit 66 "$ESTAFETTE" run --all games --now "$T0" --json
[ "$(json_get 'len(d)' < "$WORK/last.out")" = 20 ] || fail "run --all --json: $(cat "$WORK/last.out")"
[ "$(json_get '[g["outcome"] for g in d if g.get("game")=="games/g13"][0]' < "$WORK/last.out")" = temporary ] ||
	fail "run --all --json: g13 is not a temporary failure"

# g05's dice chain is nearly used up: game.json says 50 values (a commit by
# hand; game.json is fixed at step-0000, so that tag moves with it: g05's
# history no longer audits, but status only reads it).
/usr/bin/python3 - games/g05/game.json <<'PY'
import json, sys
p = sys.argv[1]; d = json.load(open(p)); d["dice"]["chain_length"] = 50
open(p, "w").write(json.dumps(d, indent=2, sort_keys=True) + "\n")
PY
git -C games/g05 -c user.name=gm -c user.email=gm@example.org commit -qam "test: a short dice chain"
git -C games/g05 tag -f step-0000 main >/dev/null

# --- status --all two hours later, the lock still held.
expect_exit 66 "$ESTAFETTE" status --all games --now "$T2" --json
cp "$WORK/last.out" status1.json
[ "$(json_get 'len(d)' < status1.json)" = 20 ] || fail "status lists $(json_get 'len(d)' < status1.json) games"
for g in g01 g02 g03 g04; do
	[ "$(reasons status1.json $g)" = "deadline-passed,mail" ] || fail "$g: $(reasons status1.json $g)"
done
[ "$(reasons status1.json g05)" = "dice,mail" ] || fail "g05: $(reasons status1.json g05)"
[ "$(json_get '[g["dice_left"] for g in d if g["game"]=="g05"][0]' < status1.json)" = 48 ] ||
	fail "g05's dice_left"
[ "$(reasons status1.json g06)" = mail ] || fail "g06: $(reasons status1.json g06)"
[ "$(reasons status1.json g07)" = unreadable ] || fail "g07: $(reasons status1.json g07)"
[ "$(reasons status1.json g13)" = "locked,mail" ] || fail "g13: $(reasons status1.json g13)"
g01() { json_get "[g for g in d if g['game']=='g01'][0]$1" < status1.json; }
[ "$(g01 '["step"]')" = 2 ] || fail "g01's next step is $(g01 '["step"]')"
[ "$(g01 '["awaiting"]')" = "[{'player': 'france', 'received': False}]" ] || fail "g01 awaits $(g01 '["awaiting"]')"
[ "$(g01 '["deadline"]')" = "2027-01-15T09:00:00Z" ] || fail "g01's deadline $(g01 '["deadline"]')"
[ "$(g01 '["missed"]')" = "{'allies': 0, 'france': 0}" ] || fail "g01 missed $(g01 '["missed"]')"

# The table: one line per game, with the reasons in words.
expect_exit 66 "$ESTAFETTE" status --all games --now "$T2"
cp "$WORK/last.out" table.out
[ "$(grep -c '^g[0-9][0-9] ' table.out)" = 20 ] || fail "the table has not 20 games: $(cat table.out)"
grep -q '^g01 .*2 .*france .*2027-01-15T09:00:00Z passed .*deadline passed: run it; mail waiting' table.out ||
	fail "g01's line: $(grep '^g01' table.out)"
grep -q '^g07 .*cannot be read: games/g07: the repository is damaged' table.out || fail "g07's line: $(grep '^g07' table.out)"
grep -q '^g13 .*locked' table.out || fail "g13's line: $(grep '^g13' table.out)"
grep -q '^g05 .*dice chain low (48 left)' table.out || fail "g05's line: $(grep '^g05' table.out)"

# --- missed steps: the lock released, run --all two hours later resolves
# step 2 of g01..g04 with France missing, and g13's step 1. Only the
# damaged g07 is left: exit 66.
release
expect_exit 66 "$ESTAFETTE" run --all games --now "$T2"
grep -q '^g01: resolved step 2$' "$WORK/last.out" || fail "g01 step 2: $(cat "$WORK/last.out")"
grep -q '^g13: resolved step 1$' "$WORK/last.out" || fail "g13 step 1: $(cat "$WORK/last.out")"
grep -q '^g06: nothing due$' "$WORK/last.out" || fail "g06: $(cat "$WORK/last.out")"
[ "$(git -C games/g01 show main:turns/0002/manifest.json | json_get 'd["missing"][0]["player"]')" = france ] ||
	fail "g01's step 2 manifest does not list france as missing"
expect_exit 66 "$ESTAFETTE" status --all games --now "$T2" --json
cp "$WORK/last.out" status2.json
for g in g01 g02 g03 g04; do
	[ "$(json_get "[g['missed'] for g in d if g['game']=='$g'][0]" < status2.json)" = "{'allies': 0, 'france': 1}" ] ||
		fail "$g's missed steps: $(json_get "[g['missed'] for g in d if g['game']=='$g'][0]" < status2.json)"
done
[ "$(json_get "[g['missed'] for g in d if g['game']=='g06'][0]" < status2.json)" = "{'allies': 0, 'france': 0}" ] ||
	fail "g06's missed steps"
[ "$(reasons status2.json g13)" = mail ] || fail "g13 after its run: $(reasons status2.json g13)"
expect_exit 66 "$ESTAFETTE" status --all games --now "$T2"
grep -q '^g01 .* france 1 ' "$WORK/last.out" || fail "the table's missed steps: $(grep '^g01' "$WORK/last.out")"

# --- only temporary failures: exit 75. Without the damaged game, lock g09.
mv games/g07 g07-damaged
hold_lock games/g09
expect_exit 75 "$ESTAFETTE" run --all games --now "$T2"
grep -q '^games/g09: locked, not run' "$WORK/last.out" || fail "g09 locked: $(cat "$WORK/last.out")"
grep -q '^19 games: 18 ran, 1 locked or failed temporarily, 0 failed$' "$WORK/last.out" ||
	fail "totals: $(cat "$WORK/last.out")"
# status --all reads every game: exit 0, g09 locked.
expect_exit 0 "$ESTAFETTE" status --all games --now "$T2" --json
[ "$(reasons "$WORK/last.out" g09)" = "locked,mail" ] || fail "g09: $(reasons "$WORK/last.out" g09)"
release
expect_exit 0 "$ESTAFETTE" run --all games --now "$T2"

# A damaged object (not a lost ref) is a game that cannot be read too: the
# compressed data of game.json's blob overwritten in its pack (estafette
# writes packs, store.h). (Overwritten, not cut short: libgit2 1.5 loops
# forever on an object whose zlib stream is truncated.)
obj=$(git -C games/g20 rev-parse main:game.json)
for idx in games/g20/.git/objects/pack/*.idx; do
	# verify-pack -v: "id type size size-in-pack offset [depth base]"
	off=$(git verify-pack -v "$idx" | awk -v o="$obj" '$1 == o {print $5}')
	[ -n "$off" ] && break
done
[ -n "$off" ] || fail "g20: game.json's blob is in no pack"
f=${idx%.idx}.pack
# The object's header is 2 bytes (type and a size under 2 KiB); its zlib data follows.
chmod u+w "$f" && printf 'this is not a git object' |
	dd of="$f" bs=1 seek=$((off + 2)) conv=notrunc status=none
expect_exit 70 "$ESTAFETTE" status --all games --now "$T2" --json
json_get '[g["message"] for g in d if g["game"]=="g20"][0]' < "$WORK/last.out" | grep -Eq "g20: game.json: (incorrect header check|failed to inflate)" ||
	fail "g20's message: $(cat "$WORK/last.out")"
[ "$(reasons "$WORK/last.out" g20)" = unreadable ] || fail "g20 truncated: $(reasons "$WORK/last.out" g20)"
[ "$(json_get 'len(d)' < "$WORK/last.out")" = 19 ] || fail "status after g20 damaged"
# Every object lost, the refs kept (step-0000 names a tag object that is
# gone): still a game that cannot be read, never a folder passed over.
find games/g19/.git/objects -type f -delete
expect_exit 66 "$ESTAFETTE" status --all games --now "$T2" --json   # g19's 66, first of the two
[ "$(json_get 'len(d)' < "$WORK/last.out")" = 19 ] || fail "status leaves g19 out once its objects are lost"
[ "$(reasons "$WORK/last.out" g19)" = unreadable ] || fail "g19, its objects lost: $(reasons "$WORK/last.out" g19)"
expect_exit 66 "$ESTAFETTE" run --all games --now "$T2"
grep -q '^games/g19: failed' "$WORK/last.out" || fail "run --all says nothing of g19: $(cat "$WORK/last.out")"

# An empty folder, and one that does not exist.
mkdir empty
expect_exit 0 "$ESTAFETTE" status --all empty
grep -q "no games in empty" "$WORK/last.out" || fail "empty folder: $(cat "$WORK/last.out")"
expect_exit 66 "$ESTAFETTE" status --all nowhere
expect_exit 66 "$ESTAFETTE" run --all nowhere
expect_exit 64 "$ESTAFETTE" status --all games g01

# Copies of a game beside it (d2 a copied folder, d3 a clone): they would
# resolve with d1's dice secrets and mail as d1, which share its id. Only
# the first folder of that id runs; the others fail with 78, naming it.
mkdir dups
"$ESTAFETTE" new dups/d1 --ruleset napoleonic-empire --players players.json --deadline-hours 1 >/dev/null
join_files dups/d1
expect_exit 0 "$ESTAFETTE" run --all dups --now "$T0" --no-mail
cp -a dups/d1 dups/d2
git clone -q dups/d1 dups/d3
d3=$(git -C dups/d3 rev-parse main)
expect_exit 78 "$ESTAFETTE" run --all dups --now "$T2" --no-mail
grep -q '^d1: resolved step 2$' "$WORK/last.out" || fail "d1 did not run: $(cat "$WORK/last.out")"
for g in d2 d3; do
	grep -q "^dups/$g: failed (config, exit 78): dups/$g: holds game d1, as dups/d1 does" "$WORK/last.out" ||
		fail "the copy $g: $(cat "$WORK/last.out")"
done
grep -q '^3 games: 1 ran, 0 locked or failed temporarily, 2 failed$' "$WORK/last.out" ||
	fail "the copies' totals: $(tail -1 "$WORK/last.out")"
[ "$(git -C dups/d3 rev-parse main)" = "$d3" ] || fail "the clone d3 was run"
[ "$(git -C dups/d2 tag | wc -l)" = 2 ] || fail "the copy d2 was run: $(git -C dups/d2 tag)"
# Games whose rules/ differ, resolved by one run --all (which shares parsed
# rules between games of the same rules/ tree) and each by a run of its own:
# the same commits. Four with the ruleset's own rules/, m3 with a GM's map
# that names France otherwise and routes the sea lane to the Rhineland by
# another waypoint, both of which every step's map.svg shows (the lanes are
# drawn once for each rules, view.c).
mkdir mixed rules-b
data=$TOP/internal/rulesets/napoleonic-empire/data
"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1])); d["countries"][0]["full_name"] = "La Grande Nation"
json.dump(d, open(sys.argv[2], "w"), indent=1)
g = json.load(open(sys.argv[3])); g["sea_routes"]["Rhineland"] = [[391, 115]]
json.dump(g, open(sys.argv[4], "w"), indent=1)' \
	"$data/map.json" rules-b/map.json "$data/geometry.json" rules-b/geometry.json
for g in m1 m2 m4 m5; do
	"$ESTAFETTE" new "mixed/$g" --ruleset napoleonic-empire --players players.json --deadline-hours 1 >/dev/null
done
"$ESTAFETTE" new mixed/m3 --ruleset napoleonic-empire --players players.json --deadline-hours 1 \
	--rules rules-b >/dev/null
# (both players' join files in each, so the runs below resolve step 1)
for g in m1 m2 m3 m4 m5; do join_files "mixed/$g"; done
cp -a mixed alone && cp -a "$ESTAFETTE_HOME" home-alone
expect_exit 0 "$ESTAFETTE" run --all mixed --now "$T2"
for g in m1 m2 m3 m4 m5; do
	ESTAFETTE_HOME=$WORK/home-alone expect_exit 0 "$ESTAFETTE" run "alone/$g" --now "$T2"
	[ "$(git -C "mixed/$g" rev-parse main)" = "$(git -C "alone/$g" rev-parse main)" ] ||
		fail "$g: run --all made $(git -C "mixed/$g" rev-parse main), a run of its own $(git -C "alone/$g" rev-parse main)"
done
for want in "La Grande Nation" "Q391 115"; do
	git -C mixed/m3 show main:turns/0001/map.svg | grep -q "$want" ||
		fail "m3's map does not show its own rules ($want)"
	git -C mixed/m4 show main:turns/0001/map.svg | grep -q "$want" &&
		fail "m4's map shows m3's rules ($want)"
done

echo "many_games: 20 games, one damaged and one locked, run and listed"
