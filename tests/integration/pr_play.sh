#!/bin/bash
# Pull-request play: a two-player game on a bare "server" repository with
# hooks/pre-receive installed, player clones with hooks/pre-commit, GM
# runners with hooks/run-and-push, and hooks/check-pull-request as CI would
# run it. The players join (step 1) through pull requests, checked and
# merged by rebase. Good signed orders are accepted; every kind of tampering is
# refused with a message that names the rule; two runners racing on one due
# step leave exactly one step on the server, and the history still audits.
# Among the refusals: a GM-signed step tag copied to another name, tags not
# marking their step's commit on main, empty player commits, symbolic links,
# a pull request that changes a key in one commit and undoes it in the next,
# file names and subjects that are workflow commands (printed escaped, also
# through the workflow's own check step, whose log is read as GitHub's
# runner reads it), and (in a second game, of sealed orders) a commitment
# under another player's name; that game, made with neither
# --gm-signing-key nor --gm-key, signs with a GM key of its own, which its
# runner needs, while a game made with --gm-key alone is run unverified,
# and its runner says so. The workflows are linted (no secret in the
# check, read-only, no pull_request_target; the hosted runner bound to its
# environment). Then the GM's runner against a host without hooks, as a
# forge is to whoever has write access: it refuses, by the GM's own key,
# a GM key a player added, a merge commit (until --trust), copied or
# lightweight step tags and a rewritten main, runs nothing then, and keeps
# to one run per clone.
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
# commit_seqs P SEQ...: in P's clone, one unchecked commit of P's orders per seq, in that order.
commit_seqs() {
	local p=$1 seq; shift
	for seq in "$@"; do
		order "$p" "$p" "$seq" > "$p/orders/$p.json"
		sign "$p" "$p/orders/$p.json"
		git -C "$p" add orders
		git -C "$p" commit -q --no-verify -m "orders: $p (seq $seq)"
	done
}
gm_signed() {  # verify-commit|verify-tag OBJECT, against the game's own keys
	git -C server.git -c gpg.format=ssh -c gpg.ssh.allowedSignersFile="$WORK/game/keys/allowed_signers" \
		"$1" "$2" 2>&1 | grep -q '^Good "git" signature for gm with '
}

# Step 1 is the join: nothing is due until every player's file is in, so
# the runner resolves and pushes nothing yet.
expect_exit 0 "$H/run-and-push" runner1
grep -q "step 1 (join) awaits: france allies" "$WORK/last.out" || fail "run-and-push before the join: $(cat "$WORK/last.out")"
grep -q "nothing new to push" "$WORK/last.out" || fail "run-and-push before the join: $(cat "$WORK/last.out")"
[ "$(server main)" = "$(git -C game rev-parse main)" ] || fail "run-and-push before the join moved the server's main"
[ "$(awaited)" = "france allies" ] || fail "the join should await france and allies, not: $(awaited)"
# Each player joins through a pull request: a branch with the signed file of
# no orders, checked as CI would, then merged (by rebase, as the server takes
# only commits of one parent) -- allies' after france's has moved main.
for p in france allies; do
	sync_clone "$p"
	git -C "$p" checkout -q -b "join-$p"
	order "$p" "$p" 1 > "$p/orders/$p.json"
	sign "$p" "$p/orders/$p.json"
	git -C "$p" add orders
	expect_exit 0 git -C "$p" commit -qm "orders: $p joins (step 1)"
	push_ok "$p" origin "join-$p"
done
for p in france allies; do
	git -C "$p" fetch -q origin
	git -C "$p" rebase -q origin/main "join-$p"
	expect_exit 0 env -C "$p" "$H/check-pull-request" origin/main "join-$p"
	grep -q "^ok       orders/$p.json: .*valid orders of $p for step 1" "$WORK/last.out" ||
		fail "check-pull-request on $p's join: $(cat "$WORK/last.out")"
	push_ok "$p" origin "join-$p:main" ":join-$p"
done
[ "$(git -C server.git rev-list --count "$(git -C game rev-parse main)..main")" -eq 2 ] ||
	fail "the two joins are not two commits on the server's main"
[ -z "$(awaited)" ] || fail "after both joins, step 1 still awaits: $(awaited)"
# Every join in: the runner resolves step 1 (with the set-up draws) and publishes it.
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
grep -qF "also the commitment orders/<player>.commitment.json" "$WORK/last.err" || fail "pre-commit: $(cat "$WORK/last.err")"
git -C france commit -q --no-verify -m "a better state"
push_refused france "state.json: not signed by the GM, and a player's commit may change only orders/<player>.json" origin main
grep -qF "also the commitment orders/<player>.commitment.json and orders/<player>.commitment.json.sig" "$WORK/push.out" ||
	fail "the refusal does not name the commitment files: $(cat "$WORK/push.out")"
