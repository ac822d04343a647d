#!/bin/bash
# Pull-request play: a two-player game on a bare "server" repository with
# hooks/pre-receive installed, player clones with hooks/pre-commit, GM
# runners with hooks/run-and-push, and hooks/check-pull-request as CI would
# run it. Good signed orders are accepted; every kind of tampering is
# refused with a message that names the rule; two runners racing on one due
# step leave exactly one step on the server, and the history still audits.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
export ESTAFETTE
H=$TOP/hooks

mkdir keys
(cd keys && make_players)   # keys/france, keys/allies: the players' SSH keys
"$ESTAFETTE" keygen keys/gm -C gm@example.org >/dev/null
chmod 600 keys/gm
"$ESTAFETTE" new game --ruleset napoleonic-empire --players keys/players.json --gm-signing-key keys/gm \
	--id ne-pr >/dev/null
git clone -q --bare game server.git
cp "$H/pre-receive" server.git/hooks/pre-receive
for r in runner1 runner2; do
	git clone -q server.git "$r"
	git -C "$r" config estafette.signingkey "$WORK/keys/gm"
done
for p in france allies; do
	git clone -q server.git "$p"
	git -C "$p" config user.name "$p player"
	git -C "$p" config user.email "$p@example.org"
	cp "$H/pre-commit" "$p/.git/hooks/pre-commit"
	mkdir -p "$p/orders"
done

# order DIR PLAYER SEQ [ORDERS]: an order file bound to DIR's main, on stdout.
order() { "$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$1" "$2" "$3" "${4:-[]}"; }
# sign KEY FILE: FILE.sig by KEY (a player's name), as the player would.
sign() { rm -f "$2.sig"; ssh-keygen -q -Y sign -f "$WORK/keys/$1" -n estafette-orders "$2"; }
server() { git -C "$WORK/server.git" rev-parse "$1"; }
sync_clone() { git -C "$1" fetch -q origin && git -C "$1" checkout -q -f -B main origin/main && mkdir -p "$1/orders"; }
awaited() { "$ESTAFETTE" status server.git --json | json_get '" ".join(a["player"] for a in d["awaiting"] if not a["received"])'; }
push_ok() {  # DIR git-push-args...
	local dir=$1; shift
	git -C "$dir" push "$@" >"$WORK/push.out" 2>&1 || fail "push from $dir refused: $(cat "$WORK/push.out")"
}
push_refused() {  # DIR TEXT git-push-args...: refused, and the server says TEXT
	local dir=$1 text=$2 before
	shift 2
	before=$(server main)
	! git -C "$dir" push "$@" >"$WORK/push.out" 2>&1 || fail "push from $dir accepted, expected \"$text\": $(cat "$WORK/push.out")"
	grep -q '^remote: refused: ' "$WORK/push.out" || fail "no refusal from the hook: $(cat "$WORK/push.out")"
	grep -qF -- "$text" "$WORK/push.out" || fail "refusal without \"$text\": $(cat "$WORK/push.out")"
	[ "$(server main)" = "$before" ] || fail "a refused push moved main"
}
gm_signed() {  # verify-commit|verify-tag OBJECT, against the game's own keys
	git -C server.git -c gpg.format=ssh -c gpg.ssh.allowedSignersFile="$WORK/game/keys/allowed_signers" \
		"$1" "$2" 2>&1 | grep -q '^Good "git" signature for gm with '
}

# Step 1 (the shuffle) is automatic: the runner resolves and publishes it.
expect_exit 0 "$H/run-and-push" runner1
grep -q "pushed main" "$WORK/last.out" || fail "run-and-push: $(cat "$WORK/last.out")"
[ "$(server main)" = "$(git -C runner1 rev-parse main)" ] || fail "the server's main is not the runner's"
gm_signed verify-tag step-0001 || fail "step-0001 on the server is not the GM's"
[ "$(awaited)" = france ] || fail "step 2 should await france, not: $(awaited)"

# --- Refusals, each from a player's clone at step 2 ---------------------
sync_clone france
# A change outside orders/: the player's pre-commit refuses it, and so does
# the server when the hook is skipped.
echo ' ' >> france/state.json
git -C france add state.json
expect_exit 1 git -C france commit -qm "a better state"
grep -q "state.json: a player's commit may change only orders/" "$WORK/last.err" || fail "pre-commit: $(cat "$WORK/last.err")"
git -C france commit -q --no-verify -m "a better state"
push_refused france "state.json: not signed by the GM, and a player's commit may change only orders/<player>.json" origin main
sync_clone france

