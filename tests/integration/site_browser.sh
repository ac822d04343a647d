#!/bin/bash
# The "verify this game" button of a game's site (templates/site/estafette.js,
# docs/site.md), run by headless Chromium from file://:
# - the script's dice and signature code against docs/protocol.md's v1 and v2
#   test vectors (read from the document) and against SSHSIG signatures that
#   ssh-keygen makes with Ed25519, ECDSA P-256 and RSA keys
#   (tests/helpers/site_vectors.html);
# - every sample game (tests/demo.sh): `estafette site` writes it, and
#   index.html?verify says "ok" with the steps and rolls `estafette audit
#   --json` counts in "checked" (both count the public rolls of dice.json:
#   audit's hidden rolls are not in "rolls", and the site has none to show),
#   and one signature checked for each order file audit checked (all Ed25519);
# - in copies of each site: one roll's value changed in its step's data file,
#   one bit of one order file flipped, one chain value changed: the page says
#   "mismatch" and names that step (and that roll, with the value recorded
#   and the one the dice give);
# - each game with hidden rolls revealed (estafette reveal --before-end), its
#   site made again: the page checks every hidden roll, and names one changed;
# - the game page (its top, and its verify section after the run) and a step
#   page at 390x844 and 1280x900, light and dark, and a mismatch at 390x844,
#   as screenshots (left in $SCREENS when it is set), and neither page is
#   wider than 390 px at 390 px (document.documentElement.scrollWidth, read
#   through a same-folder iframe), a measure that does see a page made too
#   wide;
# - maps.html#step-3: the script's slider shows that one map.
# The time the verifier takes on each game (real time, a run without
# virtual time) is printed as a NOTE.
set -euo pipefail
source "$TOP/tests/lib.sh"
need_chromium
scratch
SITE_DATA=$TOP/tests/helpers/site_data.py

# chrome ARGS...: headless Chromium with a fresh profile; pages under file://
# may read one another (the measuring iframe needs it).
chrome() {
	local profile
	profile=$(mktemp -d "$WORK/profile.XXXXXX")
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--allow-file-access-from-files --user-data-dir="$profile" --hide-scrollbars "$@" \
		2>>"$WORK/chromium.log"
	rm -rf "$profile"
}

# verify URL OUT: the verifier's output attributes, as JSON in OUT.
verify() {
	chrome --virtual-time-budget=60000 --dump-dom "$1" > "$2.html" ||
		fail "chromium could not load $1: $(tail -5 "$WORK/chromium.log")"
	"$PY" "$SITE_DATA" verdict "$2.html" > "$2" || fail "no verdict in $2.html"
}

# attr FILE NAME: one attribute of a verdict ("" when absent).
attr() {
	json_get "d.get('$2', '')" < "$1"
}

# --- the script's pieces against the protocol's test vectors ---
"$PY" "$TOP/tests/helpers/site_vectors.py" "$TOP/docs/protocol.md" "$WORK/keys" > "$WORK/fragment" ||
	fail "site_vectors.py could not read the vectors"
chrome --virtual-time-budget=30000 --dump-dom \
	"file://$TOP/tests/helpers/site_vectors.html#$(cat "$WORK/fragment")" > "$WORK/vectors.html" ||
	fail "chromium could not run site_vectors.html"
sed -n '/<pre id="result"/,/<\/pre>/p' "$WORK/vectors.html" > "$WORK/vectors.txt"
grep -q 'data-status="pass"' "$WORK/vectors.txt" ||
	fail "estafette.js against the test vectors: $(grep -v '^ok ' "$WORK/vectors.txt" | head -20)"
for want in "v1 seed_1" "v1 then six d10" "v2 seed_1" "v2 then six d10" "v2 hidden seed" \
	"signature ed25519:" "signature ecdsa-sha2-nistp256 #7" "signature rsa-sha2-512 (3072 bits)" \
	"signature ed25519, message changed"; do
	grep -q "^ok   $want" "$WORK/vectors.txt" || fail "site_vectors.html did not check $want"
done
echo "estafette.js: $(grep -c '^ok ' "$WORK/vectors.txt") vector and signature checks agree"

