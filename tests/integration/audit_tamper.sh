#!/bin/bash
# `estafette audit` on the signed sample game (replayed as sample_game.sh
# does): the untouched game passes, with and without --json; each cheat a
# GM or a player could try, done on a fresh copy of the repository with the
# real git, fails the audit with exit 65, and the message (stderr, and the
# "failure" of --json) names the step, the file and the check that do not
# hold. Cheats come two ways: a new commit on top of main that edits a past
# step, and history rewritten so that the step's own commit (and tag) holds
# the cheat, up to a GM who recomputes every public hash and seed so that
# only the signature check is left to catch a forged order. The sample game
# is built once; every cheat works on its own copy.
# Every game has signed history (`new` gives it a GM key), and the cheater
# who can do all of this is the GM, who holds that key: its commits and step
# tags are signed with it (gm_git), so the audit gets past the signatures
# check to the one each cheat is about. (q2) is made on a small game without
# signed history, the only kind where the check it is about can be reached;
# last, (r) to (r3), edits by someone without the GM key (a git host) fail
# the signatures check.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
export DEMO_DIR=$WORK/demo
DEMO_GAMES=napoleonic-empire B=${B:-build} bash "$TOP/tests/demo.sh" > "$WORK/demo.log" 2>&1 ||
	fail "the demo failed: $(tail -20 "$WORK/demo.log")"
game=$DEMO_DIR/napoleonic-empire/game
# The hidden-chain secret of the deck shuffles lives here, as for `run`.
export ESTAFETTE_HOME=$DEMO_DIR/home
KEYS=$TOP/turnfiles/napoleonic-empire/keys
last=$(($(git -C "$game" tag --list 'step-*' | wc -l) - 1))
[ "$last" -ge 9 ] || fail "the sample game resolves only $last steps"

# g COPY args: git in a copy, as the cheating GM: commits signed with the
# game's GM key (gm_git); a step tag must be made with `tag -s` (gm_tag).
g() {
	gm_git "$@"
}

# gm_tag COPY TAG REV: TAG re-pointed to REV as the GM makes a step tag, an
# annotated tag signed with the GM key, with the original tag's subject.
gm_tag() {
	local dir=$1 tag=$2 rev=$3 subject
	subject=$(git -C "$dir" tag --list --format='%(contents:subject)' "$tag")
	[ -n "$subject" ] || subject="${tag/-/ }"
	g "$dir" tag -s -f -m "$subject" "$tag" "$rev" >/dev/null
}

# copy NAME: a fresh copy of the untouched game; prints its path.
copy() {
	cp -a "$game" "$WORK/$1"
	echo "$WORK/$1"
}

# edit_json FILE EXPR: run the Python statement EXPR on `d` (FILE's JSON)
# and write it back; the file must change.
edit_json() {
	local before
	before=$(sha256sum < "$1")
	"$PY" - "$1" "$2" <<'PY'
import json, sys
path, expr = sys.argv[1], sys.argv[2]
with open(path) as f:
    d = json.load(f)
exec(expr)
with open(path, "w") as f:
    json.dump(d, f, indent=2, ensure_ascii=False)
    f.write("\n")
PY
	[ "$(sha256sum < "$1")" != "$before" ] || fail "edit_json did not change $1"
}

# reset_to_step COPY STEP: main and the work tree back at tag step-NNNN.
reset_to_step() {
	g "$1" reset -q --hard "$(printf 'step-%04d' "$2")"
}

# rewrite_step COPY STEP FILES (after reset_to_step and an edit of FILES,
# a sorted space-separated list of paths):
# STEP's own commit amended with the edit (same parent, message and
# trailers), tag step-NNNN re-pointed to it; later steps are dropped.
rewrite_step() {
	local dir=$1 step=$2 file=$3 tag t orig
	tag=$(printf 'step-%04d' "$step")
	orig=$(git -C "$dir" rev-parse "$tag^{commit}")
	g "$dir" add -A
	g "$dir" commit -q --amend --no-edit
	gm_tag "$dir" "$tag" HEAD
	[ "$(git -C "$dir" diff --no-renames --name-only "$orig" "$tag" | sort | xargs)" = "$file" ] ||
		fail "rewrite_step: $tag does not differ in exactly $file"
	[ "$(git -C "$dir" rev-parse "$orig^")" = "$(git -C "$dir" rev-parse "$tag^")" ] ||
		fail "rewrite_step: $tag has another parent"
	for t in $(git -C "$dir" tag --list 'step-*'); do
		[ "$((10#${t#step-}))" -gt "$step" ] && git -C "$dir" tag -d "$t" >/dev/null
	done
	[ "$(git -C "$dir" rev-parse main)" = "$(git -C "$dir" rev-parse HEAD)" ] ||
		fail "rewrite_step: main is not the rewritten step"
}

