#!/bin/bash
# estafette site (docs/site.md). Replays the sample games (tests/demo.sh;
# DEMO_GAMES selects them, napoleonic-empire by default) and for each:
# - builds its site: the game page, maps.html, a page and a data file for
#   every step tag, the assets;
# - raw/ holds every file of main byte for byte and nothing else; each
#   data file's base64 values are the blobs `git show step-NNNN:PATH` gives
#   (game.json and keys at main, step 0's state.json at step-0000), and a
#   step's data holds exactly its state, dice, manifest, events and orders;
# - every page parses (python3's html.parser, every element closed in
#   order) and every local href and src names a file of the site; every
#   <img> has alt text; the game page has the verify button and output;
# - a second build writes nothing (inodes and mtimes unchanged);
# Then, on a copy of the first game:
# - git config estafette.sitedir makes run build the site; a GM step
#   (gm end) and a run rewrite only what changed: the old steps' pages and
#   data keep their inodes, the new step's appear, the game page says over;
# - a sitedir that cannot be written is a warning, and run still exits 0;
# - hooks/site-to-pages commits the site on refs/heads/pages (signed,
#   main untouched, no second commit when nothing changed), and audit
#   still passes;
# - the refusals: a symbolic link, a file, a non-empty folder that is not
#   a site, another game's site, a folder inside .git (exit 64 each);
# - a build that fails halfway (a step's tag missing: exit 66) leaves a
#   folder that the next build takes as its own.
# - after gm replace, each step's data carries the keys of its time;
# And a sealed game played a few steps: its site holds no file whose bytes
# are not a blob of its public refs, and no hand or deck of the GM's
# sealed store appears in any page; after the reveal, each step's data
# carries its revealed hidden record.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch

export DEMO_DIR=${SITE_DEMO_DIR:-$WORK/demo}
GAMES=${DEMO_GAMES:-napoleonic-empire}
if [ -z "${SITE_DEMO_DIR:-}" ]; then
	DEMO_GAMES=$GAMES B=${B:-build} bash "$TOP/tests/demo.sh" > "$WORK/demo.log" 2>&1 ||
		fail "the demo failed: $(tail -20 "$WORK/demo.log")"
fi
export ESTAFETTE_HOME=$DEMO_DIR/home

cat > "$WORK/check_site.py" <<'PY'
import base64, html, html.parser, json, os, re, subprocess, sys
repo, site = sys.argv[1:3]
errors = []
def git(*args):
    return subprocess.run(["git", "-C", repo] + list(args), capture_output=True, check=True).stdout
def show(rev, path):
    return git("show", "%s:%s" % (rev, path))
def jsonp(path):
    text = open(path, encoding="utf-8").read()
    if not (text.startswith("estafetteData(") and text.endswith(");\n")):
        errors.append("%s: not estafetteData(...);" % path)
        return {}
    return json.loads(text[len("estafetteData("):-3])

tags = sorted(t for t in git("tag", "-l", "step-*").decode().split() if t != "step-0000")
steps = [int(t[5:]) for t in tags]
# raw/: main's tree, byte for byte, nothing more
main_files = git("ls-tree", "-r", "--name-only", "main").decode().split("\n")[:-1]
raw_files = []
for top, dirs, files in os.walk(os.path.join(site, "raw")):
    raw_files += [os.path.relpath(os.path.join(top, f), os.path.join(site, "raw")) for f in files]
if sorted(raw_files) != sorted(main_files):
    errors.append("raw/ is not main's tree: extra %s, missing %s" % (
        sorted(set(raw_files) - set(main_files))[:5], sorted(set(main_files) - set(raw_files))[:5]))
for f in main_files:
    p = os.path.join(site, "raw", f)
    if os.path.exists(p) and open(p, "rb").read() != show("main", f):
        errors.append("raw/%s differs from main:%s" % (f, f))
# data/
g = jsonp(os.path.join(site, "data", "game.js"))
if g.get("kind") != "game" or g.get("steps") != steps or g.get("id") != json.loads(show("main", "game.json"))["id"]:
    errors.append("data/game.js: kind, id or steps wrong: %s" % {k: g.get(k) for k in ("kind", "id", "steps")})
