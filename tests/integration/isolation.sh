#!/bin/bash
# Player isolation: no player can act for another, see
# another's hidden information, or make the GM's tools act. Each named
# check runs the real binary, git, ssh-keygen keys and signatures, and
# asserts the exit code and the message:
#  orders/*     an order file naming another player, signed, re-signed or
#               sent with the wrong .sig; the same by mail, from the
#               signer's address and from the victim's address forged;
#  gm/*         a gm/1 act signed by a player (by `gm`, by `submit`, and
#               committed at main under gm/); a gm/1 file or a gm-style
#               field in a player's order file; a player's push touching
#               game.json, keys/, state.json, another's orders or gm/
#               (hooks/pre-receive);
#  press/*      in a sealed 3-player La Guerre game, A's press to B alone
#               never reaches C's report, mail, receipt, status or any
#               object of the repository; mailed at once, it goes to B only;
#  decision/*   La Guerre: a 5.612 battle decision sent by the player it
#               does not await, or signed by another; a standing order for
#               a power the sender does not hold, or signed by another; a
#               player's standing order in no other's report or public object;
#  hidden/*     Napoleonic Empire, sealed and not: the other side's hand is
#               in no report, receipt, error message or `status --json`,
#               and (sealed) in no blob of any ref before the reveal.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
checks=0
passed() { checks=$((checks + 1)); echo "ok: $1"; }
# refused CODE TEXT command...: exits CODE and says TEXT (stdout or stderr).
refused() {
	local want=$1 text=$2
	shift 2
	expect_exit "$want" "$@"
	grep -qF -- "$text" "$WORK/last.err" "$WORK/last.out" ||
		fail "$* exited $want but does not say \"$text\": $(cat "$WORK/last.out" "$WORK/last.err")"
}
# order GAME PLAYER SEQ ORDERS [make_order args]: an order file bound to GAME's open step.
order() {
	local g=$1 p=$2 s=$3 o=$4
	shift 4
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$g" "$p" "$s" "$o" "$@"
}
sign() { rm -f "$2.sig"; ssh-keygen -q -Y sign -f "$1" -n "${3:-estafette-orders}" "$2" < /dev/null; }
head_of() { git -C "$1" rev-parse main; }
unchanged() { [ "$(head_of "$1")" = "$2" ] || fail "$3: the game's main moved"; }

make_players
"$ESTAFETTE" keygen gm -C gm@example.org >/dev/null
chmod 600 gm
"$ESTAFETTE" new ne --ruleset napoleonic-empire --players players.json --gm-signing-key gm >/dev/null
join ne france allies
[ "$("$ESTAFETTE" status ne --json | json_get 'd["awaiting"][0]["player"]')" = france ] || fail "ne: france is not awaited"

# ---------------------------------------------------------------- orders
h=$(head_of ne)
order ne allies 1 '[]' > forged.json && sign france forged.json
refused 65 'forged.json.sig: signed with the key of "france", but field "player" is "allies" (one player cannot send orders for another)' \
	"$ESTAFETTE" submit ne forged.json
unchanged ne "$h" orders/a-signs-file-naming-b
passed orders/a-signs-file-naming-b

order ne allies 1 '[]' > allies.json && sign allies allies.json
cp allies.json resigned.json && sign france resigned.json
refused 65 'resigned.json.sig: signed with the key of "france", but field "player" is "allies"' \
	"$ESTAFETTE" submit ne resigned.json
passed orders/a-key-signs-b-file

order ne france 1 '[]' > france.json && sign france france.json
refused 65 'signature does not verify: the data or the signature was changed after signing' \
	"$ESTAFETTE" submit ne allies.json --sig france.json.sig
refused 65 'signature does not verify' "$ESTAFETTE" check ne allies.json --sig france.json.sig
unchanged ne "$h" orders/a-submits-b-file-with-a-sig
passed orders/a-submits-b-file-with-a-sig

