#!/bin/bash
# Signed receipts and `audit --receipts` (docs/protocol.md "Signed receipts"):
# a new game gets a GM key of its own and signs its whole history; every
# accepted order file gets a receipt/1 the GM's key signs in namespace
# estafette-receipt, printed by submit and mailed as attachments, which the
# real `ssh-keygen -Y verify -I gm -n estafette-receipt` accepts. A GM who
# drops an accepted order from the history itself (main reset past the commit
# that recorded it, everything after signed again with his own key) passes the
# audit of the history alone; the player's receipts catch it, and a forged,
# foreign or player-signed receipt is no evidence.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"

make_players
expect_exit 0 "$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json --id ne-rc
grep -q "the game's GM key, made for it: $ESTAFETTE_HOME/gm/ne-rc" "$WORK/last.out" ||
	fail "new made no GM key: $(cat "$WORK/last.out")"
[ "$(stat -c %a "$ESTAFETTE_HOME/gm/ne-rc")" = 600 ] || fail "the GM key is not mode 600"
[ "$(json_get 'd["signed_history"]' < game/game.json)" = True ] || fail "the game's history is not signed"
grep -q '^gm namespaces="estafette-gm,estafette-receipt,git" ' game/keys/allowed_signers ||
	fail "allowed_signers: $(cat game/keys/allowed_signers)"
[ "$(git -C game config estafette.signingkey)" = "$ESTAFETTE_HOME/gm/ne-rc" ] || fail "estafette.signingkey"
join game france allies
outbox=$ESTAFETTE_HOME/outbox/ne-rc/pending

# France's seq 1 then seq 2 for step 2: each printed and mailed with its receipt.
order() { "$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$@"; }
order france 1 '[]' > s1.json
order france 2 '[{"type": "move", "from": "France", "to": "Rhineland", "armies": 4}]' > s2.json
for f in s1 s2; do
	ssh-keygen -q -Y sign -f france -n estafette-orders $f.json
	expect_exit 0 "$ESTAFETTE" submit game $f.json
	grep -q '"estafette": "receipt/1"' "$WORK/last.out" || fail "submit printed no receipt: $(cat "$WORK/last.out")"
done
save_receipts "$outbox" mine
for r in receipt-0001-france-1 receipt-0001-allies-1 receipt-0002-france-1 receipt-0002-france-2; do
	[ -s mine/$r.json ] && [ -s mine/$r.json.sig ] || fail "no receipt $r attached: $(ls mine)"
	ssh-keygen -Y verify -f game/keys/allowed_signers -I gm -n estafette-receipt -s mine/$r.json.sig \
		< mine/$r.json >/dev/null || fail "ssh-keygen does not accept $r"
done
[ "$(json_get 'd["sha256"]' < mine/receipt-0002-france-2.json)" = "$(sha256sum s2.json | cut -c1-64)" ] ||
	fail "the receipt names another file: $(cat mine/receipt-0002-france-2.json)"
[ "$(json_get 'd["recorded"]' < mine/receipt-0002-france-2.json)" = "$(git -C game rev-parse main)" ] ||
	fail "the receipt names another commit"

# The honest game: the step resolves seq 2, and every receipt holds.
cp -a game cheat && cp -a home cheathome && cp -a game kept && cp -a home kepthome
expect_exit 0 "$ESTAFETTE" run game
expect_exit 0 "$ESTAFETTE" audit game --receipts mine
grep -q ", 4 receipts" "$WORK/last.out" || fail "audit --receipts: $(cat "$WORK/last.out")"
expect_exit 0 "$ESTAFETTE" audit game --receipts mine --json
[ "$(json_get 'd["checked"]["receipts"]' < "$WORK/last.out")" = 4 ] || fail "--json: $(cat "$WORK/last.out")"

# The cheat: main reset to before the commit that recorded seq 2, and the step
# resolved from seq 1, all signed with the GM's own key. The history alone
# holds together, so the audit without receipts passes.
export ESTAFETTE_HOME=$WORK/cheathome
git -C cheat reset -q --hard HEAD~1
expect_exit 0 "$ESTAFETTE" run cheat
[ "$(git -C cheat show main:turns/0002/manifest.json | json_get 'd["orders"][0]["seq"]')" = 1 ] ||
	fail "the cheat did not resolve seq 1"