# --- the sample games ---
export DEMO_DIR=$WORK/demo
B=${B:-build} bash "$TOP/tests/demo.sh" > "$WORK/demo.log" 2>&1 ||
	fail "the demo failed: $(tail -20 "$WORK/demo.log")"
export ESTAFETTE_HOME=$DEMO_DIR/home
games=$(cd "$DEMO_DIR" && ls -d */game | sed 's|/game||')
[ -n "$games" ] || fail "the demo made no game"

# most_rolls GAME: "STEP COUNT" of the step with the most public rolls.
most_rolls() {
	"$PY" - "$1" <<'PY'
import glob, json, sys
best = max((len(json.load(open(p))["rolls"]), int(p.split("/")[-2]))
           for p in glob.glob(sys.argv[1] + "/turns/*/dice.json"))
print(best[1], best[0])
PY
}

# an_order GAME: "STEP FILE" of an order file in the middle of the game.
an_order() {
	"$PY" - "$1" <<'PY'
import glob, os, sys
files = sorted(glob.glob(sys.argv[1] + "/turns/*/orders/*.json"))
if not files:
    sys.exit("no order file under turns/*/orders/")
p = os.path.relpath(files[len(files) // 2], sys.argv[1])
print(int(p.split("/")[1]), p)
PY
}

for name in $games; do
	game=$DEMO_DIR/$name/game
	site=$WORK/site-$name
	"$ESTAFETTE" site "$game" "$site" > "$WORK/site-$name.log" || fail "estafette site $name: $(cat "$WORK/site-$name.log")"
	"$ESTAFETTE" audit "$game" --json > "$WORK/audit-$name.json" || fail "estafette audit $name failed"
	read -r a_steps a_rolls a_orders <<<"$(json_get '"%d %d %d" % (d["checked"]["steps"], d["checked"]["rolls"], d["checked"]["orders"])' \
		< "$WORK/audit-$name.json")"
	steps=$(ls "$game/turns" | wc -l)
	[ "$a_steps" = "$steps" ] || fail "$name: audit resolved $a_steps of $steps steps again: not a game to compare with"

	verify "file://$site/index.html?verify" "$WORK/v-$name.json"
	v=$WORK/v-$name.json
	[ "$(attr "$v" status)" = ok ] || fail "$name: the page says $(attr "$v" status): $(attr "$v" text)"
	[ "$(attr "$v" steps)" = "$a_steps" ] || fail "$name: the page checked $(attr "$v" steps) steps, audit $a_steps"
	[ "$(attr "$v" rolls)" = "$a_rolls" ] || fail "$name: the page checked $(attr "$v" rolls) rolls, audit $a_rolls"
	[ "$(attr "$v" signatures)" = "$a_orders" ] && [ "$a_orders" -gt 0 ] ||
		fail "$name: the page checked $(attr "$v" signatures) signatures, audit $a_orders order files (all Ed25519)"
	[ -z "$(attr "$v" signatures-unchecked)" ] || fail "$name: signatures not checked: $(attr "$v" signatures-unchecked)"
	grep -q "^$a_steps steps, $a_rolls rolls: all agree\. $a_orders signatures checked\." <<<"$(attr "$v" text)" ||
		fail "$name: the page says: $(attr "$v" text)"

	# The time it takes, in real time: Chromium stops the page after 10 s.
	chrome --timeout=10000 --dump-dom "file://$site/index.html?verify" > "$WORK/t-$name.html" &&
		"$PY" "$SITE_DATA" verdict "$WORK/t-$name.html" > "$WORK/t-$name.json" &&
		[ "$(attr "$WORK/t-$name.json" status)" = ok ] &&
		echo "NOTE: $name: $a_steps steps, $a_rolls rolls, $a_orders signatures verified in $(attr "$WORK/t-$name.json" ms) ms" ||
		echo "NOTE: $name: the verifier did not finish within 10 s of real time"

	# One roll's value changed: the page names the step and the roll.
	read -r step count <<<"$(most_rolls "$game")"
	[ "$count" -gt 0 ] || fail "$name: no step has a roll"
	roll=$(((count + 1) / 2))
	cp -r "$site" "$WORK/t"
	IFS='|' read -r said old new <<<"$("$PY" "$SITE_DATA" roll "$WORK/t/data/$(printf %04d "$step").js" "$roll")"
	verify "file://$WORK/t/index.html?verify" "$WORK/v.json"
	[ "$(attr "$WORK/v.json" status)/$(attr "$WORK/v.json" first-bad-step)/$(attr "$WORK/v.json" first-bad-roll)" = \
		"mismatch/$step/$roll" ] || fail "$name: roll $roll of step $step changed, the page says: $(attr "$WORK/v.json" text)"
	sides=$(json_get "d['rolls'][$((roll - 1))]['sides']" < "$game/turns/$(printf %04d "$step")/dice.json")
	want="Step $step, roll $roll (${said#* }, d$sides): the record says $new, the dice give $old."
	grep -qF "$want" <<<"$(attr "$WORK/v.json" text)" ||
		fail "$name: the page says \"$(attr "$WORK/v.json" text)\", not \"$want\""
	[ "$(attr "$WORK/v.json" steps)" = $((step - 1)) ] || fail "$name: $(attr "$WORK/v.json" steps) steps agree before step $step"
	echo "$name: $want"
	rm -rf "$WORK/t"

	# One bit of an order file flipped: the page names its step.
	read -r step file <<<"$(an_order "$game")"
	cp -r "$site" "$WORK/t"
	"$PY" "$SITE_DATA" byte "$WORK/t/data/$(printf %04d "$step").js" "$file"
	verify "file://$WORK/t/index.html?verify" "$WORK/v.json"
	[ "$(attr "$WORK/v.json" status)/$(attr "$WORK/v.json" first-bad-step)" = "mismatch/$step" ] ||
		fail "$name: $file changed, the page says: $(attr "$WORK/v.json" text)"
	case $(attr "$WORK/v.json" first-bad-what) in
	order | seed | signature | binding) ;;
	*) fail "$name: $file changed, the page blames $(attr "$WORK/v.json" first-bad-what)" ;;
	esac
	grep -qF "$(basename "$file")" <<<"$(attr "$WORK/v.json" text)" || fail "$name: the page does not name $file"
	echo "$name: $(attr "$WORK/v.json" text)"
	rm -rf "$WORK/t"

	# A chain value changed: the link to the step before no longer holds.
	step=$(((steps + 1) / 2))
	cp -r "$site" "$WORK/t"
	"$PY" "$SITE_DATA" reveal "$WORK/t/data/$(printf %04d "$step").js" > /dev/null
	verify "file://$WORK/t/index.html?verify" "$WORK/v.json"
	[ "$(attr "$WORK/v.json" status)/$(attr "$WORK/v.json" first-bad-step)/$(attr "$WORK/v.json" first-bad-what)" = \
		"mismatch/$step/chain" ] || fail "$name: step $step's chain value changed, the page says: $(attr "$WORK/v.json" text)"
	echo "$name: $(attr "$WORK/v.json" text)"
	rm -rf "$WORK/t"

	# Dice v2: a player the step did not await, added as a GM varying the seed would.
	if grep -q '"estafette/dice/v2"' "$site/raw/game.json"; then
		cp -r "$site" "$WORK/t"
		"$PY" "$SITE_DATA" ghost "$WORK/t/data/$(printf %04d "$step").js" > /dev/null
		verify "file://$WORK/t/index.html?verify" "$WORK/v.json"
		[ "$(attr "$WORK/v.json" status)/$(attr "$WORK/v.json" first-bad-step)/$(attr "$WORK/v.json" first-bad-what)" = \
			"mismatch/$step/seed" ] && grep -q "game.json has no such player" <<<"$(attr "$WORK/v.json" text)" ||
			fail "$name: a ghost among step $step's awaited players, the page says: $(attr "$WORK/v.json" text)"
		echo "$name: $(attr "$WORK/v.json" text)"
		rm -rf "$WORK/t"
	fi
