#!/bin/bash
# GM acts (extend, pause, resume) with a fake clock: each
# a gm/1 file signed with the GM's key, committed, told to all in the
# step's report, kept under turns/NNNN/gm/ and checked by audit.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
make_players
"$ESTAFETTE" keygen gm -C gm@example.org >/dev/null
T0=$(date -u -d 2026-01-05T10:00:00Z +%s)
H=3600
iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ; }
deadline() { "$ESTAFETTE" status game --now "@$1" --json | json_get 'd["deadline"]'; }

"$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json --gm-signing-key gm \
	--deadline-hours 24 >/dev/null
# The join (step 1), on the fake clock: lib.sh's join would run at the real time.
order() {  # player key > file
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$1" 1 '[]' > "$2.json"
	rm -f "$2.json.sig" && ssh-keygen -q -Y sign -f "$2" -n estafette-orders "$2.json"
}
for p in france allies; do
	order $p $p
	"$ESTAFETTE" submit game $p.json --now "@$T0" >/dev/null || fail "$p's join was refused"
done
"$ESTAFETTE" run game --now "@$T0" | grep -q "resolved step 1" || fail "the join did not resolve step 1"
[ "$(deadline "$T0")" = "$(iso $((T0 + 24 * H)))" ] || fail "deadline $(deadline "$T0")"

"$ESTAFETTE" gm game extend --hours 12 --reason "France's player is travelling" --now "@$((T0 + H))" |
	grep -q "deadline now $(iso $((T0 + 36 * H)))" || fail "extend did not move the deadline"
[ "$(deadline "$T0")" = "$(iso $((T0 + 36 * H)))" ] || fail "status: $(deadline "$T0")"
"$ESTAFETTE" run game --now "@$((T0 + 30 * H))" | grep -q "nothing due" || fail "resolved before the extended deadline"

"$ESTAFETTE" gm game pause --reason "a rules question" --now "@$((T0 + 31 * H))" >/dev/null
"$ESTAFETTE" status game --now "@$((T0 + 40 * H))" --json | json_get 'd["paused"]' | grep -qx True || fail "not paused"
"$ESTAFETTE" run game --now "@$((T0 + 40 * H))" | grep -q "nothing due" || fail "a paused game resolved"
expect_exit 64 "$ESTAFETTE" gm game pause --reason "again" --now "@$((T0 + 41 * H))"
"$ESTAFETTE" gm game resume --reason "answered" --now "@$((T0 + 41 * H))" >/dev/null
# Paused 10 hours: the deadline moved from +36 h to +46 h.
[ "$(deadline "$T0")" = "$(iso $((T0 + 46 * H)))" ] || fail "resume: $(deadline "$T0")"
expect_exit 64 "$ESTAFETTE" gm game resume --reason "again" --now "@$((T0 + 42 * H))"
expect_exit 64 "$ESTAFETTE" gm game extend --reason "no hours" --now "@$((T0 + 42 * H))"
expect_exit 64 "$ESTAFETTE" gm game extend --hours 5 --reason "$(printf 'two\nlines')" --now "@$((T0 + 42 * H))"
"$ESTAFETTE" run game --now "@$((T0 + 45 * H))" | grep -q "nothing due" || fail "resolved before the moved deadline"
"$ESTAFETTE" run game --now "@$((T0 + 47 * H))" | grep -q "resolved step 2" || fail "not resolved at the moved deadline"

# The acts are the step's, told to all, and gone from gm/.
[ "$(ls game/turns/0002/gm | wc -l)" = 6 ] || fail "turns/0002/gm: $(ls game/turns/0002/gm)"
[ ! -e game/gm ] || fail "gm/ left at main"
for text in "The GM extended the deadline by 12 hours: France's player is travelling" \
	"The GM paused the game: a rules question" "The GM resumed the game: answered"; do
	grep -qF "$text" game/turns/0002/report.txt || fail "the report does not say: $text"
