#!/bin/bash
# Keys are parsed, never pasted (docs/protocol.md
# "The repository"). A key string holding a line break would have written a line of
# its own into keys/allowed_signers: Mallory, a player, signing as the GM or
# as another player. `new` and `gm replace` refuse such keys, and every
# other key that is not one line of a .pub file (options, a second key, an
# RSA key in a second encoding that would take a second seat), and write
# nothing; a game whose step 0 holds a line estafette would not write is
# refused as damaged (66) by every command, and fails its audit.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
for p in france allies mallory newallies; do ssh-keygen -q -t ed25519 -N '' -C "$p@laptop" -f "$p"; done
ssh-keygen -q -t rsa -b 2048 -N '' -C prussia@box -f prussia
"$ESTAFETTE" keygen gm -C gm@example.org >/dev/null
M=$(cut -d' ' -f1,2 mallory.pub)

# players FILE FRANCE-KEY ALLIES-KEY: a players file, the keys JSON-quoted by Python.
players() {
	"$PY" - "$@" <<'PY'
import json, sys
out, fr, al = sys.argv[1:4]
json.dump({"players": [
    {"id": "france", "name": "France player", "email": "france@example.org", "key": fr},
    {"id": "allies", "name": "Allied player", "email": "allies@example.org", "key": al}]},
    open(out, "w"))
PY
}

# The RSA key of a .pub file with a needless zero byte in front of e or n: the same key.
reencode() {  # PUB e|n
	"$PY" - "$@" <<'PY'
import base64, struct, sys
typ, b64 = open(sys.argv[1]).read().split()[:2]
blob = base64.b64decode(b64)
fields, off = [], 0
while off < len(blob):
    n, = struct.unpack(">I", blob[off:off + 4])
    fields.append(blob[off + 4:off + 4 + n])
    off += 4 + n
i = {"e": 1, "n": 2}[sys.argv[2]]
fields[i] = b"\0" + fields[i]
print(typ, base64.b64encode(b"".join(struct.pack(">I", len(f)) + f for f in fields)).decode())
PY
}

nothing_written() {  # GAME-DIR
	[ ! -e "$1" ] || fail "a refused new left $1"
	[ -z "$(ls -A "$ESTAFETTE_HOME/games" 2>/dev/null)" ] || fail "a refused new left secrets: $(ls "$ESTAFETTE_HOME/games")"
	[ -z "$(ls -d "$1".new-* 2>/dev/null)" ] || fail "a refused new left its temporary folder"
}

refuse_new() {  # label players-file words... (each a grep -F of the message)
	local label=$1 file=$2; shift 2
	expect_exit 65 "$ESTAFETTE" new "g-$label" --ruleset napoleonic-empire --players "$file" --gm-signing-key gm
	for w in "$@"; do
		grep -qF -- "$w" "$WORK/last.err" || fail "$label: expected \"$w\": $(cat "$WORK/last.err")"
	done
	nothing_written "g-$label"
}

# --- new: the attack itself, a second line smuggled in a key string ---
players gm-line.json "$(cat france.pub)
gm namespaces=\"estafette-gm,git\" $M" "$(cat allies.pub)"
refuse_new gm-line gm-line.json "gm-line.json: players[0].key: public key: holds a line break (\n)" \
	"copy that line again, without anything after it"
players forge-allies.json "$(cat mallory.pub)" "$(cat allies.pub)
france namespaces=\"estafette-orders\" $M"
refuse_new forge-allies forge-allies.json "forge-allies.json: players[1].key: public key: holds a line break"
players cr.json "$(cat france.pub)"$'\r'"gm namespaces=\"estafette-gm,git\" $M" "$(cat allies.pub)"
refuse_new cr cr.json "cr.json: players[0].key: public key: holds a carriage return (\r)"
players opts.json "namespaces=\"estafette-gm,git\" $(cat france.pub)" "$(cat allies.pub)"
refuse_new opts opts.json "opts.json: players[0].key: public key: starts with options" "give the key alone"
players two.json "$(cat france.pub) $M" "$(cat allies.pub)"
refuse_new two two.json "two.json: players[0].key: public key: holds a second key"

# One key, one seat: the same RSA key written with a needless zero byte in e, or in n.
for part in e n; do
	players "zero-$part.json" "$(cat prussia.pub)" "$(reencode prussia.pub "$part")"
	refuse_new "zero-$part" "zero-$part.json" "zero-$part.json: players[1].key: public key: the RSA" \
		"needless leading zero byte" "$(ssh-keygen -l -f prussia.pub | cut -d' ' -f2)"