want = {"game.json": show("main", "game.json"), "keys/allowed_signers": show("main", "keys/allowed_signers"),
        "state.json": show("step-0000", "state.json")}
if {k: base64.b64decode(v) for k, v in g.get("files", {}).items()} != want:
    errors.append("data/game.js: files differ from the repository's")
for n, tag in zip(steps, tags):
    name = tag[5:]
    d = jsonp(os.path.join(site, "data", name + ".js"))
    paths = ["state.json"] + ["turns/%s/%s" % (name, f) for f in ("dice.json", "manifest.json", "events.json")]
    paths += git("ls-tree", "--name-only", tag, "turns/%s/orders/" % name).decode().split()
    revs = {p: tag for p in paths}
    # after a reveal, the step's hidden record from main; after a seat was replaced, the keys it was signed under
    hidden = "revealed/%s/hidden-dice.json" % name
    if git("ls-tree", "--name-only", "main", hidden).decode().strip():
        revs[hidden] = "main"
    if git("rev-parse", tag + "^:keys/allowed_signers") != git("rev-parse", "main:keys/allowed_signers"):
        revs["keys/allowed_signers"] = tag + "^"
    if d.get("kind") != "step" or d.get("step") != n or sorted(d.get("files", {})) != sorted(revs):
        errors.append("data/%s.js: kind, step or file list wrong: %s" % (name, sorted(d.get("files", {}))))
        continue
    for p, rev in revs.items():
        if base64.b64decode(d["files"][p]) != show(rev, p):
            errors.append("data/%s.js: %s differs from %s:%s" % (name, p, rev, p))
    page = os.path.join(site, "steps", name + ".html")
    if not os.path.exists(page):
        errors.append("steps/%s.html is missing" % name)
        continue
    # each order file and GM act is linked from its step's page (its signature too), and shown
    text = open(page, encoding="utf-8").read()
    for sub in ("orders", "gm"):
        for f in git("ls-tree", "--name-only", tag, "turns/%s/%s/" % (name, sub)).decode().split():
            if 'href="../raw/%s"' % f not in text:
                errors.append("steps/%s.html: no link to %s" % (name, f))
            if not f.endswith(".sig") and show(tag, f).decode() not in html.unescape(text):
                errors.append("steps/%s.html: %s is not shown" % (name, f))