# An order for france signed with the allies' key.
order france france 1 > france/orders/france.json
ssh-keygen -q -Y sign -f keys/allies -n estafette-orders france/orders/france.json
git -C france add orders
expect_exit 1 git -C france commit -qm "orders: france"
grep -q 'signed with the key of "allies"' "$WORK/last.err" || fail "pre-commit: $(cat "$WORK/last.err")"
git -C france commit -q --no-verify -m "orders: france"
push_refused france 'orders/france.json.sig: signed with the key of "allies", but field "player" is "france"' origin main
sync_clone france

# Another player's orders: france's own signed orders put in allies' file.
order france france 1 > france/orders/allies.json
sign france france/orders/allies.json
git -C france add orders
git -C france commit -q --no-verify -m "orders: allies"
push_refused france 'orders/allies.json: holds the orders of "france"' origin main
sync_clone france

# A forged step: the state and a turn folder, in a commit nobody signed.
echo ' ' >> france/state.json
mkdir -p france/turns/0002 && echo '{}' > france/turns/0002/manifest.json
git -C france add -A
git -C france commit -q --no-verify -m "step 0002: France wins"
push_refused france "not signed by the GM" origin main
grep -qF "turns/0002/manifest.json: not signed by the GM" "$WORK/push.out" || fail "forged step: $(cat "$WORK/push.out")"
# ... nor may a player push a tag, lightweight or signed with their own key.
git -C france tag step-0002
push_refused france "refs/tags/step-0002: a lightweight tag" origin step-0002
git -C france tag -d step-0002 >/dev/null
git -C france -c gpg.format=ssh -c user.signingkey="$WORK/keys/france" tag -s -m "step 0002" step-0002
push_refused france "refs/tags/step-0002: not signed by the GM" origin step-0002
git -C france tag -d step-0002 >/dev/null
sync_clone france

# A player adding their own key as the GM's, in a commit that key signs:
# judged by the keys of the old main, it is not the GM's.
# (first in the file, so that ssh-keygen finds principal gm for that key)
sed -i "1i gm namespaces=\"estafette-gm,git\" $(cat keys/france.pub)" france/keys/allowed_signers
git -C france -c gpg.format=ssh -c user.signingkey="$WORK/keys/france" commit -q -S --no-verify -am "one more GM"
git -C france -c gpg.format=ssh -c gpg.ssh.allowedSignersFile="$WORK/france/keys/allowed_signers" \
	verify-commit HEAD 2>&1 | grep -q '^Good "git" signature for gm' ||
	fail "the self-made GM key should verify against its own allowed_signers"
push_refused france "keys/allowed_signers: not signed by the GM" origin main
sync_clone france

# A force-push rewriting main (dropping the GM's step 1).
git -C france reset -q --hard step-0000
order game france 1 > france/orders/france.json
sign france france/orders/france.json
git -C france add orders
git -C france commit -q --no-verify -m "orders: france, on the old main"
push_refused france "is not a fast-forward; main only grows" --force origin main
push_refused france "deleting main is not allowed" origin :main
sync_clone france

# --- Step 2: france pushes good signed orders (through the pre-commit) ---
order france france 1 > france/orders/france.json
sign france france/orders/france.json
git -C france add orders
expect_exit 0 git -C france commit -qm "orders: france for step 2"
push_ok france origin main
[ "$(server main)" = "$(git -C france rev-parse main)" ] || fail "france's orders did not land"
expect_exit 0 "$H/run-and-push" runner1
[ "$(awaited)" = allies ] || fail "step 3 should await allies, not: $(awaited)"
git -C server.git show main:turns/0002/orders/france.json | cmp - france/orders/france.json ||
	fail "the resolved order is not the one france pushed"

