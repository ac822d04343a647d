#!/bin/bash
# Signed history: with the GM's key (`new --gm-signing-key`), every commit
# and tag estafette makes is signed in git's SSH format, and the real git
# says "Good" for each against the game's keys/allowed_signers; a commit
# made by anyone else does not verify. The audit checks the same, in
# process: the untouched game audits with every commit and step tag
# counted as the GM's; a player's unsigned commit of their own order files
# passes; an unsigned commit that changes a template or a past step, a
# commit signed by another key, an unsigned merge and a step tag made again
# unsigned each fail the audit (exit 65), naming the commit or the tag.
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
# Step 1 is the join (dice v2): a commit per player's file, then the step's.
join game france allies
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
# new, the two join files, step 1, France's orders, step 2; tags step-0000 to step-0002
[ "$commits" -ge 6 ] && [ "$tags" -ge 3 ] || fail "only $commits commits and $tags tags"

# Someone else's commit is not signed by the GM: git says so.
echo x > game/stray
git -C game add stray
git -C game -c user.name=x -c user.email=x@example.org commit -qm "not the GM"
! verify verify-commit main >/dev/null || fail "an unsigned commit verified"
git -C game reset -q --hard HEAD~1
git -C game fsck --strict --no-progress || fail "git fsck --strict"
expect_exit 0 "$ESTAFETTE" audit game
grep -q "$commits commits and $tags step tags signed by the GM and 0 players' commits" "$WORK/last.out" ||
	fail "the audit's summary does not count the signatures: $(cat "$WORK/last.out")"
"$ESTAFETTE" audit game --json > audit.json
[ "$(json_get '[(c["signed_commits"], c["signed_tags"], c["player_commits"]) for c in d["checks"] if c["check"] == "signatures"]' < audit.json)" = "[($commits, $tags, 0)]" ] ||
	fail "--json has no signatures check counting $commits commits and $tags tags: $(cat audit.json)"
[ "$(json_get 'd["checked"]["signed_commits"]' < audit.json)" = "$commits" ] || fail "checked.signed_commits"

# g DIR args: git in DIR as someone other than the GM, who does not sign.
g() {
	local dir=$1; shift
	git -C "$dir" -c user.name=Someone -c user.email=someone@example.org \
		-c commit.gpgsign=false -c tag.gpgsign=false "$@"
}
# copy NAME: a fresh copy of the untouched game.
copy() { rm -rf "$WORK/$1"; cp -a "$WORK/game" "$WORK/$1"; }
# audit_fails DIR TEXT: the audit of DIR fails (65) at the signatures check, saying TEXT.
audit_fails() {
	expect_exit 65 "$ESTAFETTE" audit "$WORK/$1"
	grep -q "(signatures): .*$2" "$WORK/last.err" || fail "$1: the audit does not say \"$2\": $(cat "$WORK/last.err")"
}

# An unsigned commit that puts a report template in the game.
copy tpl
mkdir -p tpl/templates
echo "{{! not the GM's }}" > tpl/templates/report.txt.mustache
g tpl add templates
g tpl commit -qm "a better report"
audit_fails tpl "commit $(git -C tpl rev-parse --short=7 main) \"a better report\" is not the GM's (it carries no signature), and it changes templates/report.txt.mustache"

# An unsigned commit that edits a past step's file.
copy past
echo '[]' > past/turns/0001/events.json
g past commit -qam "fix step 1"
audit_fails past "commit $(git -C past rev-parse --short=7 main) \"fix step 1\" is not the GM's.*turns/0001/events.json"

# A player's own order file and signature, committed unsigned (pull-request play): allowed.
copy player
mkdir -p player/orders
next=$(($(git -C game tag --list 'step-*' | wc -l)))
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" player france "$next" '[]' > player/orders/france.json
ssh-keygen -q -Y sign -f france -n estafette-orders player/orders/france.json
g player add orders
g player commit -qm "orders: france"
expect_exit 0 "$ESTAFETTE" audit player
grep -q "$commits commits and $tags step tags signed by the GM and 1 players' commits" "$WORK/last.out" ||
	fail "the player's commit is not counted: $(cat "$WORK/last.out")"
# ... but not a player's order file with another player's in one commit, nor a merge of it.
cp player/orders/france.json player/orders/allies.json
echo >> player/orders/france.json.sig
g player add orders
g player commit -qm "orders: allies too"
audit_fails player "it changes orders/france.json.sig, but a commit not signed by the GM may change only one player's"
g player reset -q --hard HEAD~1
g player checkout -q -b side
echo x > player/orders/france.json.sig
g player commit -qam "orders: france again"
g player checkout -q main
g player merge -q --no-ff -m "merge the side" side
audit_fails player "\"merge the side\" is not the GM's (it carries no signature), and it has 2 parents"

# A commit signed by another SSH key.
copy other
ssh-keygen -q -t ed25519 -N '' -C other -f other-key
echo x > other/stray
g other add stray
g other -c gpg.format=ssh -c user.signingkey="$WORK/other-key" commit -S -qm "signed, but not by the GM"
git -C other cat-file commit main | grep -q "BEGIN SSH SIGNATURE" || fail "the other key's commit is not signed"
audit_fails other "\"signed, but not by the GM\" is not the GM's (its signature is not a good one by the GM's key"

# A step tag made again, unsigned, on the same commit.
copy tag
g tag tag -f step-0001 "$(git -C tag rev-parse 'step-0001^{commit}')" >/dev/null
audit_fails tag "tag step-0001 is not the GM's: it carries no signature"
# ... and annotated but signed by another key.
g tag -c gpg.format=ssh -c user.signingkey="$WORK/other-key" tag -s -f -m "step 0001" step-0001 \
	"$(git -C tag rev-parse 'step-0001^{commit}')" >/dev/null
audit_fails tag "tag step-0001 is not the GM's: its signature is not a good one"
echo "signed_history: $commits commits and $tags tags signed by the GM, all Good; the audit counts them and refuses unsigned changes, another key, an unsigned merge and an unsigned tag"
