#!/bin/bash
# The dice protocol against docs/protocol.md (v1 whole, v2 by its vector), with two
# implementations that share nothing with internal/dice/dice.c:
#   1. tests/helpers/dice_check.py (Python hashlib/hmac) recomputes the
#      normative vector and checks it is the one docs/protocol.md prints;
#   2. a small game repository is built here with the openssl command line
#      (steps 1 and 3 draw dice, step 2 draws none), and `dice_check.py repo`
#      must accept it, then refuse each tampered copy: a changed roll, a
#      reveal off the chain, changed manifest bytes, a wrong seed.
set -eu
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
check="/usr/bin/python3 $TOP/tests/helpers/dice_check.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

$check vector "$TOP/docs/protocol.md" || fail "dice_check.py vector disagrees"

# --- helpers built on openssl and coreutils only ----------------------------
unhex() { printf '%b' "$(printf '%s' "$1" | sed 's/../\\x&/g')"; }            # hex -> bytes
sha() { openssl dgst -sha256 -r | cut -c1-64; }                       # stdin -> hex
u32be() { printf '%08x' "$1"; }
enc_str() { u32be "${#1}"; printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'; }
hmac() { unhex "$2" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$1" -r | cut -c1-64; }
chain() { local v=$1 n=$2; while [ "$n" -gt 0 ]; do v=$(unhex "$v" | sha); n=$((n - 1)); done; echo "$v"; }

# docs/protocol.md's vector: S, N = 4.
S=$(printf '%s' 'estafette test vector' | sha)
tip=$(chain "$S" 4)
r1=$(chain "$S" 3)
r3=$(chain "$S" 1)

# step 3's seed and first block, from the openssl command line
manifest3='{"orders":[{"player":"france","sha256":"00"}]}'
m3=$(printf '%s\n' "$manifest3" | sha)
seed3=$(hmac "$r3" "$(enc_str estafette/dice/v1/step)$(enc_str demo)$(u32be 3)00000020$m3")
block0=$(hmac "$seed3" "$(enc_str estafette/dice/v1/stream)0000000000000000")
rolls3=
for k in 0 1 2 3 4 5 6 7; do
	w=$((16#${block0:$((8 * k)):8}))
	[ "$w" -ge $((4294967296 - 4294967296 % 6)) ] && continue   # rejected (rare)
	rolls3="$rolls3${rolls3:+, }{\"sides\": 6, \"value\": $((w % 6 + 1)), \"purpose\": \"step 3 d6\"}"
done
[ -n "$rolls3" ] || fail "no usable word in step 3's first block"

# --- the game repository ----------------------------------------------------
repo=$tmp/game
git init -q -b main "$repo"
git -C "$repo" config user.name test
git -C "$repo" config user.email test@example.org
mkdir -p "$repo/turns/0000" "$repo/turns/0001" "$repo/turns/0002" "$repo/turns/0003"
cat >"$repo/game.json" <<EOF
{"id": "demo", "dice": {"algorithm": "estafette/dice/v1", "chain_length": 4, "chain_tip": "$tip"}}
EOF
echo '{}' >"$repo/turns/0000/manifest.json"
printf '{"orders":[]}\n' >"$repo/turns/0001/manifest.json"
d1='{"step": 1, "reveal": "'$r1'", "manifest_sha256": "bfc78645fff96da7048eef69ec1296336e0fb7b59a16927f4ae72726fca12591",
 "seed": "702c4341cf914556ccd4213499111b792ff5fd601f4bd604ad74dd0bd6f842c5", "rolls": ['
for v in 4 4 3 5 5 1 1 5 1 5 3 6; do d1="$d1{\"sides\": 6, \"value\": $v, \"purpose\": \"d6\"}, "; done
for v in 3 9 4 8 1; do d1="$d1{\"sides\": 10, \"value\": $v, \"purpose\": \"d10\"}, "; done
d1="$d1{\"sides\": 10, \"value\": 6, \"purpose\": \"d10\"}]}"
printf '%s\n' "$d1" >"$repo/turns/0001/dice.json"
echo '{"orders":[]}' >"$repo/turns/0002/manifest.json"
echo '{"step": 2, "rolls": []}' >"$repo/turns/0002/dice.json"
printf '%s\n' "$manifest3" >"$repo/turns/0003/manifest.json"
printf '{"step": 3, "reveal": "%s", "manifest_sha256": "%s", "seed": "%s", "rolls": [%s]}\n' \
	"$r3" "$m3" "$seed3" "$rolls3" >"$repo/turns/0003/dice.json"
commit() { git -C "$repo" add -A && git -C "$repo" commit -q -m "$1"; }
commit "steps 0 to 3"

nrolls=$((18 + $(grep -o '"sides"' "$repo/turns/0003/dice.json" | wc -l)))
out=$($check repo "$repo") || fail "dice_check.py repo refused a correct game: $out"
echo "$out"
grep -qx "dice_check: 3 steps, $nrolls rolls agree" <<<"$out" || fail "unexpected summary"

# --- tampered copies: each must be refused, naming where --------------------
expect_refusal() {  # what, pattern expected on stderr
	local rc=0 err
	err=$($check repo "$repo" 2>&1 >/dev/null) || rc=$?
	[ "$rc" -eq 1 ] || fail "$1: exit $rc, expected 1 ($err)"
	grep -q -- "$2" <<<"$err" || fail "$1: message '$err' does not say '$2'"
	echo "refused as expected ($1): $err"
}
good=$(git -C "$repo" rev-parse HEAD)
restore() { git -C "$repo" reset -q --hard "$good"; }

sed -i 's/"value": 5, "purpose": "d6"}, {"sides": 6, "value": 1/"value": 6, "purpose": "d6"}, {"sides": 6, "value": 1/' \
	"$repo/turns/0001/dice.json"
commit "change roll 4 of step 1"
expect_refusal "changed roll" "turns/0001/dice.json roll 4 (d6"
restore

sed -i "s/$r3/$(chain "$S" 2)/" "$repo/turns/0003/dice.json"
commit "step 3 reveals r_2"
expect_refusal "reveal off the chain" "turns/0003/dice.json: reveal"
restore

printf '{"orders": []}\n' >"$repo/turns/0001/manifest.json"
commit "manifest bytes changed"
expect_refusal "changed manifest" "manifest.json hashes to"
restore

sed -i 's/"seed": "702c/"seed": "802c/' "$repo/turns/0001/dice.json"
commit "wrong seed"
expect_refusal "wrong seed" "turns/0001/dice.json: \"seed\""
restore

# only refs/heads/main counts: an uncommitted change in the work tree does not
sed -i 's/"value": 4/"value": 2/' "$repo/turns/0001/dice.json"
$check repo "$repo" >/dev/null || fail "an uncommitted change was read"
echo "dice_vector: all checks passed"