# --- Step 3: allies through a pull request; CI checks it ----------------
sync_clone allies
git -C allies checkout -q -b orders-allies
order allies allies 1 > allies/orders/allies.json
sign allies allies/orders/allies.json
git -C allies add orders
# Opened by france's account: the signature counts, not the author.
git -C allies -c user.name=france -c user.email=france@example.org commit -qm "orders: allies for step 3"
push_ok allies origin orders-allies
expect_exit 0 env -C allies "$H/check-pull-request" --json origin/main orders-allies
"$PY" -c 'import json,sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is True, d
files = {f["file"]: f for f in d["files"]}
assert set(files) == {"orders/allies.json", "orders/allies.json.sig"}, files
assert all(f["level"] == "notice" and f["line"] == 1 for f in d["files"]), d
assert "valid orders of allies for step 3" in files["orders/allies.json"]["message"], d' "$WORK/last.out" ||
	fail "check-pull-request --json on a good pull request: $(cat "$WORK/last.out")"

# A bad pull request: allies' orders signed by france, and a state change.
git -C allies checkout -q -b bad-pr origin/main && mkdir -p allies/orders
order allies allies 1 > allies/orders/allies.json
sign france allies/orders/allies.json
echo ' ' >> allies/state.json
git -C allies add -A
git -C allies commit -q --no-verify -m "orders: allies (forged)"
expect_exit 1 env -C allies "$H/check-pull-request" origin/main bad-pr
grep -q '^refused  orders/allies.json: orders/allies.json.sig: signed with the key of "france"' "$WORK/last.out" ||
	fail "bad pull request: $(cat "$WORK/last.out")"
grep -q '^refused  state.json: ' "$WORK/last.out" || fail "bad pull request: $(cat "$WORK/last.out")"
expect_exit 1 env -C allies "$H/check-pull-request" --json origin/main bad-pr
"$PY" -c 'import json,sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is False, d
bad = {f["file"] for f in d["files"] if f["level"] == "error"}
assert {"orders/allies.json", "orders/allies.json.sig", "state.json"} <= bad, d' "$WORK/last.out" ||
	fail "check-pull-request --json on a bad pull request: $(cat "$WORK/last.out")"
# The server refuses the same branch.
push_refused allies 'signed with the key of "france"' origin bad-pr

# A player's commit after a GM step in one push: the runner resolves
# step 3 locally (allies' orders merged), and a france commit rides on it.
push_ok allies origin orders-allies:main
push_ok allies origin :orders-allies     # a merged branch may go
git -C allies notes add -m "a note" HEAD
push_refused allies "refs/notes/commits: only branches (refs/heads/...) and the GM's tags" origin refs/notes/commits
sync_clone runner2
"$ESTAFETTE" run runner2 >/dev/null && mkdir -p runner2/orders
order runner2 france 1 > runner2/orders/france.json
sign france runner2/orders/france.json
git -C runner2 add orders
git -C runner2 -c user.name=france -c user.email=france@example.org commit -qm "orders: france for step 4"
push_refused runner2 "a player's commit after the GM's step" origin main
grep -qF "push orders after the step lands" "$WORK/push.out" || fail "$(cat "$WORK/push.out")"

# --- Racing runners on the due step 3 ------------------------------------
# runner2 still holds its own (unpushed) step 3 and a stray commit. It runs
# through a wrapper that pauses after `run`, so runner1 pushes first and
# runner2 must drop its step, take runner1's and find nothing due. (Two
# runs in the same second make byte-identical steps -- same orders, dice,
# date and deterministic Ed25519 signatures -- and both pushes succeed;
# ESTAFETTE_COMMIT_TIME dates runner2's a minute earlier, so they differ.)
cat > slow-estafette <<SH
#!/bin/bash
"$ESTAFETTE" "\$@"; rc=\$?
[ "\$1" = run ] && sleep 3
exit \$rc
SH
chmod +x slow-estafette
before=$(server main)
t=$(date +%s)
# runner2 keeps its own outbox (a copy of the GM's home, with the dice secrets).
cp -a "$ESTAFETTE_HOME" home2
ESTAFETTE_HOME=$WORK/home2 ESTAFETTE=$WORK/slow-estafette ESTAFETTE_COMMIT_TIME=$((t - 60)) \
	"$H/run-and-push" runner2 >r2.out 2>&1 & r2=$!