# caught NAME COPY STEP FILE_RE WORD_RE [CHECK]: audit the copy; it must
# exit 65, name STEP and a word of WORD_RE on stderr (and FILE_RE if not
# empty), and --json must say {"ok": false, "failure": {"step": STEP,
# "file": ~FILE_RE}} (and "check": CHECK when CHECK is given, else any check
# but "signatures": the cheats without CHECK are the GM's, signed).
caught() {
	local name=$1 dir=$2 step=$3 file_re=$4 word_re=$5 check=${6:-} step_re msg
	step_re="(step[ -]?#?0*${step}([^0-9]|\$)|turns/0*${step}/)"
	expect_exit 65 "$ESTAFETTE" audit "$dir"
	msg=$(cat "$WORK/last.err")
	[ -n "$msg" ] || fail "$name: audit printed no message"
	grep -qiE "$step_re" <<<"$msg" || fail "$name: the message does not name step $step: $msg"
	grep -qiE "$word_re" <<<"$msg" || fail "$name: the message does not say /$word_re/: $msg"
	if [ -n "$file_re" ]; then
		grep -qE "$file_re" <<<"$msg" || fail "$name: the message does not name /$file_re/: $msg"
	fi
	expect_exit 65 "$ESTAFETTE" audit "$dir" --json
	"$PY" - "$WORK/last.out" "$step" "$file_re" "$check" <<'PY' || fail "$name: audit --json: $(cat "$WORK/last.out")"
import json, re, sys
out, step, file_re, check = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
d = json.load(open(out))
f = d.get("failure")
assert d.get("ok") is False, "ok is not false"
assert isinstance(f, dict), "no failure"
for k in ("step", "file", "check", "message"):
    assert k in f, "failure has no " + k
assert f["step"] == step, "failure.step is %r, not %d" % (f["step"], step)
assert not file_re or re.search(file_re, f["file"] or ""), "failure.file is %r" % f["file"]
assert not check or f["check"] == check, "failure.check is %r, not %r" % (f["check"], check)
# A cheat of the GM's own (signed with its key) must get past the signatures check.
assert check or f["check"] != "signatures", "failure.check is signatures: %s" % f["message"]
PY
	echo "caught $name: $(head -1 <<<"$msg")"
}

# 1. The untouched game passes, and the audit changes nothing.
head=$(git -C "$game" rev-parse main)
expect_exit 0 "$ESTAFETTE" audit "$game"
expect_exit 0 "$ESTAFETTE" audit "$game" --json
"$PY" - "$WORK/last.out" "$last" "$(commits "$game")" <<'PY' || fail "audit --json on the untouched game: $(cat "$WORK/last.out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is True and d["failure"] is None, "not ok"
assert d["steps"] == int(sys.argv[2]), "steps %r" % d["steps"]
assert d["checked"]["steps"] >= int(sys.argv[2]) and d["checked"]["rolls"] > 0, d["checked"]
# Every step resolved again has its four derived files compared (the sample
# game has a map), and every file under turns/NNNN/orders/ was matched.
assert d["checked"]["derived"] == 4 * d["checked"]["steps"], d["checked"]
assert d["checked"]["order_files"] >= 2 * d["checked"]["orders"], d["checked"]
checks = {c["check"]: c for c in d["checks"]}
for name in ("history", "setup", "dice", "orders", "accepted", "orders folder", "rolls", "state", "derived"):
    assert name in checks and checks[name]["count"] > 0 and checks[name]["what"], (name, d["checks"])