sync_clone france

# An empty commit titled like a step: a player's commit must change orders.
git -C france commit -q --allow-empty --no-verify -m "step 0006: turn (France wins)"
push_refused france "changes no file, but a player's commit must add or change at least one order file" origin main
push_refused france "changes no file" origin main:refs/heads/orders-france
sync_clone france

# An order file committed as a symbolic link: --chmod cannot fix that, the
# file itself must replace the link.
order france france 1 > france-step2.json
ln -s "$WORK/france-step2.json" france/orders/france.json
sign france france-step2.json && mv france-step2.json.sig france/orders/france.json.sig
git -C france add orders
expect_exit 1 git -C france commit -qm "orders: france (a link)"
grep -qF "orders/france.json: a symbolic link" "$WORK/last.err" || fail "pre-commit: $(cat "$WORK/last.err")"
grep -qF "git rm --cached orders/france.json" "$WORK/last.err" || fail "pre-commit: $(cat "$WORK/last.err")"
git -C france commit -q --no-verify -m "orders: france (a link)"
push_refused france "orders/france.json: a symbolic link, but an order file is a plain file" origin main
grep -qF "git rm --cached orders/france.json, cp --remove-destination" "$WORK/push.out" || fail "symlink: $(cat "$WORK/push.out")"
! grep -qF -- "--chmod" "$WORK/push.out" || fail "symlink: --chmod does not fix a link: $(cat "$WORK/push.out")"
sync_clone france

# Step tags: the GM's signed tag of step 1 is good only as step-0001. Copied
# to a later step's name (which would block that step for good) or to any
# other name, it is refused; so are GM-signed tags whose name is not a step,
# or that mark the wrong commit, or a commit that is not on main.
tag1=$(git -C france rev-parse step-0001)
[ "$(git -C france cat-file -t "$tag1")" = tag ] || fail "step-0001 is not an annotated tag"
push_refused france 'refs/tags/step-0005: the GM'"'"'s tag object' origin "$tag1:refs/tags/step-0005"
grep -qF 'is named "step-0001" inside' "$WORK/push.out" || fail "copied tag: $(cat "$WORK/push.out")"
push_refused france 'refs/tags/evil: the GM'"'"'s tag object' origin "$tag1:refs/tags/evil"
[ -z "$(git -C server.git tag -l step-0005 evil)" ] || fail "a copied tag reached the server"
gm_tag() {  # NAME COMMIT: a tag the GM's key signs, as estafette would
	git -C france -c gpg.format=ssh -c user.signingkey="$WORK/keys/gm" tag -s -m "$1" "$1" "$2"
}
gm_tag evil "step-0001^{commit}"
git -C france -c gpg.format=ssh -c gpg.ssh.allowedSignersFile="$WORK/game/keys/allowed_signers" verify-tag evil 2>&1 |
	grep -q '^Good "git" signature for gm with ' || fail "the test's GM tag is not GM-signed"
push_refused france "refs/tags/evil: only step tags (step-NNNN" origin refs/tags/evil
gm_tag step-0009 "step-0001^{commit}"
push_refused france 'but the commit of step 0009 says "step 0009" first' origin refs/tags/step-0009
git -C france -c gpg.format=ssh -c user.signingkey="$WORK/keys/gm" commit -q -S --allow-empty --no-verify -m "step 0002: turn"
gm_tag step-0002 HEAD
push_refused france "which is not a commit on main" origin refs/tags/step-0002
git -C france tag -d evil step-0009 step-0002 >/dev/null
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

# Two commits of one push, seq 3 then seq 2 of the same file: each alone would
# pass against main, but the second goes back on the first, which estafette
# would refuse; so does the hook (else an honest GM's run would resolve seq 2
# and the audit would show seq 3 accepted and dropped).
commit_seqs france 3 2
push_refused france "orders/france.json: seq 2 does not replace the seq 3" origin main
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

# A pull request of seq 2 then seq 1: the sum (seq 1) is good orders against
# main, but merged, main's history would show seq 2 accepted and the step
# resolve seq 1, an audit failure the GM never caused: each commit must raise
# the seq of the file it replaces.
git -C allies checkout -q -b downgrade-pr origin/main && mkdir -p allies/orders
commit_seqs allies 2 1
expect_exit 1 env -C allies "$H/check-pull-request" origin/main downgrade-pr
grep -q '^refused  orders/allies.json: commit [0-9a-f]* "orders: allies (seq 1)": orders/allies.json: seq 1 does not replace the seq 2' \
	"$WORK/last.out" || fail "downgrading pull request: $(cat "$WORK/last.out")"