VOID = {"meta", "link", "img", "br", "hr", "input", "source", "wbr", "col", "area", "base", "embed", "track"}
OPTIONAL = {"p", "li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "option"}
class Page(html.parser.HTMLParser):
    def __init__(self, path):
        super().__init__(convert_charrefs=True)
        self.path, self.stack, self.links, self.ids = path, [], [], set()
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a: self.ids.add(a["id"])
        for k in ("href", "src"):
            if k in a: self.links.append(a[k])
        if tag == "img" and not (a.get("alt") or "").strip():
            errors.append("%s: an <img> without alt text: %s" % (self.path, a.get("src")))
        if tag not in VOID: self.stack.append((tag, self.getpos()))
    def handle_endtag(self, tag):
        if tag in VOID: return
        while self.stack and self.stack[-1][0] != tag and self.stack[-1][0] in OPTIONAL:
            self.stack.pop()
        if not self.stack or self.stack[-1][0] != tag:
            errors.append("%s:%d: </%s> closes <%s>" % (self.path, self.getpos()[0], tag,
                          self.stack[-1][0] if self.stack else "nothing"))
            return
        self.stack.pop()
pages = ["index.html", "maps.html"] + ["steps/%s.html" % t[5:] for t in tags]
for rel in pages:
    path = os.path.join(site, rel)
    if not os.path.exists(path):
        errors.append("%s is missing" % rel); continue
    p = Page(rel); p.feed(open(path, encoding="utf-8").read()); p.close()
    left = [t for t, _ in p.stack if t not in OPTIONAL]
    if left: errors.append("%s: never closed: %s" % (rel, left))
    for link in p.links:
        if re.match(r"^[a-z]+:", link) or link.startswith("#"): continue
        target = os.path.normpath(os.path.join(os.path.dirname(path), link.split("#")[0]))
        if not os.path.isfile(target):
            errors.append("%s: %s names no file of the site" % (rel, link))
    if rel == "index.html" and not {"verify", "verify-result"} <= p.ids:
        errors.append("index.html: no #verify button or #verify-result output")
for a in ("assets/site.css", "assets/estafette.js", ".estafette-site.json"):
    if not os.path.isfile(os.path.join(site, a)): errors.append("%s is missing" % a)
if errors:
    print("\n".join(errors[:20])); sys.exit(1)
print("%d pages, %d steps" % (len(pages), len(steps)))
PY

# Inode, mtime and path of every file of a site, one line each.
stamps() { (cd "$1" && find . -type f -printf '%i %T@ %p\n' | sort -k3); }

first=
for g in $GAMES; do
	game=$DEMO_DIR/$g/game
	[ -d "$game" ] || fail "$game: no sample game"
	site=$WORK/site-$g
	start=$(date +%s%N)
	"$ESTAFETTE" site "$game" "$site" > "$WORK/site.out" || fail "$g: estafette site failed"
	ms=$((($(date +%s%N) - start) / 1000000))
	"$PY" "$WORK/check_site.py" "$game" "$site" > "$WORK/check.out" || fail "$g: $(cat "$WORK/check.out")"
	stamps "$site" > "$WORK/before"
	"$ESTAFETTE" site "$game" "$site" --json > "$WORK/again.json"
	[ "$(json_get 'd["written"]' < "$WORK/again.json")" = 0 ] || fail "$g: a second build wrote files"
	stamps "$site" > "$WORK/after"
	cmp -s "$WORK/before" "$WORK/after" || fail "$g: a second build touched files: $(diff "$WORK/before" "$WORK/after" | head -5)"
	echo "$g: $(cat "$WORK/check.out"), built in $ms ms, $(du -sk "$site" | cut -f1) KiB"
	[ -n "$first" ] || first=$g
done

# --- sitedir in run, and a new step rewrites only what changed ---
cp -a "$DEMO_DIR/$first/game" "$WORK/game"
game=$WORK/game
git -C "$game" config estafette.sitedir ../run-site
"$ESTAFETTE" run "$game" --no-mail > "$WORK/run.out" 2>&1 || fail "run with a sitedir: $(cat "$WORK/run.out")"
[ -f "$WORK/run-site/index.html" ] || fail "run did not build the site in estafette.sitedir"
stamps "$WORK/run-site" > "$WORK/before"
last=$(git -C "$game" tag -l 'step-*' | sort | tail -1 | cut -c6-)
"$ESTAFETTE" gm "$game" end --result draw --reason "the test ends it" > "$WORK/gm.out" 2>&1 ||
	fail "gm end: $(cat "$WORK/gm.out")"
new=$(git -C "$game" tag -l 'step-*' | sort | tail -1 | cut -c6-)
[ "$new" != "$last" ] || fail "gm end made no step"
"$ESTAFETTE" run "$game" --no-mail > "$WORK/run.out" 2>&1 || fail "run: $(cat "$WORK/run.out")"
"$PY" "$WORK/check_site.py" "$game" "$WORK/run-site" > "$WORK/check.out" || fail "after gm end: $(cat "$WORK/check.out")"
stamps "$WORK/run-site" > "$WORK/after"
grep -q "The game is over" "$WORK/run-site/index.html" || fail "the game page does not say the game is over"
changed=$(command join -1 3 -2 3 -o 1.1,1.2,2.1,2.2,0 "$WORK/before" "$WORK/after" | awk '$1 != $3 || $2 != $4 {print $5}')
for f in $changed; do
	case $f in
	./index.html|./maps.html|./data/game.js|./raw/state.json|./steps/$last.html|./.estafette-site.json) ;;
	*) fail "the new step rewrote $f, which did not change" ;;
	esac
done
echo "$changed" | grep -q '^./index.html$' || fail "the game page was not rewritten"
for f in data/$new.js steps/$new.html raw/turns/$new/manifest.json; do
	[ -f "$WORK/run-site/$f" ] || fail "the new step's $f is missing"
done
# run with a site it cannot write: a warning, exit 0
: > "$WORK/not-a-folder"
git -C "$game" config estafette.sitedir "$WORK/not-a-folder"
"$ESTAFETTE" run "$game" --no-mail > "$WORK/run.out" 2>&1 || fail "run failed on a bad sitedir: $(cat "$WORK/run.out")"
grep -q "estafette.sitedir" "$WORK/run.out" || fail "run gave no warning for a sitedir it cannot write: $(cat "$WORK/run.out")"
git -C "$game" config estafette.sitedir ../run-site