assert checks["derived"]["count"] == d["checked"]["derived"] and checks["derived"]["steps_not_checked"] == 0
# Signed history: every commit of main is the GM's (the sample game's orders
# come in through submit, which the GM's estafette commits), every step tag too.
assert "signatures" in checks, d["checks"]
assert d["checked"]["signed_commits"] == int(sys.argv[3]) and d["checked"]["player_commits"] == 0, d["checked"]
assert d["checked"]["signed_tags"] == int(sys.argv[2]) + 1, d["checked"]
PY
grep -qE "all $last steps hold \($last steps resolved again, [0-9]+ orders .*, [0-9]+ rolls, [0-9]+ files under turns/\*/orders/ .*, $((4 * last)) derived files" \
	<<<"$("$ESTAFETTE" audit "$game")" || fail "the summary does not say what was checked: $("$ESTAFETTE" audit "$game")"
[ "$(git -C "$game" rev-parse main)" = "$head" ] || fail "the audit moved main"
[ -z "$(git -C "$game" status --porcelain)" ] || fail "the audit left changes in the work tree"
echo "untouched game: audit ok ($last steps)"

# 2a. A new commit on top of main edits a past step's roll.
c=$(copy cheat-a)
edit_json "$c/turns/0005/dice.json" 'd["rolls"][0]["value"] = d["rolls"][0]["value"] % d["rolls"][0]["sides"] + 1'
g "$c" commit -q -a -m "fix a roll"
caught "(a) past roll edited" "$c" 5 'turns/0005/dice\.json' 'roll|dice|edit|chang|differ|commit|after'

# 2b. A new commit on top of main edits a past order file (still valid JSON).
c=$(copy cheat-b)
edit_json "$c/turns/0004/orders/france.json" 'd["orders"][0]["to"] = "Naples" if d["orders"][0]["to"] != "Naples" else "Italy"'
g "$c" commit -q -a -m "fix an order"
caught "(b) past order edited" "$c" 4 'turns/0004/orders/france\.json' 'sha|hash|manifest|signature|edit|chang|differ|commit|after'

# 2c. History rewritten: step 7's own commit holds another state.json.
c=$(copy cheat-c)
reset_to_step "$c" 7
edit_json "$c/state.json" 'd["state"]["countries"]["France"]["France"] += 5'
rewrite_step "$c" 7 state.json
caught "(c) step 7 state rewritten" "$c" 7 '(^|[^/[:alnum:]])state\.json' 'state'

# 2d. A step dropped: its tag deleted and its folder removed in a new commit.
c=$(copy cheat-d)
git -C "$c" tag -d step-0006 >/dev/null
g "$c" rm -q -r turns/0006
g "$c" commit -q -m "drop step 6"
caught "(d) step 6 dropped" "$c" 6 '' 'miss|absent|gap|tag|drop|delet|remov|no step'

# 2e. Order files swapped between players: in the sample game each step has
# one player's orders, so step 5's allies order is renamed to france's.
c=$(copy cheat-e)
g "$c" mv turns/0005/orders/allies.json turns/0005/orders/france.json
g "$c" mv turns/0005/orders/allies.json.sig turns/0005/orders/france.json.sig
g "$c" commit -q -m "swap orders"
caught "(e) step 5 orders swapped" "$c" 5 'turns/0005/orders/(allies|france)\.json' \
	'player|signer|signature|manifest|miss|sha|edit|chang|differ|commit|after'

# 2f. An order re-signed with the other player's key, committed in place.
c=$(copy cheat-f)
install -m 600 "$KEYS/allies" "$WORK/allies.key"
rm "$c/turns/0004/orders/france.json.sig"
ssh-keygen -q -Y sign -f "$WORK/allies.key" -n estafette-orders "$c/turns/0004/orders/france.json" 2>/dev/null ||
	fail "ssh-keygen -Y sign"
git -C "$c" diff --quiet -- turns/0004/orders/france.json.sig && fail "the re-signed .sig did not change"
g "$c" commit -q -a -m "re-sign"
caught "(f) step 4 order re-signed by allies" "$c" 4 'turns/0004/orders/france\.json(\.sig)?' \
	'signature|signer|sign|key|sha|manifest|edit|chang|differ|commit|after'