done
git -C game -c gpg.format=ssh -c gpg.ssh.allowedSignersFile="$WORK/game/keys/allowed_signers" \
	verify-commit main 2>&1 | grep -q 'Good "git" signature for gm' || fail "the step is not signed"
"$ESTAFETTE" audit game >/dev/null || fail "audit"

# Only the GM's key makes acts.
git -C game config estafette.signingkey "$WORK/france"
out=$("$ESTAFETTE" gm game extend --hours 1 --reason "forged" --now "@$((T0 + 47 * H))" 2>&1) && fail "a player's key made an act"
grep -q "not the key of principal gm" <<<"$out" || fail "$out"
git -C game config --unset estafette.signingkey
expect_exit 78 "$ESTAFETTE" gm game pause --reason "no key" --now "@$((T0 + 48 * H))"
git -C game config estafette.signingkey "$WORK/gm"

# --- Replace: a new player takes the Allies' seat; the old key is refused from then on ---
ssh-keygen -q -t ed25519 -N '' -C newallies -f newallies
R=$((T0 + 47 * H))
# Bert's orders, recorded before he leaves: the replacement revokes them, and
# the audit must not count them as accepted orders the step dropped.
order allies allies
"$ESTAFETTE" submit game allies.json --now "@$R" >/dev/null || fail "Bert's orders before the replacement"
"$ESTAFETTE" gm game replace --player allies --name "New Allied player" --email new@example.org \
	--key newallies.pub --reason "Bert left the game" --now "@$R" >/dev/null
grep -q "$(cut -d' ' -f2 newallies.pub)" game/keys/allowed_signers || fail "the new key is not in keys/"
grep -q "$(cut -d' ' -f2 allies.pub)" game/keys/allowed_signers && fail "the old key was not revoked"
json_get '[p["email"] for p in d["players"] if p["id"] == "allies"][0]' < game/game.json | grep -qx new@example.org ||
	fail "game.json does not have the new address"
order allies allies
out=$("$ESTAFETTE" submit game allies.json --now "@$R" 2>&1) && fail "the old key's orders were taken"
grep -q "is not listed for principal \"allies\"" <<<"$out" || fail "$out"
# (seq 2: Bert's file, though revoked, holds seq 1 of the seat)
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game allies 2 '[]' > newallies.json
rm -f newallies.json.sig && ssh-keygen -q -Y sign -f newallies -n estafette-orders newallies.json
"$ESTAFETTE" submit game newallies.json --now "@$R" >/dev/null || fail "the new key's orders were refused"
expect_exit 64 "$ESTAFETTE" gm game replace --player nobody --name X --email x@example.org --key newallies.pub \
	--reason "no such seat" --now "@$R"
out=$("$ESTAFETTE" gm game replace --player allies --name X --email x@example.org --key france.pub \
	--reason "a key already taken" --now "@$R" 2>&1) && fail "a replacement with France's key"
grep -q "same key" <<<"$out" || fail "$out"
# A hand edit of the keys is refused, even after a replacement.
cp game/keys/allowed_signers keys.bak
echo "allies namespaces=\"estafette-orders\" $(cut -d' ' -f1,2 allies.pub)" >> game/keys/allowed_signers
git -C game -c user.name=x -c user.email=x@example.org commit -qam "a key slipped in"
expect_exit 78 "$ESTAFETTE" status game
# The audit names the commit: not the GM's, in a game whose history the GM signs.
expect_exit 65 "$ESTAFETTE" audit game
grep -q 'commit [0-9a-f]* "a key slipped in" (signatures)' "$WORK/last.err" || fail "audit: $(cat "$WORK/last.err")"
git -C game reset -q --hard HEAD~1
"$ESTAFETTE" run game --now "@$R" | grep -q "resolved step 3" || fail "the new player's orders did not resolve step 3"
grep -qF 'The GM gave the seat of "allies" to New Allied player <new@example.org>' game/turns/0003/report.txt ||
	fail "the report does not tell the replacement"
"$ESTAFETTE" audit game >/dev/null || fail "audit after a replacement"

