#!/bin/bash
# Sealed simultaneous orders: in a game made with
# --sealed-orders, a simultaneous step (Napoleonic Empire's battle cards)
# takes first a signed commitment/1 file holding the SHA-256 of each
# player's order file, then the order files, once every awaited player has
# committed or the deadline has passed. Checked here, each refusal by its
# reason: orders without a commitment; a reveal while the other side has
# not committed; a new commitment once commitments are closed; a reveal
# that does not match; then the step resolves, the manifest and turns/
# keep the commitments, and audit holds (and catches a commitment forged
# afterwards). A second game: past the deadline the step waits for the
# reveal of who committed, until the reveal deadline.
#
# The game is reproducible: the sample players and keys, the sample dice
# secret and fixed commit times. Game id so-28 was chosen because its first
# shuffle gives France italian-campaign and the Allies Wellington and
# Nelson, so an Allied attack on Italy asks both sides for battle cards.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
SAMPLE=$TOP/turnfiles/napoleonic-empire
cp "$SAMPLE/keys/france" "$SAMPLE/keys/allies" . && chmod 600 france allies
export ESTAFETTE_COMMIT_TIME=1764000000
T0=@1764000000
NOW=$T0    # what submit and run take as the time: the deadlines count from the fixed commit times

sign() { rm -f "$1.sig"; ssh-keygen -q -Y sign -f "$2" -n estafette-orders "$1"; }
order() {  # game player seq orders-json > file
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$1" "$2" "$3" "$4"
}
commitment() {  # game player seq order-file > file
	"$ESTAFETTE" status "$1" --json | "$PY" -c '
import hashlib, json, sys
d = json.load(sys.stdin)
print(json.dumps({"estafette": "commitment/1", "game": d["game"], "step": d["step"],
                  "player": sys.argv[1], "prev": d["state_sha256"], "seq": int(sys.argv[2]),
                  "sha256": hashlib.sha256(open(sys.argv[3], "rb").read()).hexdigest()}, indent=1))' "$2" "$3" "$4"
}
refused() {  # game file reason-text
	local out
	out=$("$ESTAFETTE" submit "$1" "$2" --now "$NOW" 2>&1) && fail "$2 was accepted: $out"
	grep -q "$3" <<<"$out" || fail "$2: expected \"$3\", got: $out"
}
to_battle_cards() {  # game [new options]: the shuffle, France passes, the Allies attack Italy
	local g=$1; shift
	"$ESTAFETTE" new "$g" --id so-28 --ruleset napoleonic-empire --players "$SAMPLE/players.json" \
		--test-dice-secret "estafette sample game" --dice-protocol v1 --sealed-orders "$@" >/dev/null
	"$ESTAFETTE" run "$g" --now $T0 >/dev/null
	order "$g" france 1 '[]' > f2.json && sign f2.json france
	"$ESTAFETTE" submit "$g" f2.json --now $T0 >/dev/null && "$ESTAFETTE" run "$g" --now $T0 >/dev/null
	order "$g" allies 1 '[{"type": "move", "from": "Austria", "to": "Italy", "armies": 8}]' > a3.json
	sign a3.json allies
	"$ESTAFETTE" submit "$g" a3.json --now $T0 >/dev/null && "$ESTAFETTE" run "$g" --now $T0 >/dev/null
	"$ESTAFETTE" status "$g" --json > st.json
	[ "$(json_get 'd["kind"] + " " + d["mode"] + " " + ",".join(a["player"] for a in d["awaiting"])' < st.json)" = \
		"battle-cards simultaneous france,allies" ] || fail "not a battle-cards step for both: $(cat st.json)"
}

to_battle_cards game --deadline-hours 24 --reveal-hours 12
step=$(json_get 'd["step"]' < st.json)
order game france 1 '[{"type": "play", "card": "italian-campaign", "country": "Italy"}]' > f.json
sign f.json france
order game allies 1 '[{"type": "play", "card": "duke-of-wellington", "country": "Italy"}]' > a.json
sign a.json allies

