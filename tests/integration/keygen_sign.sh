#!/bin/bash
# `estafette keygen` and `estafette sign` against the real OpenSSH tools:
# the key reads back with ssh-keygen -y, and ssh-keygen -Y verify accepts
# the signature; a key is never overwritten.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"

expect_exit 0 "$ESTAFETTE" keygen player -C "player@test"
[ "$(stat -c %a player)" = 600 ] || fail "private key mode $(stat -c %a player)"
ssh-keygen -y -f player | cut -d' ' -f1-2 > derived.pub
cut -d' ' -f1-2 player.pub | cmp - derived.pub || fail "ssh-keygen -y disagrees with player.pub"
fp=$("$ESTAFETTE" keygen --json other | json_get 'd["fingerprint"]')
[ "$fp" = "$(ssh-keygen -l -f other.pub | cut -d' ' -f2)" ] || fail "fingerprint $fp"

# In the orders namespace only a strict order file is signed: an outbox
# envelope or a half-written file gets no signature that could be sent.
printf '{"estafette": "orders/1"}\n' > half.json
expect_exit 65 "$ESTAFETTE" sign half.json -f player
[ ! -e half.json.sig ] || fail "sign signed a file that is not a strict order file"
out=$("$ESTAFETTE" sign half.json -f player 2>&1 || true)
case $out in
*'not signed (namespace estafette-orders is for strict order files only'*'half.json: field "game" is missing'*) ;;
*) fail "sign's refusal of a half-written file: $out" ;;
esac
expect_exit 0 "$ESTAFETTE" sign half.json -f player -n file
ssh-keygen -Y check-novalidate -n file -s half.json.sig < half.json >/dev/null ||
	fail "a file signed in another namespace"

printf '{"estafette": "orders/1", "game": "g", "step": 2, "player": "player", "prev": "%s", "seq": 1, "entropy": "%s", "orders": []}\n' \
	"$(printf 'a%.0s' $(seq 64))" "$(openssl rand -hex 32)" > orders.json
expect_exit 0 "$ESTAFETTE" sign orders.json -f player
echo "player namespaces=\"estafette-orders\" $(cat player.pub)" > allowed_signers
ssh-keygen -Y verify -f allowed_signers -I player -n estafette-orders -s orders.json.sig \
	< orders.json >/dev/null || fail "ssh-keygen -Y verify refused estafette's signature"
! ssh-keygen -Y verify -f allowed_signers -I player -n git -s orders.json.sig \
	< orders.json >/dev/null 2>&1 || fail "the signature verified in the wrong namespace"

# A file ssh-keygen signed while its entropy was still the blank is given
# entropy and signed again, not refused with advice to run sign.
printf '{"estafette": "orders/1", "game": "g", "step": 1, "player": "player", "prev": "%s", "seq": 1, "entropy": "estafette sign fills this in", "orders": []}\n' \
	"$(printf 'a%.0s' $(seq 64))" > blank.json
ssh-keygen -q -Y sign -f player -n estafette-orders blank.json < /dev/null || fail "ssh-keygen -Y sign blank.json"
expect_exit 0 "$ESTAFETTE" sign blank.json -f player
grep -q 'fills this in' blank.json && fail "sign kept the blank entropy of a file ssh-keygen had signed"
ssh-keygen -Y verify -f allowed_signers -I player -n estafette-orders -s blank.json.sig \
	< blank.json >/dev/null || fail "the signature of the file sign filled"
cp blank.json.sig blank.first.sig
expect_exit 0 "$ESTAFETTE" sign blank.json -f player
cmp -s blank.json.sig blank.first.sig || fail "signing a filled, signed file again changed it"

# ssh-keygen signs with estafette's key too.
cp orders.json again.json
ssh-keygen -q -Y sign -f player -n estafette-orders again.json < /dev/null ||
	fail "ssh-keygen cannot sign with estafette's key"
ssh-keygen -Y verify -f allowed_signers -I player -n estafette-orders -s again.json.sig \
	< again.json >/dev/null || fail "ssh-keygen's own signature with estafette's key"

expect_exit 73 "$ESTAFETTE" keygen player
grep -q "never overwrites" "$WORK/last.err" || fail "overwrite message: $(cat "$WORK/last.err")"
expect_exit 66 "$ESTAFETTE" sign orders.json -f missing-key
expect_exit 64 "$ESTAFETTE" sign
echo "keygen_sign: key and signature accepted by ssh-keygen"