git -C allies checkout -q orders-allies

# A pull request whose sum is good orders, but whose history adds a GM key
# in one commit and takes it out in the next (merged, both would be in
# main's log), and holds an empty commit: each commit is judged.
git -C allies checkout -q -b sneaky-pr origin/main
echo "gm namespaces=\"estafette-gm,git\" $(cat keys/allies.pub)" >> allies/keys/allowed_signers
git -C allies commit -q --no-verify -am "keys: one more"
git -C allies revert --no-commit HEAD
git -C allies commit -q --no-verify -m 'Revert "keys: one more"'
git -C allies commit -q --no-verify --allow-empty -m "step 0003: turn (Allies win)"
git -C allies cherry-pick orders-allies >/dev/null
[ -z "$(git -C allies diff --name-only origin/main sneaky-pr -- keys)" ] || fail "the sneaky pull request's sum should not touch keys/"
expect_exit 1 env -C allies "$H/check-pull-request" origin/main sneaky-pr
grep -q '^refused  keys/allowed_signers: commit [0-9a-f]* "keys: one more": keys/allowed_signers: a pull request to a game may change only' "$WORK/last.out" ||
	fail "sneaky pull request, added key: $(cat "$WORK/last.out")"
grep -q '^refused  keys/allowed_signers: commit [0-9a-f]* "Revert ' "$WORK/last.out" ||
	fail "sneaky pull request, reverted key: $(cat "$WORK/last.out")"
grep -q '^refused  (commit [0-9a-f]*): commit [0-9a-f]* "step 0003: turn (Allies win)": changes no file' "$WORK/last.out" ||
	fail "sneaky pull request, empty commit: $(cat "$WORK/last.out")"
grep -q '^ok       orders/allies.json: ' "$WORK/last.out" || fail "sneaky pull request, orders: $(cat "$WORK/last.out")"
expect_exit 1 env -C allies "$H/check-pull-request" --json origin/main sneaky-pr
"$PY" -c 'import json,sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is False, d
bad = [f for f in d["files"] if f["level"] == "error"]
assert sum(f["file"] == "keys/allowed_signers" for f in bad) == 2, d
assert any(f["file"].startswith("(commit ") and "changes no file" in f["message"] for f in bad), d' "$WORK/last.out" ||
	fail "check-pull-request --json on the sneaky pull request: $(cat "$WORK/last.out")"
push_refused allies 'keys/allowed_signers: not signed by the GM' origin sneaky-pr

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

# --- Names chosen to drive a CI log ------------------------------------
# A pull request whose file names and commit subject are workflow commands
# (::add-mask::, a newline then ::error::, a %0A that a command would
# decode, the older ##[error] that GitHub's runner finds anywhere in a
# line). Refused, of course; and the refusals print every name escaped, so
# that no line of the output is a command the attacker chose.
git -C allies checkout -q -b evil-names origin/main && mkdir -p allies/orders
evil=('orders/::add-mask::x' $'orders/a\n::error::x' 'orders/%0A::warning::x' 'orders/##[error]x' $'orders/b\r::notice::x')
for f in "${evil[@]}"; do echo '{}' > "allies/$f"; done
git -C allies add -A orders
git -C allies commit -q --no-verify -m $'orders ::set-output name=a::b\r::notice::c %0A ##[error]d'
expect_exit 1 env -C allies "$H/check-pull-request" origin/main evil-names
"$PY" - "$WORK/last.out" <<'PY' || fail "check-pull-request, names that are workflow commands: $(cat -A "$WORK/last.out")"
import re, sys
text = open(sys.argv[1], newline="").read()
assert "\r" not in text and "%" not in text and "##[" not in text, repr(text)
lines = text.split("\n")[:-1]
assert len(lines) == 5, lines
for line in lines:
    assert re.match(r"^refused  \S", line) and not line.lstrip().startswith("::"), line
want = ['"orders/::add-mask::x"', '"orders/a\\n::error::x"', '"orders/\\x250A::warning::x"',
        '"orders/\\x23\\x23[error]x"', '"orders/b\\r::notice::x"']