# 2g. History rewritten: step 8 reveals a chain value that does not hash to
# step 7's (the seed is left as recorded).
c=$(copy cheat-g)
reset_to_step "$c" 8
edit_json "$c/turns/0008/dice.json" 'import hashlib; d["reveal"] = hashlib.sha256(b"not the chain").hexdigest()'
rewrite_step "$c" 8 turns/0008/dice.json
caught "(g) step 8 reveal changed" "$c" 8 'turns/0008/dice\.json' 'reveal|chain'

# The same cheats made inside the step's own commit (history rewritten, the
# step's tag re-pointed), so that the check of the step itself must catch
# them rather than the comparison of main with the step's commit.
c=$(copy cheat-a2)
reset_to_step "$c" 5
edit_json "$c/turns/0005/dice.json" 'd["rolls"][0]["value"] = d["rolls"][0]["value"] % d["rolls"][0]["sides"] + 1'
rewrite_step "$c" 5 turns/0005/dice.json
caught "(a2) step 5 roll rewritten" "$c" 5 'turns/0005/dice\.json' 'roll'

c=$(copy cheat-b2)
reset_to_step "$c" 4
edit_json "$c/turns/0004/orders/france.json" 'd["orders"][0]["to"] = "Naples" if d["orders"][0]["to"] != "Naples" else "Italy"'
rewrite_step "$c" 4 turns/0004/orders/france.json
caught "(b2) step 4 order rewritten" "$c" 4 'turns/0004/orders/france\.json' 'sha|hash|manifest|digest'

c=$(copy cheat-e2)
reset_to_step "$c" 5
g "$c" mv turns/0005/orders/allies.json turns/0005/orders/france.json
g "$c" mv turns/0005/orders/allies.json.sig turns/0005/orders/france.json.sig
rewrite_step "$c" 5 "turns/0005/orders/allies.json turns/0005/orders/allies.json.sig turns/0005/orders/france.json turns/0005/orders/france.json.sig"
caught "(e2) step 5 orders swapped in history" "$c" 5 'turns/0005/orders/(allies|france)\.json' \
	'player|signer|signature|manifest|miss|sha|not found|no such'

# The re-signed order in history: its signature's SHA-256 no longer matches
# the manifest (f2); with the manifest's signature_sha256 forged to match,
# the manifest no longer has the SHA-256 dice.json recorded, from which the
# step seed was drawn (f3).
c=$(copy cheat-f2)
reset_to_step "$c" 4
rm "$c/turns/0004/orders/france.json.sig"
ssh-keygen -q -Y sign -f "$WORK/allies.key" -n estafette-orders "$c/turns/0004/orders/france.json" 2>/dev/null ||
	fail "ssh-keygen -Y sign"
rewrite_step "$c" 4 turns/0004/orders/france.json.sig
caught "(f2) step 4 order re-signed in history" "$c" 4 'turns/0004/orders/france\.json(\.sig)?' \
	'signature|signer|sha|manifest'

c=$(copy cheat-f3)
reset_to_step "$c" 4
rm "$c/turns/0004/orders/france.json.sig"
ssh-keygen -q -Y sign -f "$WORK/allies.key" -n estafette-orders "$c/turns/0004/orders/france.json" 2>/dev/null ||
	fail "ssh-keygen -Y sign"
sigsha=$(sha256sum < "$c/turns/0004/orders/france.json.sig" | cut -d' ' -f1)
edit_json "$c/turns/0004/manifest.json" "d['orders'][0]['signature_sha256'] = '$sigsha'"
rewrite_step "$c" 4 "turns/0004/manifest.json turns/0004/orders/france.json.sig"
caught "(f3) step 4 order re-signed, manifest forged" "$c" 4 'turns/0004/' 'signature|signer|manifest|seed'