# By mail: the signature decides, never the From address.
mail_from() {  # from-address order-file > message
	"$PY" "$TOP/tests/helpers/make_mail.py" plain --order "$2" --sig "$2.sig" --from "$1" --to "GM <gm@example.org>"
}
mail_refused() {  # name message text
	expect_exit 0 "$ESTAFETTE" receive ne --json < "$2"
	[ "$(json_get 'd["status"]' < "$WORK/last.out")" = refused ] || fail "$1: not refused: $(cat "$WORK/last.out")"
	json_get '" ".join(c.get("error") or "" for c in d["candidates"])' < "$WORK/last.out" | grep -qF -- "$3" ||
		fail "$1: refused, but not for \"$3\": $(cat "$WORK/last.out")"
	unchanged ne "$h" "$1"
	git -C ne cat-file -e main:orders/allies.json 2>/dev/null && fail "$1: orders/allies.json recorded"
	passed "$1"
}
mail_from "France player <france@example.org>" forged.json > m1.eml
mail_refused orders/mail-from-a m1.eml 'signed with the key of "france", but field "player" is "allies"'
mail_from "Allied player <allies@example.org>" forged.json > m2.eml
mail_refused orders/mail-from-b-forged m2.eml 'signed with the key of "france", but field "player" is "allies"'
cp allies.json a2.json && cp france.json.sig a2.json.sig
mail_from "Allied player <allies@example.org>" a2.json > m3.eml
mail_refused orders/mail-from-b-forged-wrong-sig m3.eml 'signature does not verify'

# ------------------------------------------------------------- GM tools
# A gm/1 act file from a player: in submit (naming "gm", or the player
# itself), and as a player's order file with a GM-style field.
gm_file() {  # player act-json-extra > file (bound to ne's open step)
	"$ESTAFETTE" status ne --json | "$PY" -c '
import json, sys
s = json.load(sys.stdin)
d = {"estafette": "gm/1", "game": s["game"], "step": s["step"], "player": sys.argv[1],
     "prev": s["state_sha256"], "seq": 1, "act": "end", "at": 1795995873, "reason": "I win"}
print(json.dumps(d, indent=2))' "$1"
}
gm_file gm > act-gm.json && sign france act-gm.json estafette-gm
refused 65 'act-gm.json: field "estafette" is "gm/1", a GM act' "$ESTAFETTE" submit ne act-gm.json
gm_file france > act-fr.json && sign france act-fr.json
refused 65 'act-fr.json: field "estafette" is "gm/1", a GM act, but players send order files' \
	"$ESTAFETTE" submit ne act-fr.json
mail_from "France player <france@example.org>" act-fr.json > m4.eml
expect_exit 0 "$ESTAFETTE" receive ne --json < m4.eml
[ "$(json_get 'd["status"]' < "$WORK/last.out")" = refused ] || fail "a gm/1 file by mail: $(cat "$WORK/last.out")"
unchanged ne "$h" gm/act-file-as-orders
passed gm/act-file-as-orders
order ne france 2 '[]' | "$PY" -c 'import json,sys; d=json.load(sys.stdin); d["act"]="end"; d["reason"]="x"; print(json.dumps(d))' > gmfield.json
sign france gmfield.json
refused 65 'gmfield.json: unknown field "act"' "$ESTAFETTE" submit ne gmfield.json
order ne france 2 '[{"type": "end", "result": "concession", "winner": "France"}]' > gmitem.json && sign france gmitem.json
expect_exit 65 "$ESTAFETTE" submit ne gmitem.json
grep -q 'gmitem.json' "$WORK/last.err" || fail "a gm-style order item: $(cat "$WORK/last.err")"
unchanged ne "$h" gm/gm-style-field
passed gm/gm-style-field

# The gm command with a player's key: refused, nothing committed.
git -C ne config estafette.signingkey "$WORK/france"
expect_exit 78 "$ESTAFETTE" gm ne end --result concession --winner France --reason forged
grep -q 'estafette.signingkey is not the key of principal gm in keys/allowed_signers: key SHA256:[^ ]* is not listed for principal "gm" in allowed_signers (line 1 lists it for "france")' \
	"$WORK/last.err" || fail "gm with a player's key: $(cat "$WORK/last.err")"
# (the message once: it quoted itself through est_error_set, util/error.c)
[ "$(grep -o 'is not the key of principal gm' "$WORK/last.err" | wc -l)" = 1 ] || fail "gm with a player's key: $(cat "$WORK/last.err")"
git -C ne config estafette.signingkey "$WORK/gm"
unchanged ne "$h" gm/command-with-player-key
passed gm/command-with-player-key