# --- Acts that are steps of their own: adjust, rollback, end ---
T1=$((T0 + 48 * H))
austria() { "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["state"]["countries"]["Austria"]["Allies"])' "$1"; }
before=$(austria game/state.json)
# A JSON pointer (RFC 6901) reaches an array's element too: the state's first list, its element 0.
list=$("$PY" -c 'import json,sys; s=json.load(open(sys.argv[1]))["state"]; print(next(k for k, v in sorted(s.items()) if isinstance(v, list) and v and "/" not in k and "~" not in k))' game/state.json)
"$ESTAFETTE" gm game adjust --set /countries/Austria/Allies=$((before + 3)) --set "/$list/0=\"lost\"" \
	--reason "a counter was lost" --now "@$T1" | grep -q "adjust made step 4" || fail "adjust did not make step 4"
[ "$(austria game/state.json)" = $((before + 3)) ] || fail "adjust did not set the field"
"$PY" -c 'import json,sys; assert json.load(open(sys.argv[1]))["state"][sys.argv[2]][0] == "lost"' game/state.json "$list" ||
	fail "adjust did not set /$list/0"
for bad in "/$list/99" "/$list/01" "/$list/-1" "/$list/x"; do
	out=$("$ESTAFETTE" gm game adjust --set "$bad=1" --reason "no such element" --now "@$T1" 2>&1) &&
		fail "adjust set $bad"
	grep -qF "$bad is not in the state" <<<"$out" || fail "$out"
done
grep -qF "The GM set /countries/Austria/Allies to $((before + 3)): a counter was lost" game/turns/0004/report.txt ||
	fail "the report does not tell the adjustment"
out=$("$ESTAFETTE" gm game adjust --set /countries/Atlantis/Allies=3 --reason "typo" --now "@$T1" 2>&1) &&
	fail "an adjustment of a field the state lacks was made"
grep -q "/countries/Atlantis/Allies is not in the state" <<<"$out" || fail "$out"
expect_exit 64 "$ESTAFETTE" gm game adjust --set countries=3 --reason "no pointer" --now "@$T1"
"$ESTAFETTE" gm game rollback --to 3 --reason "the adjustment was wrong" --now "@$T1" | grep -q "made step 5" ||
	fail "rollback did not make step 5"
cmp <(git -C game show step-0003:state.json | "$PY" -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["state"], sort_keys=True))') \
	<("$PY" -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["state"], sort_keys=True))' game/state.json) ||
	fail "the rolled-back state is not step 3's"
expect_exit 64 "$ESTAFETTE" gm game rollback --to 9 --reason "the future" --now "@$T1"
# With orders recorded for the open step, adjust and rollback would set them
# aside and have the step roll again on new files: refused unless --force.
p=$("$ESTAFETTE" status game --now "@$T1" --json | json_get 'd["awaiting"][0]["player"]')
key=$p && [ "$p" != allies ] || key=newallies   # the seat's key since the replacement
order "$p" "$key"
expect_exit 0 "$ESTAFETTE" submit game "$key.json" --now "@$T1"
expect_exit 64 "$ESTAFETTE" gm game rollback --to 3 --reason "again" --now "@$T1"
grep -q "orders for step 6 are recorded ($p); this act would set them aside" "$WORK/last.err" ||
	fail "rollback over recorded orders: $(cat "$WORK/last.err")"
expect_exit 64 "$ESTAFETTE" gm game adjust --set /countries/Austria/Allies=1 --reason "again" --now "@$T1"
expect_exit 0 "$ESTAFETTE" gm game adjust --set /countries/Austria/Allies=$((before + 1)) --reason "a counter found" \
	--now "@$T1" --force
grep -q "made step 6" "$WORK/last.out" || fail "adjust --force: $(cat "$WORK/last.out")"
grep -qF "The GM's act set aside orders/$p.json" game/turns/0006/report.txt ||
	fail "the report does not tell $p to send again: $(cat game/turns/0006/report.txt)"