done

# --- hidden rolls, once revealed ---
# Each game with hidden rolls revealed (`estafette reveal --before-end`) and
# its site made again: every hidden roll agrees, and one changed is named.
for name in $games; do
	game=$DEMO_DIR/$name/game
	want=$("$PY" -c 'import glob, json, sys
print(sum(json.load(open(p)).get("hidden_rolls", 0) for p in glob.glob(sys.argv[1] + "/turns/*/dice.json")))' "$game")
	[ "$want" -gt 0 ] || continue
	"$ESTAFETTE" reveal "$game" --before-end > /dev/null || fail "$name: estafette reveal"
	"$ESTAFETTE" site "$game" "$WORK/t" > /dev/null || fail "$name: estafette site after the reveal"
	verify "file://$WORK/t/index.html?verify" "$WORK/v.json"
	[ "$(attr "$WORK/v.json" status)/$(attr "$WORK/v.json" hidden-rolls)" = "ok/$want" ] ||
		fail "$name: revealed, the page says $(attr "$WORK/v.json" text) ($want hidden rolls drawn)"
	echo "$name: $(attr "$WORK/v.json" text)"
	step=$("$PY" -c 'import glob, json, sys
print(min(json.load(open(p))["step"] for p in glob.glob(sys.argv[1] + "/turns/*/dice.json") if json.load(open(p)).get("hidden_rolls")))' "$game")
	"$PY" "$SITE_DATA" hidden "$WORK/t/data/$(printf %04d "$step").js" 2 > /dev/null
	verify "file://$WORK/t/index.html?verify" "$WORK/v.json"
	[ "$(attr "$WORK/v.json" status)/$(attr "$WORK/v.json" first-bad-step)/$(attr "$WORK/v.json" first-bad-what)/$(attr "$WORK/v.json" first-bad-roll)" = \
		"mismatch/$step/hidden roll/2" ] || fail "$name: hidden roll 2 of step $step changed, the page says $(attr "$WORK/v.json" text)"
	echo "$name: $(attr "$WORK/v.json" text)"
	rm -rf "$WORK/t"
done

# --- how the pages look, and that they fit a phone ---
# A page in a W x H iframe of a page in the same folder, so that a script can
# measure it (headless Chromium lays no window out narrower than 500 px).
frame() {  # PAGE (relative to its site) W H OUT
	cat > "$4" <<EOF
<!DOCTYPE html>
<html><head><meta charset="utf-8"><style>html, body { margin: 0; overflow: hidden; } iframe { border: 0; display: block; }
#sw { position: fixed; top: 0; left: 0; z-index: -1; margin: 0; }</style></head>
<body><iframe id="f" src="$1" width="$2" height="$3"></iframe>
<script>
var f = document.getElementById("f");
f.addEventListener("load", function () {
  var p = document.createElement("p");
  p.id = "sw";
  p.textContent = "scrollWidth=" + f.contentDocument.documentElement.scrollWidth + " innerWidth=" + f.contentWindow.innerWidth;
  document.body.appendChild(p);
});
</script></body></html>
EOF
}

measure() {  # SITE PAGE W H: "SCROLLWIDTH INNERWIDTH"
	frame "$2" "$3" "$4" "$1/measure.html"
	chrome --virtual-time-budget=5000 --window-size="$3,$4" --dump-dom "file://$1/measure.html" > "$WORK/measure.dom" ||
		fail "chromium --dump-dom failed: $(tail -5 "$WORK/chromium.log")"
	sed -n 's/.*scrollWidth=\([0-9]*\) innerWidth=\([0-9]*\).*/\1 \2/p' "$WORK/measure.dom" | head -1
}

name=$(echo "$games" | grep -x napoleonic-empire || echo "$games" | head -1)
site=$WORK/site-$name
read -r step _ <<<"$(most_rolls "$DEMO_DIR/$name/game")"
page=steps/$(printf %04d "$step").html
[ -f "$site/$page" ] || fail "$name: no $page"

printf '<!DOCTYPE html><html><body><div style="width:600px">wide</div></body></html>\n' > "$site/wide.html"
read -r sw iw <<<"$(measure "$site" wide.html 390 844)"
[ "${iw:-}" = 390 ] || fail "the 390 px frame measures ${iw:-nothing} px wide"
[ "${sw:-0}" -gt 390 ] || fail "a 600 px wide page measured ${sw:-nothing} px: the overflow check cannot see overflow"
for p in "index.html?verify" "$page"; do
	read -r sw iw <<<"$(measure "$site" "$p" 390 844)"
	[ "${iw:-}" = 390 ] && [ "${sw:-999}" -le 390 ] || fail "$name: $p is ${sw:-?} px wide at 390 px"
	echo "$name: $p at 390 px: scrollWidth $sw"
done

# maps.html: the slider shows one map, the one the URL names.
chrome --virtual-time-budget=5000 --dump-dom "file://$site/maps.html#step-3" > "$WORK/maps.dom"
"$PY" - "$WORK/maps.dom" <<'PY' || fail "$name: maps.html#step-3 with the slider"
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
figures = re.findall(r'<figure class="map" id="step-(\d+)"( hidden="")?', dom)
shown = [n for n, hidden in figures if not hidden]
if len(figures) < 3 or shown != ["3"] or 'type="range"' not in dom or "Step 3 of " not in dom:
    sys.exit("%d maps, shown: %s" % (len(figures), shown))
print("maps.html: the slider shows step 3's map of %d" % len(figures))
PY

mkdir -p "$WORK/shots"
for size in 390x844 1280x900; do
	w=${size%x*}
	h=${size#*x}
	for scheme in light dark; do
		dark=
		[ "$scheme" = dark ] && dark=--force-dark-mode
		for p in "index.html?verify" "$page" "index.html?verify#verify-section"; do
			case $p in
			*verify-section) shot=verify ;;
			index*) shot=game ;;
			*) shot=step ;;
			esac
			frame "$p" "$w" "$h" "$site/shot.html"
			out=$WORK/shots/$name-$shot-$w-$scheme.png
			chrome $dark --virtual-time-budget=20000 --window-size="$w,$h" --screenshot="$out" "file://$site/shot.html" ||
				fail "chromium could not draw $p: $(tail -5 "$WORK/chromium.log")"
			[ "$(stat -c %s "$out" 2>/dev/null || echo 0)" -gt 8000 ] || fail "$out is blank or missing"
		done
	done