expect_exit 0 "$ESTAFETTE" audit cheat
expect_exit 65 "$ESTAFETTE" audit cheat --receipts mine
grep -q "receipt-0002-france-2.json: commit .*, which recorded player \"france\"'s seq 2 for step 2, is not on main's history" \
	"$WORK/last.err" || fail "the dropped order: $(cat "$WORK/last.out" "$WORK/last.err")"

# The same seq put back, the recording commit kept: the audit of the history
# alone already names it (audit_tamper.sh and dice_v2.sh), and so do the receipts.
export ESTAFETTE_HOME=$WORK/kepthome
cp s1.json kept/orders/france.json && cp s1.json.sig kept/orders/france.json.sig
gm_git kept commit -qam "orders: france for step 2 (seq 1)"
expect_exit 0 "$ESTAFETTE" run kept
for receipts in "" "--receipts mine"; do
	expect_exit 65 "$ESTAFETTE" audit kept $receipts
	grep -q "seq 2, .*resolved seq 1" "$WORK/last.err" || fail "the older seq: $(cat "$WORK/last.err")"
done
export ESTAFETTE_HOME=$WORK/home

# An order taken out of the open step after its receipt.
p=$("$ESTAFETTE" status game --json | json_get 'd["awaiting"][0]["player"]')
t=$("$ESTAFETTE" status game --json | json_get 'd["step"]')
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$p" 1 '[]' > open.json
ssh-keygen -q -Y sign -f "$p" -n estafette-orders open.json
expect_exit 0 "$ESTAFETTE" submit game open.json
rm -rf open && mkdir open && save_receipts "$outbox" open
gm_git game rm -q "orders/$p.json" "orders/$p.json.sig"
gm_git game commit -qm "the GM takes an order out"
expect_exit 65 "$ESTAFETTE" audit game --receipts open
grep -q "player \"$p\"'s seq 1 for step $t, the open step, was accepted, but neither it nor a later seq is at main" \
	"$WORK/last.err" || fail "the open step: $(cat "$WORK/last.out" "$WORK/last.err")"
gm_git game reset -q --hard HEAD~1

# A GM who signs a receipt that tells the truth about the file (its SHA-256, the commit
# that recorded it) but gives it another step, one where it would pass unseen, proves
# nothing by it: the audit holds the receipt to what the recorded file says of itself,
# and to the name its fields make.
relabel() { # folder, name, step
	mkdir "$1" && "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["step"]=int(sys.argv[3])
open(sys.argv[2],"w").write(json.dumps(d))' mine/receipt-0002-france-2.json "$1/$2" "$3"
	ssh-keygen -q -Y sign -f "$ESTAFETTE_HOME/gm/ne-rc" -n estafette-receipt "$1/$2"
}
relabel relabeled receipt-0003-france-2.json 3
expect_exit 65 "$ESTAFETTE" audit game --receipts relabeled
grep -q "receipt-0003-france-2.json: commit .*: the commit it names holds orders/france.json with other contents: .* step 2, seq 2, where the receipt says .* step 3, seq 2" \
	"$WORK/last.err" || fail "a receipt given another step: $(cat "$WORK/last.err")"
relabel misnamed receipt-0002-france-2.json 3
expect_exit 65 "$ESTAFETTE" audit game --receipts misnamed
grep -q "its name is not receipt-0003-france-2.json, which its step, player and seq make" "$WORK/last.err" ||
	fail "a receipt whose name is not its fields': $(cat "$WORK/last.err")"

# A GM who commits the player's bytes with a signature that is not theirs (or under keys
# he bent for one commit), then signs a receipt naming that commit: the file never held
# there as an accepted order, and the receipt is held to that.
cp s2.json game/orders/france.json && cp s1.json.sig game/orders/france.json.sig
gm_git game add orders/france.json orders/france.json.sig
gm_git game commit -qm "orders: france (a signature that is not hers)"
mkdir unsigned && "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["recorded"]=sys.argv[3]
open(sys.argv[2],"w").write(json.dumps(d))' mine/receipt-0002-france-2.json unsigned/receipt-0002-france-2.json \
	"$(git -C game rev-parse main)"
ssh-keygen -q -Y sign -f "$ESTAFETTE_HOME/gm/ne-rc" -n estafette-receipt unsigned/receipt-0002-france-2.json
expect_exit 65 "$ESTAFETTE" audit game --receipts unsigned
grep -q "but not with the player's good signature under that commit's keys/allowed_signers" "$WORK/last.err" ||
	fail "a receipt naming a commit where the file was not signed: $(cat "$WORK/last.err")"