# An act signed by a player that reached main under gm/ (a merged pull
# request, a hand commit): status, run and audit refuse to use it.
mkdir -p ne/gm && gm_file gm > forged-act.json && mv forged-act.json ne/gm/forged.json
sign france ne/gm/forged.json estafette-gm
git -C ne add gm
git -C ne -c user.name=france -c user.email=france@example.org commit -qm "gm: end (forged)"
h2=$(head_of ne)
refused 65 "gm/forged.json.sig: not the GM's signature" "$ESTAFETTE" run ne
refused 65 "not the GM's signature" "$ESTAFETTE" status ne
unchanged ne "$h2" gm/act-at-main-signed-by-player
"$ESTAFETTE" report ne --player allies --format json > over.json
[ "$(json_get 'd["over"]' < over.json)" = False ] || fail "the forged end act took effect"
git -C ne -c user.name=gm -c user.email=gm@example.org rm -q -r gm
git -C ne -c user.name=gm -c user.email=gm@example.org commit -qm "remove the forged act"
passed gm/act-at-main-signed-by-player

# hooks/pre-receive: a player's push may change only its own orders.
git clone -q --bare ne server.git
cp "$TOP/hooks/pre-receive" server.git/hooks/pre-receive
git clone -q server.git fr
git -C fr config user.name "France player" && git -C fr config user.email france@example.org
push_refused() {  # name text: the last commit of fr pushed, refused with text
	local before
	before=$(git -C server.git rev-parse main)
	git -C fr push origin main > push.out 2>&1 && fail "$1: push accepted: $(cat push.out)"
	grep -q '^remote: refused: ' push.out || fail "$1: no refusal from the hook: $(cat push.out)"
	grep -qF -- "$2" push.out || fail "$1: refusal without \"$2\": $(cat push.out)"
	[ "$(git -C server.git rev-parse main)" = "$before" ] || fail "$1: a refused push moved main"
	git -C fr reset -q --hard origin/main
	passed "$1"
}
sed -i 's/"name": "Allied player"/"name": "Allied loser"/' fr/game.json
git -C fr commit -qam "rename"
push_refused gm/push-game-json "game.json: not signed by the GM"
echo "allies namespaces=\"estafette-orders\" $(cat france.pub)" >> fr/keys/allowed_signers
git -C fr commit -qam "my key for allies too"
push_refused gm/push-keys "keys/allowed_signers: not signed by the GM"
sed -i 's/"turn"/"over"/' fr/state.json
git -C fr commit -qam "a better state"
push_refused gm/push-state "state.json: not signed by the GM, and a player's commit may change only orders/<player>.json"
mkdir -p fr/orders && cp forged.json fr/orders/allies.json && cp forged.json.sig fr/orders/allies.json.sig
git -C fr add orders && git -C fr commit -qm "orders: allies"
push_refused gm/push-other-players-orders 'orders/allies.json.sig: signed with the key of "france", but field "player" is "allies"'
mkdir -p fr/gm && cp act-gm.json fr/gm/0002-09.json && cp act-gm.json.sig fr/gm/0002-09.json.sig
git -C fr add gm && git -C fr commit -qm "gm: end"
push_refused gm/push-gm-act "gm/0002-09.json: not signed by the GM"

# ----------------------------------------------------------------- press
# La Guerre, sealed, three players: anne (France), bert (Austria, Britain), carl (Russia).
for p in anne bert carl; do ssh-keygen -q -t ed25519 -N '' -C "$p" -f "$p"; done
"$PY" -c 'import json
print(json.dumps({"players": [{"id": p, "name": p.title(), "email": p + "@example.org",
  "key": open(p + ".pub").read().strip()} for p in ("anne", "bert", "carl")]}))' > p3.json
