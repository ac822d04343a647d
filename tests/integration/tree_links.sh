#!/bin/bash
# No symbolic link, submodule or executable in a game (docs/protocol.md
# "The repository"), each attack done with the real git on a copy
# of a Napoleonic Empire game at step 1, France's order for step 2 in hand:
#  committed/*  a link committed at turns/0002 (the next step's folder),
#               at orders/ (the whole folder), deep in a folder estafette
#               never reads (with no hint file: the full walk), a
#               submodule entry (gitlink, 160000), an executable file
#               (100755) new and an existing step file made executable:
#               `run`, `submit`, `status` and `audit` refuse with 65,
#               naming the path, the kind and the fix, main does not move;
#  worktree/*   the work tree only (nothing committed): turns/ or orders/
#               replaced by a link to a folder outside, state.json by a
#               link to a file outside: the commit whose checkout would
#               write there is refused (65, naming the link), nothing is
#               committed; after the fix the step resolves;
#  history/*    a step's own commit (its tag) holding a link: audit fails
#               at that step, naming the path (check "tree");
#  fixed/*      after `git rm` of the link and a commit, the game plays on.
# Every target outside the repository stays empty (or unchanged), and
# every copy passes `git fsck --strict`. The attacks and fixes committed
# on main are the GM's (gm_git: signed with the game's GM key, which a
# cheating GM holds), but for the names git never checks out, which a git
# host without the key adds.
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
g() { git -C "$1" -c user.name=x -c user.email=x@example.org "${@:2}"; }
head_of() { git -C "$1" rev-parse main; }
unchanged() { [ "$(head_of "$1")" = "$2" ] || fail "$3: the game's main moved"; }
# empty DIR NAME: nothing was written into DIR, outside the repository.
empty() { [ -z "$(ls -A "$1")" ] || fail "$2: written outside the repository: $(ls -lA "$1")"; }
fsck() { git -C "$1" fsck --strict --no-progress >/dev/null 2>&1 || fail "$2: git fsck --strict: $(git -C "$1" fsck --strict 2>&1 | head -5)"; }
# fresh NAME: a copy of the prepared game and its home; sets G, OUT (an empty folder outside).
fresh() {
	rm -rf "$WORK/$1"
	mkdir -p "$WORK/$1/outside"
	cp -a "$WORK/base/ne" "$WORK/$1/ne"
	cp -a "$WORK/base/home" "$WORK/$1/home"
	export ESTAFETTE_HOME=$WORK/$1/home
	G=$WORK/$1/ne OUT=$WORK/$1/outside
}
# refused_everywhere NAME PATH KIND: run, submit, status and audit refuse,
# naming PATH as KIND; main stays; nothing outside; fsck clean.
refused_everywhere() {
	local name=$1 path=$2 kind=$3 h
	h=$(head_of "$G")
	local text="$path: $kind in the game's tree at refs/heads/main (commit $(git -C "$G" rev-parse --short=7 main))"
	refused 65 "$text" "$ESTAFETTE" run "$G"
	refused 65 "$text" "$ESTAFETTE" submit "$G" "$WORK/base/f2.json"
	refused 65 "$text" "$ESTAFETTE" status "$G"
	refused 65 "$text" "$ESTAFETTE" audit "$G"
	unchanged "$G" "$h" "$name"
	empty "$OUT" "$name"
	fsck "$G" "$name"
}

mkdir base && cd base
export ESTAFETTE_HOME=$WORK/base/home
make_players
"$ESTAFETTE" new ne --ruleset napoleonic-empire --players players.json >/dev/null
join ne france allies   # step 1, the join, resolved: step 2 awaits France
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" ne france 1 '[]' > f.json
ssh-keygen -q -Y sign -f france -n estafette-orders f.json < /dev/null
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" ne france 2 '[]' > f2.json
ssh-keygen -q -Y sign -f france -n estafette-orders f2.json < /dev/null
# The hint is main's tree, written by the check of the first open.
[ "$(cat ne/.git/estafette-checked)" = "$(git -C ne rev-parse 'main^{tree}')" ] ||
	fail "the open did not leave main's tree in .git/estafette-checked"
cd "$WORK"

# ---------------------------------------------------------------- committed
fresh next-step
"$ESTAFETTE" submit "$G" "$WORK/base/f.json" >/dev/null
ln -s "$OUT" "$G/turns/0002"
g "$G" add turns/0002 && gm_git "$G" commit -qm "the next step's folder linked out"
refused_everywhere committed/link-at-next-step turns/0002 "a symbolic link"
grep -qF "remove it with git -C $G rm turns/0002 and commit" "$WORK/last.err" ||
	fail "committed/link-at-next-step: the fix is not named: $(cat "$WORK/last.err")"
passed committed/link-at-next-step

