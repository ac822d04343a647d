#!/bin/bash
# Remake the seed corpora of tests/fuzz/corpus/<target>/ from the project's
# real files: the signed sample order files of turnfiles/, signatures made
# here by the real ssh-keygen (Ed25519 from turnfiles' test keys, ECDSA
# P-256 and RSA 3072 from new keys), mails written by
# tests/helpers/make_mail.py as tests/integration/mail_intake.sh sends them,
# and the project's templates. Run from anywhere; it replaces the corpus.
# The seeds are small (each < 64 KB, all < 1 MB): libFuzzer grows its own
# copy when `make fuzz` runs, never this one.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
corpus=$top/tests/fuzz/corpus
PY=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$corpus"
mkdir -p "$corpus"/{orders,sshsig,mail,mustache,rules}

# orders: the first two order files of each sample game, and shapes the
# samples lack (a commitment, a GM act, press, wait).
for dir in "$top"/internal/rulesets/*/; do
	game=$(basename "$dir")
	[ "$game" != common ] && [ -d "$top/turnfiles/$game/orders" ] || continue
	for f in $(ls "$top/turnfiles/$game/orders/"*.json | head -n 2); do
		cp "$f" "$corpus/orders/$game-$(basename "$f")"
	done
done
prev=3f2a9c0d1e4b5a6978c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6
hex=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
printf '{"estafette": "commitment/1", "game": "ne-001", "step": 7, "player": "france", "prev": "%s", "seq": 1, "sha256": "%s"}\n' \
	"$prev" "$hex" > "$corpus/orders/commitment.json"
printf '{"estafette": "gm/1", "game": "ne-001", "step": 7, "player": "gm", "prev": "%s", "seq": 1, "act": "extend", "hours": 24, "at": "2025-11-24T12:00:00Z", "reason": "holiday"}\n' \
	"$prev" > "$corpus/orders/gm-act.json"
printf '{"estafette": "orders/1", "game": "ne-001", "step": 7, "player": "france", "prev": "%s", "seq": 3, "entropy": "%s", "wait": true,\n "orders": [], "press": [{"to": "all", "text": "Vive l\\u2019Empereur"}, {"to": ["allies"], "text": "peace?"}]}\n' \
	"$prev" "$hex" > "$corpus/orders/press-wait.json"

# rules: the order arrays of each ruleset's sample game, as "NAME NUL",
# byte STATE (the k-th order file goes with the k-th state), byte POWER
# (index among those awaited), the orders.
"$PY" - "$top" "$corpus/rules" <<'PY'
import json, os, sys
top, out = sys.argv[1:]
rulesets = os.path.join(top, "internal", "rulesets")
for game in sorted(n for n in os.listdir(rulesets) if n != "common" and os.path.isdir(os.path.join(rulesets, n))):
    d = os.path.join(top, "turnfiles", game, "orders")
    if not os.path.isdir(d):
        continue
    for k, name in enumerate(sorted(n for n in os.listdir(d) if n.endswith(".json"))[:6]):
        orders = json.load(open(os.path.join(d, name)))["orders"]
        body = json.dumps(orders, indent=1).encode()
        with open(os.path.join(out, "%s-%s" % (game, name)), "wb") as f:
            f.write(game.encode() + bytes([0, k, 0]) + body)
PY

# sshsig: SIGNATURE NUL ALLOWED_SIGNERS NUL DATA.
seed_sig() {  # name sigfile allowed datafile
	{ cat "$2"; printf '\0'; printf '%s' "$3"; printf '\0'; cat "$4"; } > "$corpus/sshsig/$1"
}
ne=$top/turnfiles/napoleonic-empire
f2=$ne/orders/0002-france.json
line() { echo "$1 namespaces=\"estafette-orders\"$2 $(cut -d' ' -f1,2 "$3")"; }
allowed="$(line france "" "$ne/keys/france.pub")
$(line allies "" "$ne/keys/allies.pub")
"
seed_sig ed25519 "$f2.sig" "$allowed" "$f2"
seed_sig ed25519-valid "$f2.sig" "# a comment line

france,\"fr*\" valid-after=\"20250101\",valid-before=\"20300101Z\",namespaces=\"estafette-orders,git\" $(cut -d' ' -f1,2 "$ne/keys/france.pub") france@x
" "$f2"
seed_sig ed25519-wrong-key "$f2.sig" "$(line france "" "$ne/keys/allies.pub")
" "$f2"
cp "$f2" "$work/data"
for kt in "ecdsa -b 256" "rsa -b 3072"; do
	name=${kt%% *}
	ssh-keygen -q -t $kt -N '' -C fuzz -f "$work/$name"
	ssh-keygen -q -Y sign -f "$work/$name" -n estafette-orders "$work/data" < /dev/null
	seed_sig "$name" "$work/data.sig" "$(line france "" "$work/$name.pub")
" "$work/data"
	rm -f "$work/data.sig"
done
printf '%s' "$(cut -d' ' -f1,2 "$ne/keys/france.pub")" > "$work/key"
seed_sig pubkey-only /dev/null "" "$work/key"

# mail: the styles mail_intake.sh sends, around a signed sample order.
for style in plain attachments alternative html-only qp base64 latin1 crlf flowed autoreply bounce list \
	text-attachment renamed sig-attached wrapped truncated; do
	"$PY" "$top/tests/helpers/make_mail.py" "$style" --order "$f2" --sig "$f2.sig" \
		--from "France player <france@example.org>" --to "GM <gm@example.org>" > "$corpus/mail/$style.eml"
done
f3=$ne/orders/0003-allies.json
[ -f "$f3" ] || f3=$(ls "$ne"/orders/*.json | sed -n 2p)
for style in reply forward; do
	"$PY" "$top/tests/helpers/make_mail.py" "$style" --order "$f3" --sig "$f3.sig" --older "$f2" --older-sig "$f2.sig" \
		--from "France player <france@example.org>" --to "GM <gm@example.org>" > "$corpus/mail/$style.eml"
done

# mail for the GM: players' mail without orders as four clients write it, and the
# servers' bounces of tests/mail/bounces/ with their placeholders filled in.
for style in thunderbird gmail outlook iphone; do
	"$PY" "$top/tests/helpers/make_mail.py" "$style" --from "France player <france@example.org>" \
		--to "Game <orders@example.org>" --subject "Away" > "$corpus/mail/client-$style.eml"
done
for f in "$top"/tests/mail/bounces/*.eml; do
	sed -e 's/{MSGID}/abc.0001.france@estafette/g' -e 's/{RCPT}/france@example.org/g' \
		-e 's/{ORDERS}/orders@example.org/g' "$f" > "$corpus/mail/bounce-$(basename "$f")"
done

# mustache: TEMPLATE NUL DATA NUL PARTIAL: each project template with data
# in the shape reports give, and the partial and delimiter forms.
data='{"game": "ne-demo", "step": 7, "title": "Turn <7> & more", "over": false, "winner": null,
 "powers": [{"name": "France", "armies": 12, "you": true}, {"name": "Allies", "armies": 9}],
 "events": [{"type": "battle", "text": "France wins at Ulm"}], "map": {"width": 800, "height": 600}}'
for t in "$top"/templates/*/*.mustache; do
	n=$(basename "$(dirname "$t")")-$(basename "$t" .mustache)
	{ cat "$t"; printf '\0%s\0' "$data"; printf '{{#powers}}<li>{{name}}</li>{{/powers}}'; } > "$corpus/mustache/$n"
done
printf '{{=<%% %%>=}}<%% title %%> <%%={{ }}=%%>{{#events}}{{>ev}}{{/events}}\0%s\0{{text}}{{^over}}!{{/over}}' \
	"$data" > "$corpus/mustache/delimiters-partials"
printf '{{>self}}\0{}\0[{{>self}}]' > "$corpus/mustache/partial-recursion"
du -sh "$corpus"