sleep 0.5
"$H/run-and-push" runner1 >r1.out 2>&1 & r1=$!
wait "$r1" || fail "runner1 failed: $(cat r1.out)"
wait "$r2" || fail "runner2 failed: $(cat r2.out)"
grep -q "moved to .*(another runner pushed first)" r2.out || fail "runner2 did not lose the race: $(cat r1.out r2.out)"
grep -q "pushed main" r1.out || fail "runner1 did not push: $(cat r1.out)"
[ "$(git -C server.git rev-list --count "$before..main")" -eq 1 ] || fail "not exactly one new step commit"
git -C server.git log -1 --format=%s main | grep -q '^step 0003' || fail "the new commit is not step 3"
for r in runner1 runner2; do
	[ "$(git -C "$r" rev-parse main)" = "$(server main)" ] || fail "$r's main is not the server's"
	[ "$(git -C "$r" rev-parse step-0003)" = "$(server step-0003)" ] || fail "$r's step-0003 tag is not the server's"
done
[ "$(awaited)" = france ] || fail "step 4 should await france, not: $(awaited)"
# The loser's reports of its own step 3 were dropped and the winner's queued:
# their Date is the winning commit's (runner2's own is a minute earlier).
won=$(git -C server.git log -1 --format=%cD step-0003 | sed 's/+0000$//')
for p in france allies; do
	eml=home2/outbox/ne-pr/pending/0003-$p.eml
	grep -q "^Date: $won" "$eml" || fail "runner2's report $eml is not the winner's step: $(grep ^Date: "$eml") vs $won"
done

# Step 4 through main, then both runners at once, neither slowed.
sync_clone france
order france france 1 > france/orders/france.json
sign france france/orders/france.json
git -C france add orders
git -C france commit -qm "orders: france for step 4"
push_ok france origin main
before=$(server main)

# A runner without the GM's key makes unsigned steps: the server refuses
# them, and run-and-push says so rather than retrying.
git clone -q server.git runner3
expect_exit 1 "$H/run-and-push" runner3
grep -q "refused the push, and not because main moved" "$WORK/last.err" || fail "runner3: $(cat "$WORK/last.err")"
grep -q "remote: refused: commit .* not signed by the GM" "$WORK/last.err" || fail "runner3: $(cat "$WORK/last.err")"
[ "$(server main)" = "$before" ] || fail "an unsigned step reached the server"
t=$(date +%s)
ESTAFETTE_COMMIT_TIME=$t "$H/run-and-push" runner1 >r1.out 2>&1 & r1=$!
ESTAFETTE_COMMIT_TIME=$((t - 60)) "$H/run-and-push" runner2 >r2.out 2>&1 & r2=$!
wait "$r1" || fail "runner1 failed: $(cat r1.out)"
wait "$r2" || fail "runner2 failed: $(cat r2.out)"
[ "$(git -C server.git rev-list --count "$before..main")" -eq 1 ] || fail "not exactly one new step commit: $(cat r1.out r2.out)"
git -C server.git log -1 --format=%s main | grep -q '^step 0004' || fail "the new commit is not step 4"
echo "race 2: runner1: $(tail -n 1 r1.out); runner2: $(tail -n 1 r2.out)"
[ "$(git -C server.git tag -l 'step-0004')" = step-0004 ] || fail "no step-0004 tag on the server"

# Everything on the server: GM-signed steps and tags, players' order
# commits, a clean object store, and a history that audits.
steps=0
for c in $(git -C server.git rev-list main); do
	if gm_signed verify-commit "$c"; then
		steps=$((steps + 1))
	else
		git -C server.git diff-tree -r --no-commit-id --name-only "$c" | grep -qv '^orders/[a-z]*\.json\(\.sig\)\?$' &&
			fail "commit $c is neither the GM's nor orders only"
	fi
done
for t in $(git -C server.git tag); do gm_signed verify-tag "$t" || fail "tag $t is not the GM's"; done
git -C server.git fsck --strict --no-progress || fail "git fsck --strict on the server"
sync_clone allies
expect_exit 0 "$ESTAFETTE" audit allies
grep -q "step 4\|0004" allies/turns/0004/report.txt || true
[ -s allies/turns/0004/report.txt ] || fail "no public report for step 4 in a player's clone"
echo "pr_play: $steps GM commits, $(git -C server.git tag | wc -l) tags; refusals, pull-request checks and racing runners held"