done
# What a reader sees when a roll does not agree.
cp -r "$site" "$WORK/t"
"$PY" "$SITE_DATA" roll "$WORK/t/data/$(printf %04d "$step").js" 1 > /dev/null
frame "index.html?verify#verify-section" 390 844 "$WORK/t/shot.html"
chrome --virtual-time-budget=20000 --window-size=390,844 --screenshot="$WORK/shots/$name-mismatch-390-light.png" \
	"file://$WORK/t/shot.html" || fail "chromium could not draw the mismatch"
# Dark is dark: the light page's background is lighter than the dark one's.
for shot in game step; do
	"$PY" - "$WORK/shots/$name-$shot-1280-light.png" "$WORK/shots/$name-$shot-1280-dark.png" <<'PY' ||
import struct, sys, zlib

def corner(path):
    """The top left pixel's brightness (colour types 2 and 6, 8 bits, filter of row 0 only)."""
    data = open(path, "rb").read()
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", data[pos + 8:pos + 8 + n])
        elif kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw = zlib.decompress(idat)
    return sum(raw[1:4])   # row 0's filter adds nothing to its first pixel

light, dark = corner(sys.argv[1]), corner(sys.argv[2])
if not light > 3 * 160 > 3 * 100 > dark:
    sys.exit("light page corner %d, dark %d (sums of R, G, B)" % (light, dark))
PY
		fail "$name: the $shot page is not dark in dark mode"
done
if [ -n "${SCREENS:-}" ]; then
	mkdir -p "$SCREENS"
	cp "$WORK"/shots/*.png "$SCREENS"/
fi
echo "site_browser: $(echo "$games" | wc -w) games verified in the browser, $(ls "$WORK/shots" | wc -l) screenshots"