# The fix the message names: the game plays on, and the step's files are real.
g "$G" rm -q turns/0002 && gm_git "$G" commit -qm "no link"
expect_exit 0 "$ESTAFETTE" run "$G"
grep -qF "resolved step 2" "$WORK/last.out" || fail "fixed/link-removed: $(cat "$WORK/last.out")"
[ -d "$G/turns/0002" ] && [ ! -L "$G/turns/0002" ] && [ -f "$G/turns/0002/manifest.json" ] ||
	fail "fixed/link-removed: turns/0002 is not a real folder"
empty "$OUT" fixed/link-removed
fsck "$G" fixed/link-removed
passed fixed/link-removed

fresh orders-folder
rm -rf "$G/orders"
ln -s "$OUT" "$G/orders"
g "$G" add -A . && gm_git "$G" commit -qm "orders linked out"
refused_everywhere committed/link-at-orders orders "a symbolic link"
passed committed/link-at-orders

# Deep in a folder estafette never reads, and no hint: the whole tree is walked.
fresh deep
mkdir -p "$G/notes/a/b/c"
echo "a note" > "$G/notes/a/b/c/readme.txt"
ln -s "$OUT" "$G/notes/a/b/c/link"
g "$G" add -A . && gm_git "$G" commit -qm "a deep link"
rm "$G/.git/estafette-checked"
refused_everywhere committed/link-deep notes/a/b/c/link "a symbolic link"
passed committed/link-deep

fresh gitlink
g "$G" update-index --add --cacheinfo "160000,$(head_of "$G"),extern/lib"
gm_git "$G" commit -qm "a submodule"
refused_everywhere committed/gitlink extern/lib "a submodule (gitlink)"
grep -qF "remove it with git -C $G rm --cached extern/lib and commit" "$WORK/last.err" ||
	fail "committed/gitlink: the fix is not named: $(cat "$WORK/last.err")"
passed committed/gitlink

fresh exec-new
mkdir -p "$G/tools"
printf '#!/bin/sh\ntouch %s/ran\n' "$OUT" > "$G/tools/x.sh"
chmod +x "$G/tools/x.sh"
g "$G" add -A . && gm_git "$G" commit -qm "an executable"
[ "$(git -C "$G" ls-tree main tools/x.sh | cut -c1-6)" = 100755 ] || fail "committed/executable: not 100755"
refused_everywhere committed/executable tools/x.sh "an executable file"
grep -qF "clear the bit with git -C $G update-index --chmod=-x tools/x.sh and commit" "$WORK/last.err" ||
	fail "committed/executable: the fix is not named: $(cat "$WORK/last.err")"
passed committed/executable

fresh exec-step-file
g "$G" update-index --chmod=+x turns/0001/report.txt
gm_git "$G" commit -qm "a step's report made executable"
refused_everywhere committed/executable-step-file turns/0001/report.txt "an executable file"
# The fix the message names.
g "$G" update-index --chmod=-x turns/0001/report.txt && gm_git "$G" commit -qm "not executable"
expect_exit 0 "$ESTAFETTE" status "$G"
passed committed/executable-step-file

# Names git never checks out: a ".git" folder in a commit (here one that would plant the
# tree guard's own hint), its Windows and macOS spellings, "..", and a name with a line
# break. git mktree writes them; git fsck --strict flags them (hasDotgit and friends).
n=0
for name in .git .GIT '.git. ' git~1 $'.g\u200cit' .. $'a\nb'; do
	n=$((n + 1))
	fresh "name-$n"
	blob=$(printf '%s\n' 0000000000000000000000000000000000000000 | git -C "$G" hash-object -w --stdin)
	sub=$(printf '100644 blob %s\testafette-checked\n' "$blob" | git -C "$G" mktree)
	root=$( (git -C "$G" ls-tree -z main; printf '040000 tree %s\t%s\0' "$sub" "$name") |
		git -C "$G" mktree -z) || fail "git mktree took no $(printf '%q' "$name")"
	g "$G" update-ref refs/heads/main "$(g "$G" commit-tree "$root" -p main -m 'the host adds a folder')"
	h=$(head_of "$G")
	for cmd in run status audit; do
		refused 65 "a name git never checks out" "$ESTAFETTE" "$cmd" "$G"
	done
	refused 65 "a name git never checks out" "$ESTAFETTE" submit "$G" "$WORK/base/f2.json"
	# The name is shown with every byte but printable ASCII escaped: no line can be split.
	[ "$(grep -c 'a name git never checks out' "$WORK/last.err")" = 1 ] ||
		fail "committed/bad-name $n: the name split the message: $(cat "$WORK/last.err")"
	unchanged "$G" "$h" "committed/bad-name $n"
	empty "$OUT" "committed/bad-name $n"
	passed "committed/bad-name $(printf '%q' "$name")"
done

# ---------------------------------------------------------------- worktree
# Nothing committed: the work tree's turns/ is a link to a folder outside.
fresh wt-turns
rm -rf "$G/turns"
ln -s "$OUT" "$G/turns"
expect_exit 0 "$ESTAFETTE" submit "$G" "$WORK/base/f.json"
h=$(head_of "$G")
refused 65 "turns is a symbolic link in the work tree, and estafette never writes through links (a checkout would write turns/0002/" \
	"$ESTAFETTE" run "$G"
