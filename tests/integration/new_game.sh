#!/bin/bash
# `estafette new` refuses a players file that would later break mail or let
# one player sign for another, never leaves a half-made game, and the small
# commands answer as docs/gm-guide.md says (mail, --help, exit codes).
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
make_players
ssh-keygen -q -t rsa -b 1024 -N '' -f weak 2>/dev/null
K=$(cat france.pub)

refuse() {  # expected-words players-json
	echo "$2" > bad.json
	expect_exit 65 "$ESTAFETTE" new "g$RANDOM" --ruleset napoleonic-empire --players bad.json
	grep -q "$1" "$WORK/last.err" || fail "expected \"$1\": $(cat "$WORK/last.err")"
}
p() { echo "{\"id\": \"$1\", \"name\": \"$2\", \"email\": \"$3\", \"key\": \"$4\"${5:-}}"; }
refuse "the same key" "{\"players\": [$(p a A a@x.org "$K"), $(p b B b@x.org "$K")]}"
refuse "players\[0\].name holds U+000A LINE FEED at byte 1" "{\"players\": [$(p a 'A\nBcc: evil@x.org' a@x.org "$K")]}"
refuse "not a plain address" "{\"players\": [$(p a A 'a@x.org\r\nBcc: y@z' "$K")]}"
refuse "under 2048" "{\"players\": [$(p a A a@x.org "$(cat weak.pub)")]}"
refuse "not base64" "{\"players\": [$(p a A a@x.org 'ssh-ed25519 AAAAnot!!')]}"
refuse 'unknown field "color"' "{\"players\": [$(p a A a@x.org "$K" ', "color": 1')]}"
refuse "at least one power" "{\"players\": [$(p a A a@x.org "$K" ', "powers": []')]}"
[ -z "$(ls "$ESTAFETTE_HOME/games" 2>/dev/null)" ] || fail "a refused new left secrets"
[ -z "$(ls -d g* 2>/dev/null)" ] || fail "a refused new left a folder"

mkdir full && touch full/x
expect_exit 65 "$ESTAFETTE" new full --ruleset napoleonic-empire --players players.json
[ ! -e "$ESTAFETTE_HOME/games/full" ] || fail "new into a full folder wrote secrets"
expect_exit 65 "$ESTAFETTE" new g1 --ruleset napoleonic-empire --players players.json --option foo=bar
expect_exit 0 "$ESTAFETTE" new g1 --ruleset napoleonic-empire --players players.json
[ -z "$(ls -d g1.new-* 2>/dev/null)" ] || fail "new left its temporary folder"
[ "$(stat -c %a "$ESTAFETTE_HOME/games/g1/secrets.json")" = 600 ] || fail "secrets mode"
expect_exit 65 "$ESTAFETTE" new g1b --id g1 --ruleset napoleonic-empire --players players.json
grep -q "already exist" "$WORK/last.err" || fail "a second game of one id"

# A display name with a comma and quotes stays one recipient.
sed 's/"France player"/"O\\"Brien, Bert"/' players.json > quoted.json
# (The invitations to the join, and the receipts, go to the bare address;
# the reports of step 1, once both have joined, name the player.)
expect_exit 0 "$ESTAFETTE" new g2 --ruleset napoleonic-empire --players quoted.json
join g2 france allies
grep -h '^To:' "$ESTAFETTE_HOME"/outbox/g2/pending/0001-france.eml > to.txt
grep -q 'Brien, Bert' to.txt || fail "quoted name: $(cat to.txt)"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["to"] == ["france@example.org"], d' \
	"$ESTAFETTE_HOME"/outbox/g2/pending/0001-france.json || fail "quoted name: not one recipient"

# estafette mail sends what waits; secrets readable by others are refused.
start_smtpd "$WORK/mail"
git -C g2 config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
waiting=$(ls "$ESTAFETTE_HOME"/outbox/g2/pending/*.eml | wc -l)
[ "$waiting" -eq 4 ] || fail "expected 2 reports and 2 receipts waiting, found: $(ls "$ESTAFETTE_HOME"/outbox/g2/pending)"
expect_exit 0 "$ESTAFETTE" mail g2
[ "$(ls mail/*.eml | wc -l)" -eq "$waiting" ] || fail "estafette mail sent $(ls mail/*.eml | wc -l) of $waiting"
[ -z "$(ls "$ESTAFETTE_HOME"/outbox/g2/pending)" ] || fail "still pending: $(ls "$ESTAFETTE_HOME"/outbox/g2/pending)"
# The dice secrets are read when a step is resolved: here the join, once both
# players' files are in (a run with nothing due reads none).
for p in france allies; do
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" g1 "$p" 1 '[]' > "g1-$p.json"
	ssh-keygen -q -Y sign -f "$p" -n estafette-orders "g1-$p.json"
	expect_exit 0 "$ESTAFETTE" submit g1 "g1-$p.json"
done
chmod 644 "$ESTAFETTE_HOME/games/g1/secrets.json"
expect_exit 78 "$ESTAFETTE" run g1
grep -q "chmod 600" "$WORK/last.err" || fail "secrets mode message: $(cat "$WORK/last.err")"
[ -z "$(git -C g1 tag -l step-0001)" ] || fail "step 1 was resolved with secrets readable by others"

for c in new submit check run status report keygen sign mail; do
	expect_exit 0 "$ESTAFETTE" "$c" --help
done
expect_exit 66 "$ESTAFETTE" check g1 "$WORK"
expect_exit 66 "$ESTAFETTE" status "$WORK/nothing-here"
expect_exit 64 "$ESTAFETTE" frobnicate
echo "new_game: players file checks, atomic new, mail and exit codes hold"