# --- the pages branch ---
main=$(git -C "$game" rev-parse main)
ESTAFETTE=$ESTAFETTE bash "$TOP/hooks/site-to-pages" "$game" > "$WORK/pages.out" 2>&1 ||
	fail "site-to-pages: $(cat "$WORK/pages.out")"
pages=$(git -C "$game" rev-parse pages)
[ "$(git -C "$game" rev-parse main)" = "$main" ] || fail "site-to-pages moved main"
[ -z "$(git -C "$game" status --porcelain --untracked-files=no)" ] || fail "site-to-pages touched the index or work tree"
cmp -s <(git -C "$game" show pages:data/game.js) "$WORK/run-site/data/game.js" || fail "pages does not hold the site"
if [ -n "$(git -C "$game" config estafette.signingkey)" ]; then
	git -C "$game" -c gpg.format=ssh -c gpg.ssh.allowedSignersFile="$game/keys/allowed_signers" \
		verify-commit pages 2>/dev/null || fail "the pages commit is not signed by the GM"
fi
ESTAFETTE=$ESTAFETTE bash "$TOP/hooks/site-to-pages" "$game" > "$WORK/pages.out" 2>&1
[ "$(git -C "$game" rev-parse pages)" = "$pages" ] || fail "site-to-pages committed an unchanged site"
"$ESTAFETTE" audit "$game" > "$WORK/audit.out" 2>&1 || fail "audit with a pages branch: $(tail -5 "$WORK/audit.out")"

# --- refusals ---
ln -s "$WORK/run-site" "$WORK/link"
expect_exit 64 "$ESTAFETTE" site "$game" "$WORK/link"
grep -q "symbolic link" "$WORK/last.err" || fail "a link DIR: $(cat "$WORK/last.err")"
expect_exit 64 "$ESTAFETTE" site "$game" "$WORK/not-a-folder"
mkdir "$WORK/mine" && echo keep > "$WORK/mine/notes.txt"
expect_exit 64 "$ESTAFETTE" site "$game" "$WORK/mine"
grep -q "neither empty nor an earlier site" "$WORK/last.err" || fail "a full DIR: $(cat "$WORK/last.err")"
[ "$(cat "$WORK/mine/notes.txt")" = keep ] || fail "a refused folder was written to"
expect_exit 64 "$ESTAFETTE" site "$game" "$game/.git/site"
[ ! -e "$game/.git/site" ] || fail "a site was written inside .git"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["game"]="another"; json.dump(d, open(sys.argv[1], "w"))' \
	"$WORK/run-site/.estafette-site.json"
expect_exit 64 "$ESTAFETTE" site "$game" "$WORK/run-site"
expect_exit 66 "$ESTAFETTE" site "$WORK/nothing" "$WORK/s2"
# A manifest is a file anyone who can write in DIR can edit: a path it lists through a
# link in DIR names a file elsewhere, which a build must not remove.
"$ESTAFETTE" site "$game" "$WORK/link-site" > /dev/null || fail "a site to plant a link in"
mkdir "$WORK/victim" && echo precious > "$WORK/victim/precious.txt"
ln -s "$WORK/victim" "$WORK/link-site/evil"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["files"].append("evil/precious.txt"); d["commit"]=None; json.dump(d, open(sys.argv[1], "w"))' \
	"$WORK/link-site/.estafette-site.json"
"$ESTAFETTE" site "$game" "$WORK/link-site" > /dev/null || fail "the site with a planted link"
[ -e "$WORK/victim/precious.txt" ] || fail "a build removed a file outside DIR through a link in DIR"
expect_exit 64 "$ESTAFETTE" site

# A report template committed to the game (the GM may; in an unsigned game, anyone who can
# push) never reaches the pages: they render the report with estafette's own templates.
cp -a "$game" "$WORK/templated"
mkdir -p "$WORK/templated/templates"
printf '<html><body><script>document.title="from the game"</script>{{game}}</body></html>\n' \
	> "$WORK/templated/templates/report.html.mustache"