grep -qF "remove it with rm $G/turns and restore the work tree with git -C $G checkout -f main" "$WORK/last.err" ||
	fail "worktree/turns-linked: the fix is not named: $(cat "$WORK/last.err")"
unchanged "$G" "$h" worktree/turns-linked
empty "$OUT" worktree/turns-linked
fsck "$G" worktree/turns-linked
# The fix the message names.
rm "$G/turns" && git -C "$G" checkout -qf main
expect_exit 0 "$ESTAFETTE" run "$G"
grep -qF "resolved step 2" "$WORK/last.out" || fail "worktree/turns-linked: after the fix: $(cat "$WORK/last.out")"
empty "$OUT" worktree/turns-linked
passed worktree/turns-linked

# submit writes orders/france.json: the work tree's orders/ is a link.
fresh wt-orders
rm -rf "$G/orders" && ln -s "$OUT" "$G/orders"
h=$(head_of "$G")
refused 65 "orders is a symbolic link in the work tree, and estafette never writes through links (a checkout would write orders/france.json there)" \
	"$ESTAFETTE" submit "$G" "$WORK/base/f.json"
unchanged "$G" "$h" worktree/orders-linked
empty "$OUT" worktree/orders-linked
fsck "$G" worktree/orders-linked
passed worktree/orders-linked

# A file the step rewrites is a link to a file outside (the last component).
fresh wt-state
expect_exit 0 "$ESTAFETTE" submit "$G" "$WORK/base/f.json"
echo "outside" > "$WORK/wt-state/state.txt"
ln -sf "$WORK/wt-state/state.txt" "$G/state.json"
h=$(head_of "$G")
refused 65 "state.json is a symbolic link in the work tree" "$ESTAFETTE" run "$G"
unchanged "$G" "$h" worktree/file-linked
[ "$(cat "$WORK/wt-state/state.txt")" = outside ] || fail "worktree/file-linked: the file outside was written"
empty "$OUT" worktree/file-linked
passed worktree/file-linked

# A run killed before its checkout (the hint names an older commit): the
# full checkout of the next commit is checked as well.
fresh wt-full
expect_exit 0 "$ESTAFETTE" submit "$G" "$WORK/base/f.json"
echo 0000000000000000000000000000000000000000 > "$G/.git/estafette-worktree"
rm -rf "$G/turns/0001" && ln -s "$OUT" "$G/turns/0001"
h=$(head_of "$G")
refused 65 "turns/0001 is a symbolic link in the work tree" "$ESTAFETTE" run "$G"
unchanged "$G" "$h" worktree/full-checkout
empty "$OUT" worktree/full-checkout
passed worktree/full-checkout

# ---------------------------------------------------------------- history
# Step 1's own commit (and its tag) holds a link: history rewritten so that
# main is clean and only the step's commit has it, by the GM, who holds the
# GM key: the commits and the tags signed as estafette signs them, so that
# the audit reaches the tree.
fresh history
expect_exit 0 "$ESTAFETTE" submit "$G" "$WORK/base/f.json"
expect_exit 0 "$ESTAFETTE" run "$G"
ln -s "$OUT" "$G/link"
tree=$(cd "$G" && GIT_INDEX_FILE=$WORK/history/index sh -c \
	'git read-tree step-0001 && git update-index --add --cacheinfo "120000,$(printf %s "'"$OUT"'" | git hash-object -w --stdin),turns/0001/link" && git write-tree')
rm "$G/link"
# (c1 takes the step's own parent, the last join's order commit, and its message)
c1=$(gm_git "$G" commit-tree -S "$tree" -p "step-0001^{commit}^" -m "$(git -C "$G" log -1 --format=%B 'step-0001^{commit}')")
rest=$(gm_git "$G" commit-tree -S "$(git -C "$G" rev-parse 'main^{tree}')" -p "$c1" -m "step 0002")
gm_git "$G" tag -s -f -m "step 0001" step-0001 "$c1" >/dev/null 2>&1
gm_git "$G" tag -s -f -m "step 0002" step-0002 "$rest" >/dev/null 2>&1
g "$G" update-ref refs/heads/main "$rest"
refused 65 "audit of ne fails at step 1, turns/0001/link (tree): $G: turns/0001/link: a symbolic link in the game's tree at step-0001" \
	"$ESTAFETTE" audit "$G"
"$ESTAFETTE" audit "$G" --json > "$WORK/history/audit.json" || true
[ "$(json_get 'd["failure"]["file"] + " " + d["failure"]["check"]' < "$WORK/history/audit.json")" = "turns/0001/link tree" ] ||
	fail "history/step-commit-link: audit --json: $(cat "$WORK/history/audit.json")"
empty "$OUT" history/step-commit-link
fsck "$G" history/step-commit-link
passed history/step-commit-link

echo "tree_links: $checks checks"