assert sorted(l.split(": ", 1)[0][len("refused  "):] for l in lines) == sorted(want), lines
assert all('"orders ::set-output name=a::b\\r::notice::c \\x250A \\x23\\x23[error]d": ' in l for l in lines), lines
assert all("a pull request to a game may change only orders/<player>.json" in l for l in lines), lines
PY
expect_exit 1 env -C allies "$H/check-pull-request" --json origin/main evil-names
cp "$WORK/last.out" evil.json
"$PY" - evil.json "${evil[@]}" <<'PY' || fail "check-pull-request --json, names that are workflow commands: $(cat "$WORK/evil.json")"
import json, sys
text = open(sys.argv[1]).read()
assert "%" not in text and "##[" not in text and not any(l.lstrip().startswith("::") for l in text.splitlines()), text
d = json.loads(text)
assert sorted(f["file"] for f in d["files"]) == sorted(sys.argv[2:]), d
assert all(f["level"] == "error" for f in d["files"]), d
PY
# The server's refusal names them escaped as well.
push_refused allies '"orders/a\n::error::x": not signed by the GM' origin evil-names
! grep -q '^remote: ::error::x' "$WORK/push.out" || fail "pre-receive printed a file name raw: $(cat -A "$WORK/push.out")"

# The workflows themselves: the check holds no secret, reads only, runs on
# pull_request (never pull_request_target) and checks out the head with the
# job's own token; the hosted runner deploys only to the main-only
# environment. Each rule is seen to catch a workflow that breaks it.
GW=$TOP/tests/helpers/gh_workflow.py
expect_exit 0 "$PY" "$GW" lint "$H/github-workflow.yml" "$H/github-workflow-hosted-runner.yml"
bad_lint() {  # WHICH SED-EXPR TEXT: the workflow so edited fails the lint, saying TEXT
	local check=$H/github-workflow.yml hosted=$H/github-workflow-hosted-runner.yml
	sed "$2" "$H/github-workflow$1.yml" > "bad$1.yml"
	if [ -z "$1" ]; then check=bad.yml; else hosted=bad$1.yml; fi
	expect_exit 1 "$PY" "$GW" lint "$check" "$hosted"
	grep -qF -- "$3" "$WORK/last.err" || fail "lint of a workflow edited by $2: $(cat "$WORK/last.err")"
}
bad_lint "" 's/^  pull_request:$/  pull_request_target:/' "triggered by pull_request_target"
bad_lint "" 's/^  contents: read$/  contents: write/' "permissions contents: write"
bad_lint "" 's/^          BASE: .*/          BASE: ${{ secrets.X }}/' "mentions secrets."
bad_lint "" 's/^          persist-credentials: false$/          persist-credentials: false\n      - run: git -C game fetch origin refs\/pull\/1\/head/' "a git fetch after the checkout"
bad_lint "" 's/head\.sha }}$/base.sha }}/' "not the pull request's head sha"
bad_lint -hosted-runner '/^    environment: estafette-gm$/d' "not bound to the environment estafette-gm"
bad_lint -hosted-runner 's/^  workflow_dispatch:$/  workflow_dispatch:\n  pull_request_target:/' "triggered by ['pull_request_target']"
bad_lint -hosted-runner "/^    if: github.ref == 'refs\/heads\/main'$/d" "runs off main"

# The check step of the workflow, run as GitHub would run it on the evil
# pull request (its run script, bash -e, the workspace laid out as the job
# leaves it), and its log read as GitHub's runner reads workflow commands:
# one annotation per file, each naming its file exactly, and a report that
# carries no command, even without the stop-commands around it.
mkdir -p ws rt && ln -s "$WORK/allies" ws/game && ln -s "$TOP" ws/estafette-src
"$PY" "$GW" script "$H/github-workflow.yml" check-orders "Check the orders" > check-step.sh
rc=0
GITHUB_WORKSPACE=$WORK/ws RUNNER_TEMP=$WORK/rt BASE=$(git -C allies rev-parse origin/main) \
	HEAD=$(git -C allies rev-parse evil-names) bash -e check-step.sh > step.log 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "the check step on the evil pull request exited $rc: $(cat -A step.log)"
expect_exit 0 "$PY" "$GW" log step.log rt/result.json
# ... and on a good pull request: green, one notice per file.
rc=0
GITHUB_WORKSPACE=$WORK/ws RUNNER_TEMP=$WORK/rt BASE=$(git -C allies rev-parse origin/main) \
	HEAD=$(git -C allies rev-parse orders-allies) bash -e check-step.sh > step.log 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "the check step on a good pull request exited $rc: $(cat step.log)"
