#!/bin/bash
# Signed history: with the GM's key (`new --gm-signing-key`), every commit
# and tag estafette makes is signed in git's SSH format, and the real git
# says "Good" for each against the game's keys/allowed_signers; a commit
# made by anyone else does not verify. The audit still holds.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
make_players
"$ESTAFETTE" keygen gm -C gm@example.org >/dev/null
chmod 644 gm
expect_exit 78 "$ESTAFETTE" new refused --ruleset napoleonic-empire --players players.json --gm-signing-key gm
chmod 600 gm
"$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json --gm-signing-key gm >/dev/null
"$ESTAFETTE" run game >/dev/null
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game france 1 '[]' > o.json
ssh-keygen -q -Y sign -f france -n estafette-orders o.json
"$ESTAFETTE" submit game o.json >/dev/null
"$ESTAFETTE" run game >/dev/null

verify() {  # verify-commit|verify-tag NAME
	git -C game -c gpg.format=ssh -c gpg.ssh.allowedSignersFile="$WORK/game/keys/allowed_signers" \
		"$1" "$2" 2>&1
}
commits=0
for c in $(git -C game rev-list main); do
	verify verify-commit "$c" | grep -q '^Good "git" signature for gm' || fail "commit $c: $(verify verify-commit "$c")"
	commits=$((commits + 1))
done
tags=0
for t in $(git -C game tag); do
	verify verify-tag "$t" | grep -q '^Good "git" signature for gm' || fail "tag $t: $(verify verify-tag "$t")"
	tags=$((tags + 1))
done
[ "$commits" -ge 4 ] && [ "$tags" -ge 3 ] || fail "only $commits commits and $tags tags"

# Someone else's commit is not signed by the GM: git says so.
echo x > game/stray
git -C game add stray
git -C game -c user.name=x -c user.email=x@example.org commit -qm "not the GM"
! verify verify-commit main >/dev/null || fail "an unsigned commit verified"
git -C game reset -q --hard HEAD~1
git -C game fsck --strict --no-progress || fail "git fsck --strict"
expect_exit 0 "$ESTAFETTE" audit game
echo "signed_history: $commits commits and $tags tags signed by the GM, all Good"