done
# An RSA key with e = 1 signs for anyone: tests/helpers/forge_rsa.py makes such a key and a
# signature by it without any private key.
players e1.json "$("$PY" "$TOP/tests/helpers/forge_rsa.py" pub prussia.pub)" "$(cat allies.pub)"
refuse_new e1 e1.json "e1.json: players[0].key: public key: ssh-rsa public key" "is no RSA key" \
	"anyone could sign as it"
# The same key with two comments is still one key.
players comments.json "$(cat france.pub)" "$(cut -d' ' -f1,2 france.pub) someone-else"
refuse_new comments comments.json "players[0] and players[1] have the same key"

# The GM's key: one line of a .pub file, and no player's.
printf '%s\nfrance namespaces="estafette-orders" %s\n' "$(cat gm.pub)" "$M" > two-lines.pub
players ok.json "$(cat france.pub)" "$(cat allies.pub)"
expect_exit 65 "$ESTAFETTE" new g-gmkey --ruleset napoleonic-empire --players ok.json --gm-key two-lines.pub
grep -qF -- "--gm-key two-lines.pub: public key: holds a line break" "$WORK/last.err" || fail "gm key: $(cat "$WORK/last.err")"
nothing_written g-gmkey
expect_exit 65 "$ESTAFETTE" new g-gmkey --ruleset napoleonic-empire --players ok.json --gm-key france.pub
grep -qF "is also the key of player \"france\"" "$WORK/last.err" || fail "gm key of a player: $(cat "$WORK/last.err")"
nothing_written g-gmkey

# --- what new writes: one canonical line per key, no comment, the GM's last ---
players game.json "$(cat prussia.pub)" "$(cat allies.pub)"
expect_exit 0 "$ESTAFETTE" new game --ruleset napoleonic-empire --players game.json --gm-signing-key gm
printf 'france namespaces="estafette-orders" %s\nallies namespaces="estafette-orders" %s\ngm namespaces="estafette-gm,estafette-receipt,git" %s\n' \
	"$(cut -d' ' -f1,2 prussia.pub)" "$(cut -d' ' -f1,2 allies.pub)" "$(cut -d' ' -f1,2 gm.pub)" > want
cmp want game/keys/allowed_signers || fail "keys/allowed_signers: $(cat game/keys/allowed_signers)"
# game.json keeps the key as the players file gave it.
json_get 'd["players"][1]["key"]' < game/game.json | grep -qxF "$(cat allies.pub)" || fail "game.json's key"
# ssh-keygen and git read it.
"$ESTAFETTE" run game >/dev/null
git -C game -c gpg.format=ssh -c gpg.ssh.allowedSignersFile="$WORK/game/keys/allowed_signers" \
	verify-commit main 2>&1 | grep -q 'Good "git" signature for gm' || fail "git does not read the keys"

# --- gm replace: the same rules for the new player's key ---
replace_refused() {  # key-file words...
	local file=$1 before; shift
	before=$(git -C game rev-parse main)
	expect_exit 65 "$ESTAFETTE" gm game replace --player allies --name "New Allied player" \
		--email new@example.org --key "$file" --reason "Bert left"
	for w in "$@"; do
		grep -qF -- "$w" "$WORK/last.err" || fail "gm replace $file: expected \"$w\": $(cat "$WORK/last.err")"
	done
	[ "$(git -C game rev-parse main)" = "$before" ] || fail "a refused replace committed"
	[ ! -e game/gm ] || fail "a refused replace left an act: $(ls game/gm)"
	cmp want game/keys/allowed_signers || fail "a refused replace changed the keys"
}
# --key reads the file's first line, so the line break cannot come through; other controls can.
printf '%s\vgm namespaces="estafette-gm,git" %s\n' "$(cat newallies.pub)" "$M" > vt.pub
replace_refused vt.pub "gm replace: players[1].key: public key: holds a control character"
printf 'gm namespaces="estafette-gm,git" %s\n' "$M" > as-gm.pub
replace_refused as-gm.pub "gm replace: players[1].key: public key: the key type \"gm\" is not one estafette accepts"
printf '%s %s\n' "$(cat newallies.pub)" "$M" > second.pub
replace_refused second.pub "gm replace: players[1].key: public key: holds a second key"
reencode prussia.pub e > zero.pub
replace_refused zero.pub "gm replace: players[1].key: public key: the RSA exponent e is written with a needless leading zero byte"
replace_refused gm.pub "the GM's key" "is also the key of player \"allies\""
"$ESTAFETTE" gm game replace --player allies --name "New Allied player" --email new@example.org \
	--key newallies.pub --reason "Bert left" >/dev/null