"$ESTAFETTE" gm game end --result concession --winner Allies --reason "France resigned" --now "@$T1" >/dev/null
"$ESTAFETTE" status game --now "@$T1" --json | json_get 'd["over"]' | grep -qx True || fail "the game is not over"
grep -qF "The GM ended the game: Allies wins (concession): France resigned" game/turns/0007/report.txt ||
	fail "the report does not tell the end"
expect_exit 64 "$ESTAFETTE" gm game extend --hours 1 --reason "too late" --now "@$T1"
"$ESTAFETTE" run game --now "@$T1" | grep -q "the game is over" || fail "run does not say the game is over"
"$ESTAFETTE" audit game --json > audit.json || fail "audit after the GM steps: $(cat audit.json)"
[ "$(json_get 'd["checked"]["steps"]' < audit.json)" = 7 ] || fail "$(cat audit.json)"

# A forged act in the history is caught by name.
git clone -q --no-local game forged
sed -i 's/a rules question/the GM slept/' forged/turns/0002/gm/0002-02.json
git -C forged -c user.name=x -c user.email=x@example.org commit -qam forged
"$ESTAFETTE" audit forged --json > forged.json && fail "audit missed an edited GM act"
# Not the GM's commit: the signed history names it first.
[ "$(json_get 'd["failure"]["check"], d["failure"]["file"]' < forged.json)" = \
  "signatures commit $(git -C forged rev-parse --short=7 HEAD) \"forged\"" ] || fail "$(cat forged.json)"
# The GM's own commit of the edit: the act's signature names the file.
git -C forged -c user.name=x -c user.email=x@example.org -c gpg.format=ssh -c user.signingkey="$WORK/gm" \
	commit -q --amend -S --no-edit
"$ESTAFETTE" audit forged --json > forged.json && fail "audit missed an edited GM act"
[ "$(json_get 'd["failure"]["file"]' < forged.json)" = turns/0002/gm/0002-02.json ] || fail "$(cat forged.json)"
git -C game fsck --strict --no-progress || fail "git fsck"

# A seat given to someone else after its player's orders were recorded: the
# new player sends nothing, and at the deadline the step gives the seat the
# default orders. The old file held when it was recorded, but the replacement
# revoked its key, so the audit does not count it as an accepted order dropped.
S0=$((T0 + 100 * H))
"$ESTAFETTE" new seat --ruleset napoleonic-empire --players players.json --deadline-hours 1 >/dev/null
seat_order() {  # player key seq
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" seat "$1" "$3" '[]' > "seat-$2.json"
	rm -f "seat-$2.json.sig" && ssh-keygen -q -Y sign -f "$2" -n estafette-orders "seat-$2.json"
	"$ESTAFETTE" submit seat "seat-$2.json" --now "@$S0" >/dev/null || fail "seat: $1's file was refused"
}
seat_order france france 1 && seat_order allies allies 1
"$ESTAFETTE" run seat --now "@$S0" | grep -q "resolved step 1" || fail "seat: the join"
seat_order france france 1
"$ESTAFETTE" gm seat replace --player france --name "Claire" --email claire@example.org --key newallies.pub \
	--reason "Anne left" --now "@$((S0 + 60))" >/dev/null
"$ESTAFETTE" run seat --now "@$((S0 + 2 * H))" | grep -q "resolved step 2" || fail "seat: the step at its deadline"
[ "$(json_get '[m["player"] for m in d["missing"]]' < seat/turns/0002/manifest.json)" = "['france']" ] ||
	fail "seat: $(cat seat/turns/0002/manifest.json)"
expect_exit 0 "$ESTAFETTE" audit seat
# Anne's signed receipt for the file the replacement revoked is no failure either.
save_receipts "$ESTAFETTE_HOME/outbox/seat/pending" seatrc
[ -s seatrc/receipt-0002-france-1.json ] || fail "seat: no receipt for Anne's step-2 file: $(ls seatrc)"
expect_exit 0 "$ESTAFETTE" audit seat --receipts seatrc
echo "gm_acts: extend, pause, resume, replace, adjust, rollback and end signed, told, kept and audited"