expect_exit 0 "$PY" "$GW" log step.log rt/result.json
grep -q "^::notice file=orders/allies.json,line=1::valid orders of allies for step 3" step.log ||
	fail "no notice for the good orders: $(cat step.log)"

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
# The loser's reports of its own step 3 were dropped, and the winner's, which
# its run queued again, were put in sent/ unsent (the winner mails them):
# their Date is the winning commit's (runner2's own is a minute earlier).
# Compared as instants, not as text: RFC 5322 writes "01 Dec", git's %cD "1 Dec".
won=$(git -C server.git log -1 --format=%ct step-0003)
for p in france allies; do
	[ ! -e home2/outbox/ne-pr/pending/0003-$p.eml ] || fail "runner2 would mail the winner's report of step 3 to $p too"
	eml=home2/outbox/ne-pr/sent/0003-$p.eml
	date=$(sed -n 's/^Date: //p' "$eml" | head -n 1 | tr -d '\r')
	[ "$(date -d "$date" +%s)" = "$won" ] || fail "runner2's report $eml is not the winner's step: Date $date vs commit time $(date -u -d @"$won")"
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
# (An estafette that refuses to commit unsigned in such a game exits 78,
# and run-and-push names what the runner lacks.)
git clone -q server.git runner3
rc=0
"$H/run-and-push" runner3 >"$WORK/last.out" 2>"$WORK/last.err" || rc=$?
case $rc in
1)
	grep -q "refused the push, and not because main moved" "$WORK/last.err" || fail "runner3: $(cat "$WORK/last.err")"
	grep -q "remote: refused: commit .* not signed by the GM" "$WORK/last.err" || fail "runner3: $(cat "$WORK/last.err")"
	;;
78)
	grep -q "estafette.signingkey" "$WORK/last.err" || fail "runner3, exit 78 without naming estafette.signingkey: $(cat "$WORK/last.err")"
	grep -q "secrets" "$WORK/last.err" || fail "runner3, exit 78 without naming the dice secrets: $(cat "$WORK/last.err")"
	;;
*) fail "runner3 (no GM key) exited $rc: $(cat "$WORK/last.out" "$WORK/last.err")" ;;
esac
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

# --- The GM's machine against a host that enforces nothing -------------
# On a forge, whoever has write access can push what the branch rules let
# through (on a plan without rules, anything). host.git has no hook; the
# GM's runner must verify what it fetched, by the GM's own key, and refuse
# to resolve or sign on top of anything that is neither the GM's nor a
# player's orders, naming it escaped and saying how to put main back.
git clone -q --bare server.git host.git
git clone -q host.git gmrun
git -C gmrun config estafette.signingkey "$WORK/keys/gm"
git clone -q host.git hp
git -C hp config user.name "france player" && git -C hp config user.email france@example.org
mkdir -p hp/orders
host() { git -C "$WORK/host.git" rev-parse "$1"; }
# host_orders: orders of every player the host's game awaits, committed in
# hp (on its current branch), signed by each player's key.
host_orders() {
	local p
	for p in $("$ESTAFETTE" status hp --json | json_get '" ".join(a["player"] for a in d["awaiting"] if not a["received"])'); do
		order hp "$p" 1 > "hp/orders/$p.json"
		sign "$p" "hp/orders/$p.json"
	done
	git -C hp add orders
	git -C hp commit -q --no-verify -m "orders for step $("$ESTAFETTE" status hp --json | json_get 'd["step"]')"
}
expect_exit 0 "$H/run-and-push" gmrun
grep -q "nothing new to push" "$WORK/last.out" || fail "run-and-push on the verified host: $(cat "$WORK/last.out")"
verified=$(git -C gmrun rev-parse refs/estafette/verified)
[ "$verified" = "$(host main)" ] || fail "refs/estafette/verified is not the host's main after a clean run"
# refused_run TEXT: run-and-push exits 65 naming TEXT, prints no line that
# is a workflow command or holds a raw "%", and runs, signs and pushes
# nothing.
refused_run() {
	local before hostmain
	before=$(git -C gmrun rev-parse main) hostmain=$(host main)
	expect_exit 65 "$H/run-and-push" gmrun
	grep -qF -- "$1" "$WORK/last.err" || fail "run-and-push refused without \"$1\": $(cat "$WORK/last.err")"
	grep -q "nothing was run" "$WORK/last.err" || fail "run-and-push: $(cat "$WORK/last.err")"
	! grep -q '^[[:space:]]*::\|%\|##\[' "$WORK/last.out" "$WORK/last.err" || fail "run-and-push printed what the host chose raw: $(cat -A "$WORK/last.err")"
	[ "$(git -C gmrun rev-parse main)" = "$before" ] || fail "a refused run moved the runner's main"
	[ "$(git -C gmrun rev-parse refs/estafette/verified)" = "$verified" ] || fail "a refused run moved refs/estafette/verified"
	[ "$(host main)" = "$hostmain" ] || fail "a refused run pushed"
}