refused game f.json 'has no commitment for it'
commitment game france 1 f.json > fc.json && sign fc.json france
"$ESTAFETTE" check game fc.json --now "$NOW" | grep -q "valid commitment of france" || fail "check of a commitment"
"$ESTAFETTE" submit game fc.json --now "$NOW" | grep -q "recorded commitment of france" || fail "france's commitment"
"$ESTAFETTE" status game > st.txt
grep -q "france .*committed" st.txt || fail "status does not show france committed"
# Deadline 24 h after 1764000000, then 12 reveal hours.
grep -q "reveals close at $(date -u -d @$((1764000000 + 36 * 3600)) +%Y-%m-%dT%H:%M:%SZ)" st.txt ||
	fail "status does not show the reveal deadline: $(cat st.txt)"
# The public repository holds the commitment, not the orders.
[ -f game/orders/france.commitment.json ] && [ ! -f game/orders/france.json ] || fail "orders/ at main: $(ls game/orders)"
grep -q italian-campaign game/orders/* && fail "the commitment shows the card"
refused game f.json 'too early to reveal orders for step '"$step"': allies has not committed'
commitment game allies 1 a.json > ac.json && sign ac.json allies
"$ESTAFETTE" submit game ac.json --now "$NOW" >/dev/null
commitment game france 2 f.json > fc2.json && sign fc2.json france
refused game fc2.json 'commitments for step '"$step"' are closed'
order game france 2 '[]' > other.json && sign other.json france
refused game other.json 'committed to'
"$ESTAFETTE" submit game f.json --now "$NOW" | grep -q "recorded orders of france" || fail "france's reveal"
cp -a game "$WORK/dropc" && cp -a "$ESTAFETTE_HOME" "$WORK/droph" && dropstep=$step
cp a.json "$WORK/drop-a.json" && cp a.json.sig "$WORK/drop-a.json.sig"
"$ESTAFETTE" run game --now $T0 | grep -q "nothing due" || fail "the step resolved without the Allies' reveal"
"$ESTAFETTE" submit game a.json --now "$NOW" >/dev/null
"$ESTAFETTE" run game --now $T0 | grep -q "resolved step $step" || fail "step $step did not resolve"
name=$(printf %04d "$step")
"$PY" - "game/turns/$name/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert sorted(c["player"] for c in m["commitments"]) == ["allies", "france"], m
assert sorted(o["player"] for o in m["orders"]) == ["allies", "france"], m
assert not m["missing"] and not m["refused"] and "ignored" not in m, m
PY
for f in france.commitment.json allies.commitment.json france.json allies.json; do
	[ -f "game/turns/$name/orders/$f" ] && [ -f "game/turns/$name/orders/$f.sig" ] || fail "turns/$name/orders/$f"
done
grep -q "Italian Campaign\|italian-campaign" "game/turns/$name/events.json" || fail "France's card was not played"
git -C game fsck --strict --no-progress || fail "git fsck --strict"
"$ESTAFETTE" audit game --json > audit.json || fail "audit: $(cat audit.json)"
json_get 'd["complete"]' < audit.json | grep -qx True || fail "audit not complete: $(cat audit.json)"

# A commitment forged afterwards (in a rewritten history) is caught, though the GM forged it,
# who holds the GM key: the commit and the step's tag are signed as estafette signs them (a
# clone has no estafette.signingkey of its own: the game's is set).
git clone -q --no-local game forged
git -C forged config estafette.signingkey "$(git -C game config estafette.signingkey)"
order game france 9 '[]' > x.json
"$PY" -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d["sha256"]="0"*64; open(p,"w").write(json.dumps(d, indent=1))' \
	"forged/turns/$name/orders/france.commitment.json"
sign "forged/turns/$name/orders/france.commitment.json" france
"$PY" - "forged/turns/$name" <<'PY'
import hashlib, json, sys
d = sys.argv[1]
m = json.load(open(d + "/manifest.json"))
for c in m["commitments"]:
    if c["player"] == "france":
        c["sha256"] = hashlib.sha256(open(d + "/orders/france.commitment.json", "rb").read()).hexdigest()
        c["signature_sha256"] = hashlib.sha256(open(d + "/orders/france.commitment.json.sig", "rb").read()).hexdigest()
open(d + "/manifest.json", "w").write(json.dumps(m, indent=2, sort_keys=True) + "\n")
PY
gm_git forged commit -qam forged
gm_git forged tag -s -f -m "step $name" "step-$name" main >/dev/null
"$ESTAFETTE" audit forged --json > forged.json && fail "audit missed a forged commitment"
echo "forged commitment: $(json_get 'd["failure"]["check"] + ": " + d["failure"]["message"]' < forged.json)"
[ "$(json_get 'd["failure"]["check"]' < forged.json)" != commitment ] &&
	[ "$(json_get 'd["failure"]["check"]' < forged.json)" != dice ] &&
	[ "$(json_get 'd["failure"]["check"]' < forged.json)" != manifest_sha256 ] &&
	fail "the forged commitment was caught, but not by name: $(cat forged.json)"

# --- The deadline: France commits, the Allies never do ---
export ESTAFETTE_HOME=$WORK/home2
mkdir late && cd late
cp ../france ../allies .
to_battle_cards game --deadline-hours 24 --reveal-hours 12
order game france 1 '[{"type": "play", "card": "italian-campaign", "country": "Italy"}]' > f.json
sign f.json france
commitment game france 1 f.json > fc.json && sign fc.json france
"$ESTAFETTE" submit game fc.json --now "$NOW" >/dev/null
refused game f.json 'allies has not committed'
NOW=@$((1764000000 + 25 * 3600))       # past the deadline, before the reveal deadline
"$ESTAFETTE" run game --now $NOW | grep -q "nothing due" || fail "resolved before France could reveal"
order game allies 1 '[]' > a.json && sign a.json allies
refused game a.json 'has no commitment for it, and the deadline has passed'
commitment game allies 1 a.json > ac.json && sign ac.json allies
refused game ac.json 'commitments for step [0-9]* are closed' 
# After the deadline France may reveal; the Allies are missing.
"$ESTAFETTE" submit game f.json --now "$NOW" >/dev/null || fail "France could not reveal after the deadline"
"$ESTAFETTE" run game --now $NOW | grep -q "resolved step" || fail "the step did not resolve once France revealed"
"$PY" -c 'import json,sys; m=json.load(open(sys.argv[1])); assert [x["player"] for x in m["missing"]] == ["allies"], m' \
	"game/turns/$(printf %04d "$step")/manifest.json"
"$ESTAFETTE" audit game >/dev/null || fail "audit of the late game"
# A GM who takes France's commitment out after its reveal was accepted: run
# then refuses the reveal (no commitment) and gives France default orders. The
# audit judges the reveal at the commit that recorded it, where it held.
ESTAFETTE_HOME=$WORK/droph "$ESTAFETTE" submit "$WORK/dropc" "$WORK/drop-a.json" --now "$NOW" >/dev/null
gm_git "$WORK/dropc" rm -q orders/france.commitment.json orders/france.commitment.json.sig
gm_git "$WORK/dropc" commit -qm "housekeeping"
ESTAFETTE_HOME=$WORK/droph expect_exit 0 "$ESTAFETTE" run "$WORK/dropc" --now @$((1764000000 + 40 * 3600))
[ "$(json_get '[m["player"] for m in d["missing"]]' < "$WORK/dropc/turns/$(printf %04d "$dropstep")/manifest.json")" = "['france']" ] ||
	fail "the dropped commitment: $(cat "$WORK/dropc/turns/$(printf %04d "$dropstep")/manifest.json")"
ESTAFETTE_HOME=$WORK/droph expect_exit 65 "$ESTAFETTE" audit "$WORK/dropc"
grep -q 'recorded orders/france.json for step '"$dropstep"' (player "france", seq 1, .*default orders instead' "$WORK/last.err" ||
	fail "the dropped commitment: $(cat "$WORK/last.out" "$WORK/last.err")"
echo "sealed_orders: commit, reveal, refusals, the deadline and the audit hold"