git -C "$WORK/templated" add templates
git -C "$WORK/templated" -c user.name=gm -c user.email=gm@example.org -c commit.gpgsign=false \
	commit -q -m "the GM's own report template"
"$ESTAFETTE" report "$WORK/templated" --format html | grep -q 'from the game' ||
	fail "the game's template is not the one report uses: the test would prove nothing"
"$ESTAFETTE" site "$WORK/templated" "$WORK/templated-site" > /dev/null || fail "the site of a templated game"
! grep -l 'from the game' "$WORK/templated-site"/steps/*.html "$WORK/templated-site"/*.html ||
	fail "a page holds the game's own template's script"

# A later commit that changes a step's files (audit refuses it) is refused too: the page
# would show main's bytes as the step's.
cp -a "$game" "$WORK/rewritten"
"$PY" -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); [r.__setitem__("value", r["sides"]) for r in d["rolls"]]; open(p,"w").write(json.dumps(d, indent=2))' \
	"$WORK/rewritten/turns/0003/dice.json"
git -C "$WORK/rewritten" -c user.name=p -c user.email=p@example.org -c commit.gpgsign=false \
	commit -q -am "every roll a six"
expect_exit 65 "$ESTAFETTE" site "$WORK/rewritten" "$WORK/rewritten-site"
grep -q "turns/0003 at main is not what step-0003 committed" "$WORK/last.err" ||
	fail "a changed step's files: $(cat "$WORK/last.err")"

# After a seat changes hands, each step's data carries the keys its orders were signed under.
cp -a "$DEMO_DIR/$first/game" "$WORK/replaced"
ssh-keygen -q -t ed25519 -N '' -C newcomer -f "$WORK/newcomer"
seat=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["players"][0]["id"])' "$game/game.json")
"$ESTAFETTE" gm "$WORK/replaced" replace --player "$seat" --name Newcomer --email new@example.org \
	--key "$WORK/newcomer.pub" --reason "a new player" > "$WORK/replace.out" 2>&1 ||
	fail "gm replace: $(cat "$WORK/replace.out")"
"$ESTAFETTE" site "$WORK/replaced" "$WORK/replaced-site" > /dev/null || fail "the site after gm replace"
"$PY" "$WORK/check_site.py" "$WORK/replaced" "$WORK/replaced-site" > "$WORK/check.out" ||
	fail "after gm replace: $(cat "$WORK/check.out")"
grep -q '"keys/allowed_signers"' "$WORK/replaced-site/data/0001.js" || fail "step 1's data lacks the keys it was signed under"

# A build that fails halfway (a step's tag missing) leaves a folder the next build takes.
cp -a "$game" "$WORK/untagged"
target=$(git -C "$WORK/untagged" rev-parse "step-0002^{commit}")
git -C "$WORK/untagged" tag -d step-0002 > /dev/null
expect_exit 66 "$ESTAFETTE" site "$WORK/untagged" "$WORK/half-site"
grep -q "step-0002 is missing" "$WORK/last.err" || fail "a missing tag: $(cat "$WORK/last.err")"
git -C "$WORK/untagged" tag step-0002 "$target"
"$ESTAFETTE" site "$WORK/untagged" "$WORK/half-site" > /dev/null || fail "the site after a failed build was refused"
"$PY" "$WORK/check_site.py" "$WORK/untagged" "$WORK/half-site" > "$WORK/check.out" || fail "after a failed build: $(cat "$WORK/check.out")"

# --- a sealed game's site holds only what its public refs hold ---
mkdir "$WORK/sealed" && cd "$WORK/sealed"
export ESTAFETTE_HOME=$WORK/sealed/home
make_players
"$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json --sealed >/dev/null
git -C game config estafette.sender "Sealed <orders@example.org>"
join game france allies
play() {
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$1" 1 "$2" > "$1.json"
	rm -f "$1.json.sig"
	ssh-keygen -q -Y sign -f "$1" -n estafette-orders "$1.json"
	"$ESTAFETTE" submit game "$1.json" >/dev/null
	"$ESTAFETTE" run game >/dev/null 2>&1
}
play france '[{"type": "move", "from": "Rhineland", "to": "Prussia", "armies": 4}]'
for i in 1 2 3; do
	play "$("$ESTAFETTE" status game --json | json_get 'd["awaiting"][0]["player"]')" '[]'
done
"$ESTAFETTE" site game site > /dev/null || fail "the sealed game's site"
"$PY" "$WORK/check_site.py" game site > "$WORK/check.out" || fail "sealed: $(cat "$WORK/check.out")"
grep -q "<dt>Sealed</dt>" site/index.html || fail "the sealed game's page does not say it is sealed"
SEALED=$ESTAFETTE_HOME/games/game/sealed.git
"$PY" - game "$SEALED" site <<'PY' || fail "the sealed game's site leaks"
import base64, json, os, re, subprocess, sys
repo, sealed, site = sys.argv[1:4]
def git(r, *a):
    return subprocess.run(["git", "-C", r] + list(a), capture_output=True, check=True).stdout
def blob_id(data):
    return subprocess.run(["git", "hash-object", "--stdin"], input=data, capture_output=True, check=True).stdout.strip().decode()
public = set(l.split()[0] for l in git(repo, "rev-list", "--objects", "--branches", "--tags").decode().splitlines())
errors, texts = [], []
for top, dirs, files in os.walk(site):
    for f in files:
        path = os.path.join(top, f); rel = os.path.relpath(path, site); data = open(path, "rb").read()
        texts.append((rel, data))
        if rel.startswith("raw/") and blob_id(data) not in public:
            errors.append("%s: not a blob of the public refs" % rel)
        if rel.startswith("data/"):
            d = json.loads(data.decode()[len("estafetteData("):-3])
            for p, v in d["files"].items():
                if blob_id(base64.b64decode(v)) not in public:
                    errors.append("%s: %s is not a blob of the public refs" % (rel, p))
# Every hand and the deck of every step, as the GM's sealed store holds them.
piles = []
for path in git(sealed, "ls-tree", "-r", "--name-only", "main").decode().split():
    if path.endswith("state.json"):
        s = json.loads(git(sealed, "show", "main:" + path))
        s = s.get("state", s)
        piles += [p for p in [s.get("deck"), s.get("discard")] + list((s.get("hands") or {}).values())
                  if isinstance(p, list) and len(p) >= 2]
if not piles:
    errors.append("the sealed store holds no hand or deck to look for")
for rel, data in texts:
    for p in piles:
        for enc in (data, ):
            if re.search(r'"\s*,\s*"'.join(map(re.escape, p)).encode(), enc) or \
               re.search(r'\s*,\s*'.join(map(re.escape, p)).encode(), enc):
                errors.append("%s holds a hidden pile %s" % (rel, p[:3])); break
    for d in [data] + ([base64.b64decode(v) for v in json.loads(data.decode()[len("estafetteData("):-3])["files"].values()]
                       if rel.startswith("data/") else []):
        # Two cards of a hand can later lie side by side, in that order, in
        # public data (a discard pile): these files are public blobs.
        for p in (p for p in piles if len(p) >= 3):
            if re.search(r'"\s*,\s*"'.join(map(re.escape, p)).encode(), d):
                errors.append("%s holds a hidden pile (decoded) %s" % (rel, p[:3]))
if errors:
    print("\n".join(sorted(set(errors))[:20])); sys.exit(1)
print("%d files, %d hidden piles looked for" % (len(texts), len(piles)))
PY
# After the reveal, each step's data carries its hidden record.
"$ESTAFETTE" reveal game --before-end > /dev/null 2>&1 || fail "reveal"
"$ESTAFETTE" site game site > /dev/null || fail "the sealed game's site after the reveal"
"$PY" "$WORK/check_site.py" game site > "$WORK/check.out" || fail "sealed, revealed: $(cat "$WORK/check.out")"
grep -q '"revealed/0002/hidden-dice.json"' site/data/0002.js || fail "step 2's data lacks its revealed hidden record"
f=$(git -C game ls-tree --name-only main revealed/0002/orders/ | grep -v '\.sig$' | head -1)
[ -n "$f" ] || fail "the reveal published no order file of step 2"
grep -q "href=\"../raw/$f\"" site/steps/0002.html || fail "step 2's page does not link the revealed $f"
echo "site: $GAMES checked; run, sitedir, pages branch, refusals and the sealed game checked"