# A player's key made the GM's in keys/allowed_signers, in a commit that key
# signs (so it verifies as "gm" by the keys it brings), with a file named
# to drive a log and a subject to match.
sync_clone hp
sed -i "1i gm namespaces=\"estafette-gm,git\" $(cat keys/france.pub)" hp/keys/allowed_signers
echo '{}' > hp/$'notes\n::error::x'
git -C hp add -A
git -C hp -c gpg.format=ssh -c user.signingkey="$WORK/keys/france" commit -q -S --no-verify -m 'one more GM ::add-mask::x %0A ##[error]y'
git -C hp -c gpg.format=ssh -c gpg.ssh.allowedSignersFile="$WORK/hp/keys/allowed_signers" verify-commit HEAD 2>&1 |
	grep -q '^Good "git" signature for gm' || fail "the self-made GM key should verify against the keys it brings"
git -C hp push -q origin main
refused_run '"keys/allowed_signers": not signed by the GM'
grep -qF '"notes\n::error::x": not signed by the GM' "$WORK/last.err" || fail "run-and-push, odd name: $(cat "$WORK/last.err")"
grep -qF '"one more GM ::add-mask::x \x250A \x23\x23[error]y"' "$WORK/last.err" || fail "run-and-push, subject: $(cat "$WORK/last.err")"
grep -qF "push --force origin $verified:refs/heads/main" "$WORK/last.err" || fail "run-and-push gives no way back: $(cat "$WORK/last.err")"
git -C gmrun push -q --force origin "$verified:refs/heads/main"

# A merge commit (GitHub's "Create a merge commit") of good orders: not the
# GM's and two parents, so refused; the GM looks at it, finds orders only,
# and trusts it with --trust: the step resolves on top of it.
sync_clone hp
git -C hp checkout -q -b pr-7
host_orders
git -C hp checkout -q main
git -C hp merge -q --no-ff --no-verify -m "Merge pull request #7" pr-7
git -C hp push -q origin main
refused_run "has 2 parents, but a player's commit has exactly one"
grep -qF "merge pull requests by squash or rebase" "$WORK/last.err" || fail "run-and-push, merge: $(cat "$WORK/last.err")"
expect_exit 0 "$H/run-and-push" --trust "$(host main)" gmrun
grep -q "pushed main" "$WORK/last.out" || fail "run-and-push --trust: $(cat "$WORK/last.out" "$WORK/last.err")"
verified=$(git -C gmrun rev-parse refs/estafette/verified)
[ "$verified" = "$(host main)" ] && [ "$(host "main^")" = "$(git -C gmrun rev-parse main^)" ] ||
	fail "after --trust, the host's main is not the runner's step on the merge"

# Step tags: the GM's signed tag of step 1 pushed as step-0099, and a
# lightweight step-0098: refused, both named; deleted on the host, the
# runner goes on.
sync_clone hp
git -C hp push -q origin "$(git -C hp rev-parse step-0001):refs/tags/step-0099"
git -C hp tag step-0098 main && git -C hp push -q origin step-0098
refused_run 'refs/tags/step-0099: the GM'"'"'s tag of "step-0001", copied to another name'
grep -qF "refs/tags/step-0098: not an annotated tag signed by the GM" "$WORK/last.err" || fail "run-and-push, tags: $(cat "$WORK/last.err")"
[ -z "$(git -C gmrun tag -l step-0099 step-0098)" ] || fail "a refused tag reached the runner's clone"
git -C hp push -q origin :refs/tags/step-0099 :refs/tags/step-0098
git -C hp tag -d step-0098 >/dev/null

# main rewritten on the host (back to step 1): refused, and put back.
git -C hp push -q --force origin "$(git -C hp rev-parse 'step-0001^{commit}'):refs/heads/main"
refused_run "does not descend from ${verified:0:7}, the main this runner verified last"
git -C gmrun push -q --force origin "$verified:refs/heads/main"