# forge_order7 COPY: in the work tree (at step 7), step 7's order re-signed
# with allies' key, and the manifest and dice.json recomputed to match.
forge_order7() {
	local c=$1 sigsha
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["rolls"] == [] and d.get("hidden_rolls", 0) == 0' \
		"$c/turns/0007/dice.json" || fail "step 7 of the sample game drew dice: pick another step for (f4) and (h)"
	rm "$c/turns/0007/orders/france.json.sig"
	ssh-keygen -q -Y sign -f "$WORK/allies.key" -n estafette-orders "$c/turns/0007/orders/france.json" 2>/dev/null ||
		fail "ssh-keygen -Y sign"
	sigsha=$(sha256sum < "$c/turns/0007/orders/france.json.sig" | cut -d' ' -f1)
	edit_json "$c/turns/0007/manifest.json" "d['orders'][0]['signature_sha256'] = '$sigsha'"
	"$PY" - "$c/turns/0007" ne-demo 7 <<'PY' || fail "forge_order7: cannot recompute the seed"
import hashlib, hmac, json, struct, sys
folder, game, step = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3])
enc = lambda b: struct.pack(">I", len(b)) + b
def seed(reveal, manifest_sha):
    msg = enc(b"estafette/dice/v1/step") + enc(game) + struct.pack(">I", step) + enc(manifest_sha)
    return hmac.new(reveal, msg, hashlib.sha256).hexdigest()
path = folder + "/dice.json"
d = json.load(open(path))
reveal = bytes.fromhex(d["reveal"])
# The formula must give the seed the GM recorded before it forges one.
assert seed(reveal, bytes.fromhex(d["manifest_sha256"])) == d["seed"], "seed formula"
manifest_sha = hashlib.sha256(open(folder + "/manifest.json", "rb").read()).digest()
d["manifest_sha256"] = manifest_sha.hex()
d["seed"] = seed(reveal, manifest_sha)
with open(path, "w") as f:
    json.dump(d, f, indent=2, ensure_ascii=False)
    f.write("\n")
PY
}

# (f4) The same at step 7, which drew no dice, by a GM who recomputes
# everything public: the manifest's signature_sha256, dice.json's
# manifest_sha256 and seed (docs/protocol.md "Dice protocol v2", from the revealed value in
# dice.json). Rolls and state stay as they were, so only the signature check
# itself can catch it.
c=$(copy cheat-f4)
reset_to_step "$c" 7
forge_order7 "$c"
rewrite_step "$c" 7 "turns/0007/dice.json turns/0007/manifest.json turns/0007/orders/france.json.sig"
caught "(f4) step 7 order re-signed by allies, manifest and seed recomputed" "$c" 7 \
	'turns/0007/orders/france\.json(\.sig)?' 'signature|signer|sign'

# (h) The GM lists its own key (here allies' test key) for france in
# keys/allowed_signers, in the commit that took step 7's orders (history
# rewritten), and forges france's order of step 7 as in (f4): the keys a
# step is checked with must be the players' keys of game.json.
c=$(copy cheat-h)
g "$c" reset -q --hard step-0007^
echo "france namespaces=\"estafette-orders\" $(cut -d' ' -f1-2 "$KEYS/allies.pub") GM-KEY" \
	>> "$c/keys/allowed_signers"
g "$c" commit -q -a --amend --no-edit
g "$c" read-tree -u --reset step-0007
echo "france namespaces=\"estafette-orders\" $(cut -d' ' -f1-2 "$KEYS/allies.pub") GM-KEY" \
	>> "$c/keys/allowed_signers"
forge_order7 "$c"
g "$c" add -A
g "$c" commit -q -C step-0007
gm_tag "$c" step-0007 HEAD
for t in $(git -C "$c" tag --list 'step-*'); do
	[ "$((10#${t#step-}))" -gt 7 ] && git -C "$c" tag -d "$t" >/dev/null
done
[ "$(git -C "$c" diff --no-renames --name-only step-0006 step-0007^ | xargs)" = \
	"keys/allowed_signers orders/france.json orders/france.json.sig" ] || fail "(h): the orders commit"
caught "(h) GM key listed for france, step 7 order forged" "$c" 7 \
	'keys/allowed_signers|turns/0007/orders/france\.json(\.sig)?' 'key|signer|signature|allowed'