"$ESTAFETTE" new lg --ruleset la-guerre --players p3.json --sealed --press full >/dev/null
# (La Guerre has no automatic set-up step: after the join, step 2 is anne's first move)
join lg anne bert carl
secret="PRESS-$RANDOM$RANDOM-for-bert-alone"
order lg anne 1 '[]' --press "[{\"to\": [\"bert\"], \"text\": \"$secret\"}]" > anne.json && sign anne anne.json
expect_exit 0 "$ESTAFETTE" submit lg anne.json
grep -qF "$secret" "$WORK/last.out" "$WORK/last.err" && fail "submit echoes the press text"
"$ESTAFETTE" run lg >/dev/null
"$ESTAFETTE" report lg --player bert > bert.txt
grep -qF "$secret" bert.txt || fail "bert's report lacks the press sent to bert (the check below would be blind)"
outbox=$ESTAFETTE_HOME/outbox/lg/pending
grep -qF "$secret" "$outbox"/0002-bert.eml || fail "bert's mail lacks the press"
for f in "$outbox"/*carl*; do grep -qF "$secret" "$f" && fail "press/a-to-b-not-in-c: $(basename "$f")"; done
for fmt in text html json; do
	"$ESTAFETTE" report lg --player carl --format "$fmt" > "carl.$fmt"
	grep -qF "$secret" "carl.$fmt" && fail "press: carl's $fmt report"
done
"$ESTAFETTE" report lg --format json > public.json
"$ESTAFETTE" status lg --json > status.json
grep -qF "$secret" public.json status.json && fail "press: the public report or status --json"
# carl sends orders of his own: his receipt holds no one else's press.
carl_step=$("$ESTAFETTE" status lg --json | json_get '" ".join(a["player"] for a in d["awaiting"])')
grep -qw carl <<< "$carl_step" || fail "step 3 does not await carl: $carl_step"
order lg carl 1 '[]' > carl.json && sign carl carl.json
"$PY" "$TOP/tests/helpers/make_mail.py" plain --order carl.json --sig carl.json.sig --from "Carl <carl@example.org>" \
	--to "GM <gm@example.org>" > carl.eml
expect_exit 0 "$ESTAFETTE" receive lg --json < carl.eml
[ "$(json_get 'd["status"]' < "$WORK/last.out")" = accepted ] || fail "carl's orders: $(cat "$WORK/last.out")"
grep -qF "$secret" "$WORK/last.out" && fail "press: carl's receive output"
for f in "$outbox"/receipt-*; do
	grep -q "carl@example.org" "$f" && grep -qF "$secret" "$f" && fail "press: carl's receipt $(basename "$f")"
done
# Every object of the game repository (what carl can clone).
# (each repository's objects to a file first: grep -q ending the pipe early would hide a hit under pipefail)
every_object() { git -C "$1" rev-list --objects --all | cut -d' ' -f1 | git -C "$1" cat-file --batch; }
every_object lg > lg.objects
grep -aqF "$secret" lg.objects && fail "press: an object of the game repository holds the private press"
every_object "$ESTAFETTE_HOME/games/lg/sealed.git" > sealed.objects
grep -aqF "$secret" sealed.objects || fail "press: the sealed store lacks the press (the repository check would be blind)"
passed press/a-to-b-not-in-c

# Press by mail (mailed as soon as it is recorded): to bert only.
"$ESTAFETTE" new lgm --ruleset la-guerre --players p3.json --press-by-mail >/dev/null
join lgm anne bert carl
order lgm anne 1 '[]' --press "[{\"to\": [\"bert\"], \"text\": \"$secret\"}]" > anne-m.json && sign anne anne-m.json
expect_exit 0 "$ESTAFETTE" submit lgm anne-m.json
box=$ESTAFETTE_HOME/outbox/lgm/pending
grep -qF "$secret" "$box"/press-*-bert.eml || fail "press by mail: bert's message lacks it: $(ls "$box")"
for f in "$box"/*; do
	case $(basename "$f") in *bert*) continue ;; esac
	# anne's own receipt lists the press she sent
	grep -q "^To: .*anne@example.org" "${f%.*}.eml" 2>/dev/null && continue
	grep -qF "$secret" "$f" && fail "press/by-mail-to-b-only: $(basename "$f") holds it: $(grep -a "^To:" "$f")"
done
grep -l "^To: .*anne@example.org" "$box"/receipt-*.eml | xargs -r grep -lF "$secret" | grep -q . ||
	fail "press/by-mail-to-b-only: anne's receipt does not list the press she sent"
grep -l "^To: .*carl@example.org" "$box"/*.eml 2>/dev/null | xargs -r grep -lF "$secret" | grep -q . &&
	fail "press/by-mail-to-b-only: a message to carl holds it"
passed press/by-mail-to-b-only

# ------------------------------------------------------ decision/standing
# bert holds Austria and Britain, carl Russia. A standing order for a power
# one does not hold, in one's own file, is refused; so is one signed by
# another's key.
order lg carl 2 '[{"type": "standing", "at": "Bavaria", "step": 4, "option": "retreat", "to": "Bohemia", "power": "Austria"}]' > st.json
sign carl st.json
refused 65 'st.json: orders[0].power: Austria is not among the powers this step awaits from you (Russia)' \
	"$ESTAFETTE" submit lg st.json
passed decision/standing-order-for-power-not-held
order lg bert 1 '[{"type": "standing", "at": "Bavaria", "step": 4, "option": "bombard", "power": "Austria"}]' > st2.json
sign carl st2.json
refused 65 'st2.json.sig: signed with the key of "carl", but field "player" is "bert"' "$ESTAFETTE" submit lg st2.json
passed decision/standing-order-signed-by-another

# bert's standing order for Austria stays his: in the sealed game it is in
# no report of anne's or carl's and in no object of the game repository.
standing='{"type": "standing", "at": "Bavaria", "step": 4, "option": "retreat", "to": "Bohemia", "power": "Austria"}'
order lg bert 1 "[$standing]" > bert.json && sign bert bert.json
expect_exit 0 "$ESTAFETTE" submit lg bert.json
expect_exit 0 "$ESTAFETTE" run lg
grep -q "resolved step 3" "$WORK/last.out" || fail "step 3 of lg did not resolve: $(cat "$WORK/last.out")"
cat > standing.py <<'PY'
# standing.py FILE...: exit 0 if a JSON document in a FILE (or in a
# `git cat-file --batch` stream) holds Bavaria's step-4 standing order.
import json, sys
want = {"at": "Bavaria", "step": 4, "option": "retreat", "to": "Bohemia"}
def found(x):
    if isinstance(x, dict):
        return all(x.get(k) == v for k, v in want.items()) or any(found(v) for v in x.values())
    return isinstance(x, list) and any(found(v) for v in x)
def docs(data):
    if data[:1] in (b"{", b"["):
        yield data
        return
    pos = 0
    while pos < len(data):   # a cat-file --batch stream
        end = data.index(b"\n", pos)
        size = int(data[pos:end].split()[2])
        yield data[end + 1:end + 1 + size]
        pos = end + 1 + size + 1
for path in sys.argv[1:]:
    for doc in docs(open(path, "rb").read()):
        try:
            if found(json.loads(doc)):
                sys.exit(0)
        except ValueError:
            pass
sys.exit(1)
PY
for p in bert anne carl; do "$ESTAFETTE" report lg --player "$p" --format json > "st-$p.json"; done
"$PY" standing.py st-bert.json || fail "bert's own report lacks his standing order (the check would be blind)"
"$PY" standing.py st-anne.json && fail "decision/standing-order-hidden: anne's report shows bert's standing order"
"$PY" standing.py st-carl.json && fail "decision/standing-order-hidden: carl's report shows bert's standing order"
every_object lg > lg.objects
"$PY" standing.py lg.objects && fail "decision/standing-order-hidden: an object of the game repository holds it"
every_object "$ESTAFETTE_HOME/games/lg/sealed.git" > sealed.objects
"$PY" standing.py sealed.objects || fail "the sealed store lacks the standing order (the check would be blind)"
passed decision/standing-order-hidden

# The sample campaign, as tests/demo.sh creates it, to its first 5.612 decision.
SAMPLE=$TOP/turnfiles/la-guerre
field() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
(
	export ESTAFETTE_COMMIT_TIME
	ESTAFETTE_COMMIT_TIME=$(field "$SAMPLE/plan.json" 'd["clock"]')
	"$ESTAFETTE" new sample --ruleset la-guerre --id "$(field "$SAMPLE/plan.json" 'd["game"]')" \
		--players "$SAMPLE/players.json" --test-dice-secret "$(field "$SAMPLE/plan.json" 'd["secret"]')" \
		--dice-protocol "$(field "$SAMPLE/plan.json" 'd.get("dice_protocol", "v2")')" >/dev/null
	"$ESTAFETTE" run sample >/dev/null
	for o in "$SAMPLE"/orders/*.json; do
		kind=$("$ESTAFETTE" status sample --json | json_get 'd["kind"]')
		case $kind in battle-step-*) break ;; esac
		"$ESTAFETTE" submit sample "$o" >/dev/null
		"$ESTAFETTE" run sample >/dev/null
	done
)
"$ESTAFETTE" status sample --json > lgs.json
kind=$(json_get 'd["kind"]' < lgs.json)
case $kind in battle-step-*) ;; *) fail "the sample never reached a battle decision (at $kind)" ;; esac
want=$(json_get 'd["awaiting"][0]["player"]' < lgs.json)
other=$( [ "$want" = france ] && echo austria || echo france)
for p in "$want" "$other"; do install -m 600 "$SAMPLE/keys/$p" "key-$p"; done
h=$(head_of sample)
order sample "$other" 1 '[{"type": "option", "option": "retreat"}]' > dec.json && sign "key-$other" dec.json
refused 65 "player \"$other\" is not awaited" "$ESTAFETTE" submit sample dec.json
passed decision/battle-decision-by-wrong-player
order sample "$want" 1 '[{"type": "option", "option": "retreat"}]' > dec2.json && sign "key-$other" dec2.json
refused 65 "signed with the key of \"$other\", but field \"player\" is \"$want\"" "$ESTAFETTE" submit sample dec2.json
unchanged sample "$h" decision/battle-decision-signed-by-another
passed decision/battle-decision-signed-by-another

# ---------------------------------------------------------------- hidden
# Napoleonic Empire, unsealed and sealed: six steps, and at each the
# allies' hand never shows in anything france gets.
cards() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1]))
for c in d["cards"]: print(c["id"], c["name"], sep="\t")' "$1/rules/cards.json"; }
hand_of() {  # game player: card ids of the hand, from the GM's whole state
	"$ESTAFETTE" report "$1" --player "$2" --format json | json_get '" ".join(c["id"] for c in d["view"]["hand"])'
}
turn_orders() {  # game player: the discards the hand limit asks for, and nothing else
	"$ESTAFETTE" report "$1" --player "$2" --format json | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
hand = [c["id"] for c in d["view"]["hand"]]
print(json.dumps([{"type": "discard", "card": c} for c in hand[:max(0, len(hand) - 7)]]))'
}
# names FILE-of-ids: the ids and names of those cards, one a line
# (but not those the report templates name as examples: they are in every report)
names() {
	while read -r id; do cards "$g" | awk -F'\t' -v id="$id" '$1 == id {print $1; print $2}'; done |
		while read -r needle; do
			grep -rqF -- "$needle" "$TOP/templates/napoleonic-empire" || echo "$needle"
		done
}
# no_card TEXT-FILE WHAT: none of the allies' cards (hidden.txt) in the file
no_card() {
	local needle
	while read -r needle; do
		[ -n "$needle" ] || continue
		grep -qF -- "$needle" "$1" && fail "hidden/$kind: $2 shows \"$needle\", a card of the allies' hand"
	done < hidden.txt
	return 0
}
for kind in open sealed; do
	g=ne-$kind
	"$ESTAFETTE" new "$g" --ruleset napoleonic-empire --players players.json $([ $kind = sealed ] && echo --sealed) >/dev/null
	join "$g" france allies
	seen=0 err_checked=0 own=0
	for i in 1 2 3 4 5 6; do
		st=$("$ESTAFETTE" status "$g" --json)
		p=$(json_get 'd["awaiting"][0]["player"]' <<< "$st")
		k=$(json_get 'd["kind"]' <<< "$st")
		ah=$(hand_of "$g" allies)
		fh=$(hand_of "$g" france)
		# The allies' cards that france does not hold too (there is one deck: no card is in both).
		tr ' ' '\n' <<< "$ah" | grep . | names > hidden.txt || true
		if [ -s hidden.txt ]; then
			seen=$((seen + 1))
			for f in text html json; do
				"$ESTAFETTE" report "$g" --player france --format "$f" > fr.$f
				no_card fr.$f "france's $f report at step $i"
			done
			# Not blind: the allies' own report names them.
			"$ESTAFETTE" report "$g" --player allies --format text > al.text
			grep -qF -f hidden.txt al.text && own=$((own + 1))
			"$ESTAFETTE" report "$g" --format json > pub.json
			no_card pub.json "the public report at step $i"
			"$ESTAFETTE" status "$g" --json > st.json
			no_card st.json "status --json at step $i"
			for f in "$ESTAFETTE_HOME/outbox/$g/pending/"*france*; do
				[ -e "$f" ] || continue
				case $f in
				*.eml) # every part decoded (a base64 picture could hold any four letters by chance)
					"$PY" -c 'import email, email.policy, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.strict)
for h in ("Subject", "From", "To"): print(m[h])
for p in m.walk():
    if p.is_multipart() or p.get_content_type() == "image/png": continue
    c = p.get_content()
    print(c.decode("utf-8", "replace") if isinstance(c, bytes) else c)' "$f" > decoded.txt
					no_card decoded.txt "$(basename "$f")" ;;
				*) no_card "$f" "$(basename "$f")" ;;
				esac
			done
			# An order naming a card france does not hold: the same message for
			# a card of the allies' hand and a card of the deck, the card aside.
			if [ "$p" = france ] && [ "$k" = turn ] && [ "$err_checked" = 0 ]; then
				held=$(cut -d' ' -f1 <<< "$ah")
				free=$(cards "$g" | cut -f1 | grep -vxF -f <(tr ' ' '\n' <<< "$ah $fh" | grep .) | head -n 1)
				for c in "$held" "$free"; do
					order "$g" france 1 "[{\"type\": \"discard\", \"card\": \"$c\"}]" > "not-$c.json"
					sign france "not-$c.json"
					expect_exit 65 "$ESTAFETTE" submit "$g" "not-$c.json"
					sed "s/$c/CARD/g" "$WORK/last.err" > "msg-$c.txt"
					grep -q CARD "msg-$c.txt" || fail "hidden/$kind: the refusal does not name the card: $(cat "$WORK/last.err")"
				done
				cmp -s "msg-$held.txt" "msg-$free.txt" ||
					fail "hidden/$kind: a card of the allies' hand is refused otherwise than a card of the deck: $(cat "msg-$held.txt") / $(cat "msg-$free.txt")"
				grep -qi allies "msg-$held.txt" && fail "hidden/$kind: the refusal names the allies: $(cat "msg-$held.txt")"
				err_checked=1
			fi
		fi
		if [ "$p" = france ]; then order "$g" france 1 "$(turn_orders "$g" france)" > t.json; sign france t.json
		else order "$g" allies 1 "$( [ "$k" = turn ] && turn_orders "$g" allies || echo '[]')" > t.json; sign allies t.json; fi
		"$PY" "$TOP/tests/helpers/make_mail.py" plain --order t.json --sig t.json.sig \
			--from "$p <$p@example.org>" --to "GM <gm@example.org>" > t.eml
		expect_exit 0 "$ESTAFETTE" receive "$g" --json < t.eml
		[ "$(json_get 'd["status"]' < "$WORK/last.out")" = accepted ] || fail "$g step $i: $(cat "$WORK/last.out")"
		if [ "$p" = france ]; then no_card "$WORK/last.out" "france's receive output"; fi
		"$ESTAFETTE" run "$g" >/dev/null
	done
	[ "$seen" -ge 3 ] || fail "hidden/$kind: the allies held cards at only $seen steps (the check would be blind)"
	[ "$own" = "$seen" ] || fail "hidden/$kind: the allies' own report named their cards at $own of $seen steps"
	[ "$err_checked" = 1 ] || fail "hidden/$kind: no france turn while the allies held cards"
	# Every receipt to france, against the allies' hand at the end.
	hand_of "$g" allies | tr ' ' '\n' | grep . | names > hidden.txt
	[ -s hidden.txt ] || fail "hidden/$kind: the allies hold no card at the end (the check would be blind)"
	receipts=0
	for f in "$ESTAFETTE_HOME/outbox/$g/pending/"receipt-*.eml; do
		grep -q '^To: .*france@example.org' "$f" || continue
		# (the join's receipt is checked too, but not counted: it comes before any hand)
		grep -q '^Subject: .*your orders for step 1 were recorded' "$f" || receipts=$((receipts + 1))
		no_card "$f" "the receipt $(basename "$f")"
	done
	[ "$receipts" -ge 3 ] || fail "hidden/$kind: only $receipts receipts to france for its moves"
	passed "hidden/$kind-reports-receipts-errors-status"
done

# Sealed: every object of every ref of the game repository, at every step,
# holds no hand of the allies' (as the list it is in the state) before the reveal.
g=ne-sealed
SEALED=$ESTAFETTE_HOME/games/$g/sealed.git
last=$("$ESTAFETTE" status "$g" --json | json_get 'd["step"] - 1')
for t in $(seq 1 "$last"); do git -C "$SEALED" show "main:steps/$(printf %04d "$t")/state.json"; echo; done > whole.json
# Each object with the step that made it ("STEP OID"), the objects of no step
# tag as step 0 (the strictest).
for t in $(seq 0 "$last"); do
	git -C "$g" rev-list --objects "step-$(printf %04d "$t")" \
		$([ "$t" -gt 0 ] && echo --not "step-$(printf %04d $((t - 1)))") | cut -d' ' -f1 |
		sed "s/^/$t /"
done > stepped.oids
git -C "$g" rev-list --objects --all | cut -d' ' -f1 | sort -u |
	{ grep -vxF -f <(cut -d' ' -f2 stepped.oids) || true; } | sed 's/^/0 /' >> stepped.oids
cat > hands.py <<'PY'
import json, os, re, subprocess, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.environ["TOP"], "tests", "helpers"))
from states import read_states
repo, oids, whole = sys.argv[1:4]
states = read_states(whole)
# The set-up's state.json lists the deck in card-list order, before any shuffle
# or deal: a hand of neighbours in that order would match it.
step0 = subprocess.run(["git", "-C", repo, "rev-parse", "-q", "--verify", "step-0000:state.json"],
                       capture_output=True, text=True).stdout.strip()
# Each hand of two cards or more (state t is step t's, from 1) and the first
# step whose discard pile holds all its cards: from then on they are public,
# maybe in the hand's order (a discard order lists cards as the hand held
# them), so only objects made before that step must not show the hand.
hands = []
for t, st in enumerate(states, 1):
    for side, h in st["hands"].items():
        if len(h) >= 2:
            public = next((d for d, later in enumerate(states, 1) if d > t and
                           isinstance(later.get("discard"), list) and set(h) <= set(later["discard"])),
                          None)
            hands.append((h, public))
assert hands, "no hand of two cards or more in the whole states: the check would be blind"
stepped = [line.split() for line in open(oids)]
made = {oid: int(step) for step, oid in stepped}
data = subprocess.run(["git", "-C", repo, "cat-file", "--batch"],
                      input="".join(oid + "\n" for oid in made).encode(),
                      capture_output=True, check=True).stdout
pos = n = 0
def arrays(x):
    if isinstance(x, list):
        if x and all(isinstance(e, str) for e in x):
            yield frozenset(x)
        for e in x:
            yield from arrays(e)
    elif isinstance(x, dict):
        for e in x.values():
            yield from arrays(e)
while pos < len(data):
    end = data.index(b"\n", pos)
    oid, kind, size = data[pos:end].split()
    body = data[end + 1:end + 1 + int(size)]
    pos = end + 1 + int(size) + 1
    n += 1
    if kind != b"blob":
        continue
    if oid.decode() == step0:
        continue
    step = made[oid.decode()]
    live = [h for h, public in hands if public is None or step < public]
    for h in live:
        if re.search(r'"\s*,\s*"'.join(map(re.escape, h)).encode(), body):
            sys.exit(f"FAIL: blob {oid.decode()} (step {step}) holds a hand in sequence: {h}")
    try:
        doc = json.loads(body)
    except ValueError:
        continue
    sets = {frozenset(h) for h in live}
    for a in arrays(doc):
        if a in sets:
            sys.exit(f"FAIL: blob {oid.decode()} (step {step}) holds a hand as a list: {sorted(a)}")
print(f"{n} objects, {len(hands)} hands: none reachable before it was played")
PY
"$PY" hands.py "$g" stepped.oids whole.json || fail "hidden/sealed-no-hand-in-any-blob"
# Not blind: the same walk over the GM's sealed store finds the hands.
git -C "$SEALED" rev-list --objects --all | cut -d' ' -f1 | sort -u | sed 's/^/0 /' > sealed.oids
"$PY" hands.py "$SEALED" sealed.oids whole.json > /dev/null 2>&1 && fail "hidden: the hand check finds nothing in the sealed store"
passed hidden/sealed-no-hand-in-any-blob

git -C ne fsck --strict --no-progress || fail "git fsck --strict (ne)"
git -C ne-sealed fsck --strict --no-progress || fail "git fsck --strict (ne-sealed)"
echo "isolation: $checks checks held"