# One run per clone: while another holds the clone's lock, run-and-push
# says so, exits 0 and pushes nothing; once it is free, the step lands.
sync_clone hp
host_orders
git -C hp push -q origin main
lock=$WORK/gmrun/.git/estafette-run-and-push.lock
(exec 8>>"$lock" && flock 8 && exec sleep 60) & holder=$!
for _ in $(seq 100); do flock -n "$lock" true || break; sleep 0.1; done
! flock -n "$lock" true || fail "the test's lock holder did not take the lock"
hostmain=$(host main)
expect_exit 0 "$H/run-and-push" gmrun
grep -q "another run-and-push holds the lock" "$WORK/last.out" || fail "run-and-push, lock held: $(cat "$WORK/last.out")"
[ "$(host main)" = "$hostmain" ] || fail "a run that did not hold the lock pushed"
kill "$holder"
wait "$holder" 2>/dev/null || true   # killed by the test: SIGTERM
expect_exit 0 "$H/run-and-push" gmrun
grep -q "pushed main" "$WORK/last.out" || fail "run-and-push after the lock: $(cat "$WORK/last.out" "$WORK/last.err")"
git -C host.git -c gpg.format=ssh -c gpg.ssh.allowedSignersFile="$WORK/game/keys/allowed_signers" verify-commit main 2>&1 |
	grep -q '^Good "git" signature for gm with ' || fail "the host's new step is not the GM's"
# A step tag deleted on the host: the runner keeps its own (the tag of a
# commit on main) and tells the GM how to put it back.
git -C hp push -q origin :refs/tags/step-0002
expect_exit 0 "$H/run-and-push" gmrun
grep -qF "origin lacks the step tag step-0002 of its main; put it back: git -C gmrun push origin refs/tags/step-0002" "$WORK/last.err" ||
	fail "run-and-push, a tag deleted on the host: $(cat "$WORK/last.out" "$WORK/last.err")"
git -C gmrun push -q origin refs/tags/step-0002
[ "$(host step-0002)" = "$(server step-0002)" ] || fail "step-0002 is not back on the host"
git -C host.git fsck --strict --no-progress || fail "git fsck --strict on the host"
# --- A game of sealed orders: a commitment under another player's name ----
# A game of sealed orders made like sealed_orders.sh's (the sample players
# and keys, the sample dice secret, fixed commit times; here without a
# deadline, since the hooks check against the clock): with game id pr-13,
# an Allied attack on Italy brings step 4, battle cards, simultaneous,
# awaiting France. France's signed commitment, committed as
# orders/allies.commitment.json, is refused by all three hooks, each
# advising orders/france.commitment.json (not orders/france.json).
SAMPLE=$TOP/turnfiles/napoleonic-empire
cp "$SAMPLE/keys/france" keys/so-france && cp "$SAMPLE/keys/allies" keys/so-allies && chmod 600 keys/so-*
so() { ESTAFETTE_COMMIT_TIME=1764000000 "$ESTAFETTE" "$@" >/dev/null; }
so new sealed --id pr-13 --ruleset napoleonic-empire --players "$SAMPLE/players.json" \
	--test-dice-secret "estafette sample game" --dice-protocol v1 --sealed-orders
so run sealed --now @1764000000
order sealed france 1 > f2.json && sign so-france f2.json
so submit sealed f2.json --now @1764000000 && so run sealed --now @1764000000
order sealed allies 1 '[{"type": "move", "from": "Austria", "to": "Italy", "armies": 8}]' > a3.json
sign so-allies a3.json
so submit sealed a3.json --now @1764000000 && so run sealed --now @1764000000
kind=$("$ESTAFETTE" status sealed --json | json_get 'd["kind"] + " " + d["mode"] + " " + ",".join(a["player"] for a in d["awaiting"])')
[ "$kind" = "battle-cards simultaneous france" ] || fail "the sealed-orders game's step 4 is not France's battle cards: $kind"
git clone -q --bare sealed sealed.git
cp "$H/pre-receive" sealed.git/hooks/pre-receive
git clone -q sealed.git sclone
git -C sclone config user.name "france player" && git -C sclone config user.email france@example.org
cp "$H/pre-commit" sclone/.git/hooks/pre-commit
mkdir -p sclone/orders
echo '{"cards": []}' > f4.json
"$ESTAFETTE" status sclone --json | "$PY" -c '
import hashlib, json, sys
d = json.load(sys.stdin)
print(json.dumps({"estafette": "commitment/1", "game": d["game"], "step": d["step"], "player": "france",
                  "prev": d["state_sha256"], "seq": 1,
                  "sha256": hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest()}, indent=1))' f4.json \
	> sclone/orders/allies.commitment.json
sign so-france sclone/orders/allies.commitment.json
git -C sclone add orders
expect_exit 1 git -C sclone commit -qm "commitment: allies"
grep -qF 'holds the commitment of "france"' "$WORK/last.err" || fail "pre-commit, commitment: $(cat "$WORK/last.err")"
grep -qF "git mv orders/allies.commitment.json orders/france.commitment.json" "$WORK/last.err" ||
	fail "pre-commit, commitment: $(cat "$WORK/last.err")"