# What players read, rewritten in the step's own commit (history rewritten,
# the tag re-pointed), so that only rendering the step again catches it:
# (i) a line of the public report, (j) an event, (k) the map; (l) a file
# slipped in among the step's resolved orders, in the step's commit and (l2)
# in a new commit on top of main; (i2) the report edited on top of main.
c=$(copy cheat-i)
reset_to_step "$c" 6
sed -i '0,/^WHAT HAPPENED/s//WHAT HAPPENED (as the GM tells it)/' "$c/turns/0006/report.txt"
rewrite_step "$c" 6 turns/0006/report.txt
caught "(i) step 6 report.txt line changed" "$c" 6 'turns/0006/report\.txt' 'render|not what|derived'

c=$(copy cheat-i2)
sed -i '0,/^WHAT HAPPENED/s//WHAT HAPPENED (as the GM tells it)/' "$c/turns/0006/report.txt"
g "$c" commit -q -a -m "reword the report"
caught "(i2) step 6 report.txt edited on top of main" "$c" 6 'turns/0006/report\.txt' 'chang|differ|after'

c=$(copy cheat-j)
reset_to_step "$c" 5
edit_json "$c/turns/0005/events.json" 'd["events"][0]["text"] = "The Allies surrender."'
rewrite_step "$c" 5 turns/0005/events.json
caught "(j) step 5 events.json edited" "$c" 5 'turns/0005/events\.json' 'render|not what|derived|resolved again'

c=$(copy cheat-k)
reset_to_step "$c" 8
grep -q '</svg>' "$c/turns/0008/map.svg" || fail "(k): step 8 has no SVG map"
sed -i 's|</svg>|<text x="0" y="0">Paris has fallen</text></svg>|' "$c/turns/0008/map.svg"
rewrite_step "$c" 8 turns/0008/map.svg
caught "(k) step 8 map.svg changed" "$c" 8 'turns/0008/map\.svg' 'render|not what|derived'

c=$(copy cheat-l)
reset_to_step "$c" 4
printf '{"note": "the GM was here"}\n' > "$c/turns/0004/orders/extra.json"
rewrite_step "$c" 4 turns/0004/orders/extra.json
caught "(l) extra file in step 4's orders" "$c" 4 'turns/0004/orders/extra\.json' 'manifest|not a file|list'

c=$(copy cheat-l2)
cp "$c/turns/0004/orders/france.json" "$c/turns/0004/orders/france-2.json"
g "$c" add -A
g "$c" commit -q -m "one more order"
caught "(l2) extra file in step 4's orders on top of main" "$c" 4 'turns/0004/orders/france-2\.json' 'manifest|not a file|list'

# A file beside a step's own, (o) added on top of main and (o2) slipped into the
# step's commit: no step wrote it, whatever it tells the players.
c=$(copy cheat-o)
echo "France wins." > "$c/turns/0006/README.md"
g "$c" add -A
g "$c" commit -q -m "a note on step 6"
caught "(o) a file added to turns/0006 on top of main" "$c" 6 'turns/0006' 'added|changed|afterwards'

c=$(copy cheat-o2)
reset_to_step "$c" 6
echo "France wins." > "$c/turns/0006/report.md"
rewrite_step "$c" 6 turns/0006/report.md
caught "(o2) a file slipped into step 6's commit" "$c" 6 'turns/0006' 'no file a step writes'

# (p) A player the step never awaited, listed as missing, with the manifest's hash
# and the seed made again to match (a v1 game: the seed is over the manifest).
c=$(copy cheat-p)
reset_to_step "$c" 5
"$PY" - "$c" "$TOP/tests/helpers" <<'PY'
import sys
repo = sys.argv[1]
sys.path.insert(0, sys.argv[2])
import forge_step as fs
m, d = fs.load(repo, "turns/0005/manifest.json"), fs.load(repo, "turns/0005/dice.json")
m["missing"].append({"player": "zz1", "powers": [], "policy": "ghost"})
fs.reseed(repo, 5, m, d)
PY
rewrite_step "$c" 5 "turns/0005/dice.json turns/0005/manifest.json"
caught "(p) a player step 5 did not await, listed as missing" "$c" 5 'turns/0005/manifest\.json' 'did not await'