grep -qxF "allies namespaces=\"estafette-orders\" $(cut -d' ' -f1,2 newallies.pub)" game/keys/allowed_signers ||
	fail "the replacement's line: $(cat game/keys/allowed_signers)"
expect_exit 0 "$ESTAFETTE" audit game

# --- a game whose step 0 holds a line estafette would not write is damaged ---
# damaged NAME SCRIPT: a fresh game whose step-0 commit gets SCRIPT's change, committed with git by
# its GM, who holds the GM key (commit and tag signed, so that the audit reaches the keys), tag moved.
damaged() {
	"$ESTAFETTE" new "$1" --ruleset napoleonic-empire --players game.json --gm-signing-key gm >/dev/null
	(cd "$1" && eval "$2" && git add -A &&
		gm_git . commit -q --amend --no-edit &&
		gm_git . tag -s -f -m "step 0000" step-0000 main >/dev/null)
}
refused_open() {  # game words...
	local g=$1 cmd; shift
	for cmd in status run; do
		expect_exit 66 "$ESTAFETTE" "$cmd" "$g"
		for w in "$@" "so at main the repository is damaged" "make the game again with estafette new"; do
			grep -qF -- "$w" "$WORK/last.err" || fail "$g $cmd: expected \"$w\": $(cat "$WORK/last.err")"
		done
	done
	"$ESTAFETTE" audit "$g" --json > audit.json 2>/dev/null && fail "$g: audit passed"
	json_get 'd["failure"]["file"] + " at step " + str(d["failure"]["step"]) + ": " + d["failure"]["message"]' < audit.json |
		grep -qF "keys/allowed_signers at step 0: $1" || fail "$g: audit: $(cat audit.json)"
	git -C "$g" fsck --no-progress >/dev/null 2>&1 || fail "$g: git fsck"
}
damaged d-gm "echo 'gm namespaces=\"estafette-gm,git\" $M' >> keys/allowed_signers"
refused_open d-gm "keys/allowed_signers line 4 (principal \"gm\" namespaces=\"estafette-gm,git\") is one estafette does not write"
damaged d-forge "sed -i '1a allies namespaces=\"estafette-orders\" $M' keys/allowed_signers"
refused_open d-forge "keys/allowed_signers line 2 lists key $(ssh-keygen -l -f mallory.pub | cut -d" " -f2) for \"allies\", but game.json gives $(ssh-keygen -l -f allies.pub | cut -d" " -f2)"
damaged d-zero "sed -i '1s|.*|france namespaces=\"estafette-orders\" $(reencode prussia.pub n)|' keys/allowed_signers"
refused_open d-zero "keys/allowed_signers line 1: public key: the RSA modulus n is written with a needless leading zero byte"
damaged d-option "sed -i '2s|namespaces=\"estafette-orders\"|namespaces=\"estafette-orders\",valid-after=\"20200101Z\"|' keys/allowed_signers"
refused_open d-option "keys/allowed_signers line 2: is not a line estafette writes"
# The very game the old paste made: game.json holds the two-line key, allowed_signers its lines.
damaged d-old "$PY -c '
import json
g = json.load(open(\"game.json\"))
g[\"players\"][0][\"key\"] += \"\\ngm namespaces=\\\"estafette-gm,git\\\" $M\"
json.dump(g, open(\"game.json\", \"w\"), indent=2, sort_keys=True)
' && sed -i '1a gm namespaces=\"estafette-gm,git\" $M' keys/allowed_signers"
refused_open d-old "game.json: players[0].key: public key: holds a line break"

# Lines as estafette wrote them before it dropped comments still open and audit.
damaged d-legacy "sed -i 's/\$/ someone@laptop/' keys/allowed_signers"
expect_exit 0 "$ESTAFETTE" status d-legacy
expect_exit 0 "$ESTAFETTE" run d-legacy
expect_exit 0 "$ESTAFETTE" audit d-legacy

# run --all names the damaged game's line, and runs the others.
mkdir all && mv d-gm d-legacy all/
expect_exit 66 "$ESTAFETTE" run --all all --no-mail
grep -qF "keys/allowed_signers line 4 (principal \"gm\"" "$WORK/last.out" "$WORK/last.err" ||
	fail "run --all: $(cat "$WORK/last.out" "$WORK/last.err")"
grep -q "^d-legacy: " "$WORK/last.out" || fail "run --all did not run d-legacy: $(cat "$WORK/last.out")"
echo "key_lines: ok"