git -C sclone commit -q --no-verify -m "commitment: allies"
expect_exit 1 env -C sclone "$H/check-pull-request" origin/main HEAD
grep -qF "rename it orders/france.commitment.json (and its .sig orders/france.commitment.json.sig)" "$WORK/last.out" ||
	fail "check-pull-request, commitment: $(cat "$WORK/last.out")"
! git -C sclone push origin main >"$WORK/push.out" 2>&1 || fail "the misnamed commitment was accepted: $(cat "$WORK/push.out")"
grep -qF 'orders/allies.commitment.json: holds the commitment of "france"' "$WORK/push.out" || fail "pre-receive, commitment: $(cat "$WORK/push.out")"
grep -qF "commit it as orders/france.commitment.json instead" "$WORK/push.out" || fail "pre-receive, commitment: $(cat "$WORK/push.out")"
# Under its own name, the same commitment passes all three.
git -C sclone reset -q --soft origin/main
git -C sclone mv orders/allies.commitment.json orders/france.commitment.json
git -C sclone mv orders/allies.commitment.json.sig orders/france.commitment.json.sig
expect_exit 0 git -C sclone commit -qm "commitment: france"
expect_exit 0 env -C sclone "$H/check-pull-request" origin/main HEAD
grep -q "^ok       orders/france.commitment.json: .*valid commitment of france" "$WORK/last.out" ||
	fail "check-pull-request, good commitment: $(cat "$WORK/last.out")"
git -C sclone push -q origin main 2>"$WORK/push.out" || fail "the good commitment was refused: $(cat "$WORK/push.out")"

# The sealed-orders game was made with neither --gm-signing-key nor --gm-key,
# so it signs its history with a GM key of its own, $ESTAFETTE_HOME/gm/pr-13.
# A runner clone without that key is told to set it up (exit 78, nothing
# fetched or pushed); given it, it verifies what origin holds and runs.
[ "$(git -C sealed config estafette.signingkey)" = "$ESTAFETTE_HOME/gm/pr-13" ] ||
	fail "the sealed-orders game does not sign with its own GM key: $(git -C sealed config estafette.signingkey)"
grep -q '^  "signed_history": true' <<<"$(git -C sealed show main:game.json)" || fail "the sealed-orders game's history is not signed"
git clone -q sealed.git srun
smain=$(git -C sealed.git rev-parse main)
expect_exit 78 "$H/run-and-push" srun -- --now @1764000000
grep -q "estafette.signingkey is not set" "$WORK/last.err" || fail "run-and-push without the game's GM key: $(cat "$WORK/last.err")"
grep -qF 'the key estafette new made, $ESTAFETTE_HOME/gm/<id>' "$WORK/last.err" ||
	fail "run-and-push without the game's GM key does not say where new put it: $(cat "$WORK/last.err")"
grep -q "secrets" "$WORK/last.err" || fail "run-and-push without the game's GM key: $(cat "$WORK/last.err")"
[ "$(git -C sealed.git rev-parse main)" = "$smain" ] || fail "a runner without the GM key moved main"
git -C srun config estafette.signingkey "$ESTAFETTE_HOME/gm/pr-13"
expect_exit 0 "$H/run-and-push" srun -- --now @1764000000
! grep -q "history is not signed" "$WORK/last.out" || fail "run-and-push, a signed game taken as unsigned: $(cat "$WORK/last.out")"
[ "$(git -C srun rev-parse refs/estafette/verified)" = "$(git -C sealed.git rev-parse main)" ] ||
	fail "run-and-push did not verify the sealed-orders game's main: $(cat "$WORK/last.out" "$WORK/last.err")"

# A game made with --gm-key alone (the GM's public key, no signing key) has
# no signature to verify by: its runner says so and runs, trusting its remote.
"$ESTAFETTE" new plain --ruleset napoleonic-empire --players keys/players.json --gm-key keys/gm.pub \
	--id pr-plain >/dev/null
! grep -q '"signed_history"' <<<"$(git -C plain show main:game.json)" || fail "a game made with --gm-key alone has signed history"
[ ! -e "$ESTAFETTE_HOME/gm/pr-plain" ] || fail "a game made with --gm-key got a GM key of its own"
git clone -q --bare plain plain.git
git clone -q plain.git prun
expect_exit 0 "$H/run-and-push" prun
grep -qF "history is not signed (made with --gm-key alone, or before signing was the default), so what origin holds is not verified" "$WORK/last.out" ||
	fail "run-and-push, a game without signed history: $(cat "$WORK/last.out")"

echo "pr_play: $steps GM commits, $(git -C server.git tag | wc -l) tags; refusals, pull-request checks and racing runners held"