# (q) A step's tag re-pointed to a twin of its commit made off main (the same tree
# and parent): what the step saw (templates, acts, keys) could then be what no
# commit of main ever held. The GM signs the twin and the tag; in a game with
# signed history a step tag must tag a commit of main the GM signed, so the
# signatures check (which runs before the steps are checked one by one) is the
# one that catches it.
c=$(copy cheat-q)
twin=$(g "$c" commit-tree -S "step-0006^{tree}" -p "step-0006^" -m "step 6, off main")
gm_tag "$c" step-0006 "$twin"
caught "(q) step 6's tag off main's history" "$c" 6 'step-0006' "not a commit of main" signatures

# (q2) The same in a game without signed history, where only the check that a
# step's tag is on main's history can catch it. Such a game is made here with
# --gm-key FILE.pub (the GM's public key only, so `new` cannot sign and the
# game is not a signed-history one, as every game was before); its step 1 is
# the join, made by the two players of make_players.
mkdir "$WORK/plain"
(
	cd "$WORK/plain"
	export ESTAFETTE_HOME=$WORK/plain/home ESTAFETTE_COMMIT_TIME=1764000000
	make_players
	ssh-keygen -q -t ed25519 -N '' -C gm -f gm
	"$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json --id plain \
		--gm-key gm.pub >/dev/null || fail "(q2): new --gm-key"
	[ "$(json_get 'd.get("signed_history", False)' < game/game.json)" = False ] ||
		fail "(q2): a game made with --gm-key FILE.pub has signed history: $(cat game/game.json)"
	"$ESTAFETTE" run game >/dev/null || fail "(q2): the first run"
	join game france=france allies=allies
	git -C game rev-parse -q --verify step-0001 >/dev/null || fail "(q2): no step 1"
	expect_exit 0 "$ESTAFETTE" audit game
	c=$WORK/plain/game
	twin=$(git -C "$c" -c user.name=gm -c user.email=gm@example.org \
		commit-tree "step-0001^{tree}" -p "step-0001^" -m "step 1, off main")
	git -C "$c" -c user.name=gm -c user.email=gm@example.org \
		tag -f -m "step 0001" step-0001 "$twin" >/dev/null
	caught "(q2) step 1's tag off main's history, no signed history" "$c" 1 'step-0001' \
		"not in main's history" history
)

# Someone without the GM key (a git host, a stranger with push access) can
# make neither a commit the GM signed nor a step tag: whatever it changes
# fails the signatures check. host COPY args: git as such a one.
host() {
	local dir=$1; shift
	git -C "$dir" -c user.name=Host -c user.email=host@example.org \
		-c commit.gpgsign=false -c tag.gpgsign=false "$@"
}

# (r) The roll edit of (a), in an unsigned commit on top of main: a commit of
# the step to come (step last+1) that is no player's order files.
c=$(copy cheat-r)
edit_json "$c/turns/0005/dice.json" 'd["rolls"][0]["value"] = d["rolls"][0]["value"] % d["rolls"][0]["sides"] + 1'
host "$c" commit -q -a -m "fix a roll"
caught "(r) past roll edited without the GM key" "$c" $((last + 1)) 'fix a roll' \
	"not the GM's.*no signature.*turns/0005/dice\.json" signatures

# (r2) Step 6's signed tag replaced by a lightweight one on the same commit.
c=$(copy cheat-r2)
host "$c" tag -f step-0006 "step-0006^{commit}" >/dev/null
caught "(r2) step 6's tag replaced without the GM key" "$c" 6 'step-0006' \
	"tag step-0006 is not the GM's.*lightweight" signatures

# (r3) The state rewrite of (c), history rewritten without the GM key: step 7's
# commit amended unsigned, its tag re-pointed as a lightweight one.
# The unsigned commit is caught at its first change that is no player's own
# order file (a step's commit moves orders/<player>.json under turns/).
c=$(copy cheat-r3)
host "$c" reset -q --hard step-0007
edit_json "$c/state.json" 'd["state"]["countries"]["France"]["France"] += 5'
host "$c" commit -q -a --amend --no-edit
host "$c" tag -f step-0007 HEAD >/dev/null
caught "(r3) step 7 state rewritten without the GM key" "$c" 7 '' \
	"commit [0-9a-f]{7} \"step 0007: [^\"]*\" is not the GM's \(it carries no signature\)" signatures

echo "audit_tamper: the untouched game passes; 28 cheats caught"