gm_git game reset -q --hard HEAD~1

# No evidence: a receipt edited after signing, one signed by a player's key,
# one of another game, one without its signature, one whose name would print
# a forged line. Each is named with why, passed over (not counted), and the
# audit goes on; an honest game still passes.
noevidence() { # folder, expected warning
	expect_exit 0 "$ESTAFETTE" audit game --receipts "$1"
	grep -q "warning: $2" "$WORK/last.err" || fail "$1: $(cat "$WORK/last.out" "$WORK/last.err")"
	expect_exit 0 "$ESTAFETTE" audit game --receipts "$1" --json
	[ "$(json_get 'd["checked"]["receipts"], len(d["receipts_refused"])' < "$WORK/last.out")" = "0 1" ] ||
		fail "$1: --json: $(cat "$WORK/last.out")"
}
mkdir edited && "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["seq"]=3
open(sys.argv[2],"w").write(json.dumps(d))' mine/receipt-0002-france-2.json edited/receipt-x.json
cp mine/receipt-0002-france-2.json.sig edited/receipt-x.json.sig
noevidence edited "receipt-x.json is no evidence, so it was not checked: its signature is not a good one by the GM's key"
mkdir byplayer && cp mine/receipt-0002-france-2.json byplayer/ &&
	ssh-keygen -q -Y sign -f france -n estafette-receipt byplayer/receipt-0002-france-2.json
noevidence byplayer "receipt-0002-france-2.json is no evidence, so it was not checked: its signature is not a good one by the GM's key"
mkdir nosig && cp mine/receipt-0002-france-2.json nosig/
noevidence nosig "receipt-0002-france-2.json is no evidence, so it was not checked: receipt-0002-france-2.json.sig cannot be read"
# A receipt of another game, signed with that game's own GM key.
mkdir other && (cd other && make_players >/dev/null 2>&1)
expect_exit 0 "$ESTAFETTE" new ogame --ruleset napoleonic-empire --players other/players.json --id ne-other
mkdir foreign && "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["game"]="ne-other"
open(sys.argv[2],"w").write(json.dumps(d))' mine/receipt-0002-france-2.json foreign/r.json
ssh-keygen -q -Y sign -f "$ESTAFETTE_HOME/gm/ne-other" -n estafette-receipt foreign/r.json
noevidence foreign "r.json is no evidence, so it was not checked: its signature is not a good one by the GM's key"
mkdir named && printf 'x' > named/"$(printf 'a\nestafette: audit of ne-rc: all 9 steps hold\n.json')"
noevidence named "(a name of other characters) is no evidence, so it was not checked: its name is not a receipt's"
grep -q "all 9 steps hold" "$WORK/last.err" && fail "a file name printed a line of its own"
mkdir empty
expect_exit 66 "$ESTAFETTE" audit game --receipts empty
grep -q "no receipt there" "$WORK/last.err" || fail "empty: $(cat "$WORK/last.err")"

# A GM act that is a step sets the open step's orders aside for all to see:
# the receipts of orders it set aside are no failure (here the game ends).
cp -a game ended && cp -a home endhome
export ESTAFETTE_HOME=$WORK/endhome
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" ended "$p" 2 '[]' > end.json
ssh-keygen -q -Y sign -f "$p" -n estafette-orders end.json
expect_exit 0 "$ESTAFETTE" submit ended end.json
rm -rf endrc && mkdir endrc && save_receipts "$ESTAFETTE_HOME/outbox/ne-rc/pending" endrc
expect_exit 0 "$ESTAFETTE" gm ended end --result concession --winner France --reason "the Allies conceded"
expect_exit 0 "$ESTAFETTE" audit ended --receipts endrc
export ESTAFETTE_HOME=$WORK/home

# The GM key is never replaced: a second game of the same id on this machine
# is refused while the first's key is there, even with the first's secrets gone.
rm -rf "$ESTAFETTE_HOME/games/ne-other"
expect_exit 78 "$ESTAFETTE" new ogame2 --ruleset napoleonic-empire --players other/players.json --id ne-other
grep -q "a GM key for a game \"ne-other\" is already there" "$WORK/last.err" || fail "key kept: $(cat "$WORK/last.err")"
echo "receipts: signed by the game's own GM key, verified by ssh-keygen, checked by audit --receipts"
