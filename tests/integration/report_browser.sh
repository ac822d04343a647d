#!/bin/bash
# The Napoleonic Empire reports as a player sees them. Replays the sample
# game (tests/demo.sh), takes the step with the most pending battles (at
# least two), and checks:
# - its map.svg (`report --format svg`) is well-formed XML, a standalone SVG
#   1.1 document (xmlns, viewBox, width, height, <title>), with one marker
#   per country of the rules, a name label per country, one battle ring per
#   pending battle, one dashed lane per country England's sea reaches, and
#   it is the map committed as turns/NNNN/map.svg;
# - headless Chromium draws the SVG and France's HTML report at phone
#   (375x812) and desktop (1280x900) size (the map as an image fitted to the
#   width, as a mail client shows it): each screenshot is a PNG that is
#   not blank (read by a small pure-Python PNG decoder), and the map shows
#   the French blue and the Allied red;
# - the HTML report has no horizontal overflow at either width
#   (document.documentElement.scrollWidth, read back with --dump-dom), and
#   that measure does see the overflow of a page made too wide.
# Screenshots are left in $SCREENS when it is set (e.g. to look at them).
set -euo pipefail
source "$TOP/tests/lib.sh"
need_chromium
scratch

export DEMO_DIR=$WORK/demo
DEMO_GAMES=napoleonic-empire B=${B:-build} bash "$TOP/tests/demo.sh" > "$WORK/demo.log" 2>&1 ||
	fail "the demo failed: $(tail -20 "$WORK/demo.log")"
game=$DEMO_DIR/napoleonic-empire/game
export ESTAFETTE_HOME=$DEMO_DIR/home
MAPDATA=$TOP/internal/rulesets/napoleonic-empire/data/map.json

# The step with the most pending battles (the first of them).
step=
most=1
for dir in "$game"/turns/*/; do
	n=$((10#$(basename "$dir")))
	"$ESTAFETTE" report "$game" --step "$n" --format json > "$WORK/r.json"
	battles=$(json_get 'len(d["view"].get("battles") or [])' < "$WORK/r.json")
	if [ "$battles" -gt "$most" ]; then
		step=$n
		most=$battles
		cp "$WORK/r.json" "$WORK/step.json"
	fi
done
[ -n "$step" ] || fail "no step of the sample game has two pending battles"

"$ESTAFETTE" report "$game" --step "$step" --format svg > "$WORK/map.svg"
"$ESTAFETTE" report "$game" --step "$step" --player france --format svg > "$WORK/map-france.svg"
"$ESTAFETTE" report "$game" --step "$step" --player france --format html > "$WORK/report.html"
committed=$game/turns/$(printf '%04d' "$step")/map.svg
[ -s "$committed" ] || fail "$committed is missing: the step's map was not committed"
cmp -s "$committed" "$WORK/map.svg" || fail "$committed differs from report --format svg --step $step"
for dir in "$game"/turns/*/; do
	[ -s "$dir/map.svg" ] || fail "${dir}map.svg is missing"
done

# The SVG, read as XML and compared with the rules and the state.
"$PY" - "$WORK/map-france.svg" "$MAPDATA" "$WORK/step.json" <<'PY' || fail "map.svg of step $step"
import json, sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
svg_path, map_path, report_path = sys.argv[1:4]
with open(svg_path, "rb") as f:
    head = f.read(200)
tree = ET.parse(svg_path)           # raises on XML that is not well-formed
root = tree.getroot()
rules = json.load(open(map_path))
view = json.load(open(report_path))["view"]
names = [c["name"] for c in rules["countries"]]
errors = []

def check(ok, what):
    if not ok:
        errors.append(what)

def classes(e):
    return (e.get("class") or "").split()

check(head.startswith(b"<?xml"), "no XML declaration on the first line")
check(root.tag == NS + "svg", "root element is %s, not svg in the SVG namespace" % root.tag)
check(root.get("version") == "1.1", "version is not 1.1")
for attr in ("viewBox", "width", "height"):
    check(root.get(attr), "no %s attribute" % attr)
title = root.find(NS + "title")
check(title is not None and "step" in (title.text or ""), "no <title> naming the step")

# The legend draws samples of every mark: leave them out.
legend = root.find(".//%sg[@id='legend']" % NS)
check(legend is not None, "no legend")
in_legend = set(legend.iter()) if legend is not None else set()
circles = [c for c in root.iter(NS + "circle") if c not in in_legend]
markers = [c for c in circles if "country" in classes(c) or "never" in classes(c)]
check(len(markers) == len(names), "%d country circles for %d countries" % (len(markers), len(names)))
labels = [t.text for t in root.iter(NS + "text") if "name" in classes(t)]
check(sorted(labels) == sorted(names), "country labels %s are not the countries %s" % (labels, names))

battles = view["battles"]
rings = [c for c in circles if "battle" in classes(c)]
check(len(rings) == len(battles), "%d battle rings for the battles %s" % (len(rings), battles))
ring_at = {(c.get("cx"), c.get("cy")) for c in rings}
marker_at = {}
for g in root.iter(NS + "g"):
    label = [t.text for t in g.findall(NS + "text") if "name" in classes(t)]
    marker = [c for c in g.findall(NS + "circle") if "country" in classes(c) or "never" in classes(c)]
    if label and marker:
        marker_at[label[0]] = (marker[0].get("cx"), marker[0].get("cy"))
        c = marker[0]
        want = next(v for v in view["countries"] if v["name"] == label[0])
        ctl = want["controller"] or "neutral"
        if "never" not in classes(c):
            check(ctl in classes(c), "%s is drawn as %s, the state says %s" % (label[0], classes(c), ctl))
for b in battles:
    check(marker_at.get(b) in ring_at, "the battle in %s has no ring" % b)

# Every number drawn in a chip is an army count of the state.
chips = sorted(int(t.text) for t in root.iter(NS + "text") if "n" in classes(t) and t not in in_legend)
want = sorted([c["france"] for c in view["countries"] if c["france"] > 0] +
              [c["allies"] for c in view["countries"] if c["allies"] > 0])
check(chips == want, "army chips %s, the state has %s" % (chips, want))

sea = [p for p in root.iter(NS + "path") if "sea" in classes(p) and p not in in_legend]
reach = [n for n in names if n != rules["sea_power"] and n not in rules["landlocked"]
         and n not in rules["never_entered"]]
check(len(sea) == len(reach), "%d sea lanes for the %d countries the sea reaches"
      % (len(sea), len(reach)))
lanes = [p.find(NS + "title").text for p in sea if p.find(NS + "title") is not None]
for n in rules["landlocked"] + rules["never_entered"]:
    check(not any(t.endswith(" to " + n) for t in lanes), "a sea lane reaches %s" % n)
if errors:
    print("\n".join(errors))
    sys.exit(1)
print("map.svg: %d countries, %d borders drawn, %d battle rings, %d sea lanes" %
      (len(markers), len([1 for e in root.iter(NS + "line") if "border" in classes(e) and e not in in_legend]),
       len(rings), len(sea)))
PY

# The page as Chromium lays it out at width W: scrollWidth written into the DOM.
chrome() {
	local profile
	profile=$(mktemp -d "$WORK/profile.XXXXXX")
	timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --hide-scrollbars "$@" 2>>"$WORK/chromium.log"
}

# png_check FILE W H MINCOLOURS [RGB...]: a W x H PNG with at least
# MINCOLOURS distinct colours, holding a pixel near each RGB (hex) given.
png_check() {
	"$PY" - "$@" <<'PY'
import struct, sys, zlib

path, w, h, mincolours = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
wanted = [tuple(int(x[i:i + 2], 16) for i in (0, 2, 4)) for x in sys.argv[5:]]
data = open(path, "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("%s: not a PNG" % path)
pos, idat, ihdr = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        ihdr = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
width, height, depth, ctype, _, _, interlace = ihdr
if depth != 8 or ctype not in (2, 6) or interlace:
    sys.exit("%s: PNG colour type %d depth %d interlace %d not read here" % (path, ctype, depth, interlace))
if (width, height) != (w, h):
    sys.exit("%s: %dx%d, expected %dx%d" % (path, width, height, w, h))
bpp = 3 if ctype == 2 else 4
stride = width * bpp
raw = zlib.decompress(idat)
prev = bytearray(stride)
colours = set()
for y in range(height):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1:
            line[i] = (line[i] + a) & 255
        elif f == 2:
            line[i] = (line[i] + b) & 255
        elif f == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        colours.add(bytes(line[x:x + 3]))
    prev = line
if len(colours) < mincolours:
    sys.exit("%s: %d distinct colours, fewer than %d: a blank page?" % (path, len(colours), mincolours))
for rgb in wanted:
    if not any(max(abs(c[i] - rgb[i]) for i in range(3)) <= 12 for c in colours):
        sys.exit("%s: no pixel of colour #%02x%02x%02x" % ((path,) + rgb))
print("%s: %dx%d, %d colours" % (path.rsplit("/", 1)[-1], width, height, len(colours)))
PY
}

# frame PAGE W H OUT: a page showing PAGE in a W x H iframe at its top left.
# Headless Chromium never lays a window out narrower than 500 px (a screenshot
# at 375 is a 500 px page cut off), so the phone width is the iframe's. An
# HTML page goes in by srcdoc, same-origin, so a script can measure it: the
# frame's scrollWidth and innerWidth are written into the outer page's DOM.
frame() {
	"$PY" - "$@" <<'PY'
import html, sys
page, w, h, out = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
if page.endswith(".svg"):
    # As a mail client or a phone's browser shows an image: fitted to the width.
    img = ('<!DOCTYPE html><html><body style="margin:0"><img src="file://%s" alt="map" '
           'style="display:block; max-width:100%%; height:auto"></body></html>' % html.escape(page))
    src = 'srcdoc="%s"' % html.escape(img, quote=True)
else:
    src = 'srcdoc="%s"' % html.escape(open(page, encoding="utf-8").read(), quote=True)
open(out, "w", encoding="utf-8").write("""<!DOCTYPE html>
<html><head><meta charset="utf-8"><style>html, body { margin: 0; padding: 0; overflow: hidden; background: #fff; }
iframe { border: 0; display: block; }</style></head>
<body><iframe id="f" width="%s" height="%s" %s></iframe>
<script>
var f = document.getElementById("f");
f.addEventListener("load", function () {
  var d = f.contentDocument && f.contentDocument.documentElement;
  var p = document.createElement("p");
  p.id = "sw";
  p.textContent = d ? "scrollWidth=" + d.scrollWidth + " innerWidth=" + f.contentWindow.innerWidth : "unreadable";
  document.body.appendChild(p);
});
</script></body></html>
""" % (w, h, src))
PY
}

# measure PAGE W H: prints "SCROLLWIDTH INNERWIDTH" of PAGE laid out W px wide.
measure() {
	local out=$WORK/measure-$2.html
	frame "$1" "$2" "$3" "$out"
	chrome --run-all-compositor-stages-before-draw --virtual-time-budget=2000 --window-size="$2,$3" \
		--dump-dom "file://$out" > "$out.dom" ||
		fail "chromium --dump-dom failed: $(tail -5 "$WORK/chromium.log")"
	sed -n 's/.*scrollWidth=\([0-9]*\) innerWidth=\([0-9]*\).*/\1 \2/p' "$out.dom" | head -1
}

# The measure can fail: a page with a 600 px wide block overflows at 375.
printf '<!DOCTYPE html><html><body><div style="width:600px">wide</div></body></html>\n' \
	> "$WORK/wide.html"
read -r sw iw <<<"$(measure "$WORK/wide.html" 375 812)"
[ "${iw:-}" = 375 ] || fail "the 375 px frame measures ${iw:-nothing} px wide"
[ "${sw:-0}" -gt 375 ] || fail "a 600 px wide page measured ${sw:-nothing} px: the overflow check cannot see overflow"

mkdir -p "$WORK/shots"
for size in 375x812 1280x900; do
	w=${size%x*}
	h=${size#*x}
	frame "$WORK/map-france.svg" "$w" "$h" "$WORK/shot-map.html"
	frame "$WORK/report.html" "$w" "$h" "$WORK/shot-report.html"
	chrome --screenshot="$WORK/shots/map-$w.png" --window-size="$w,$h" "file://$WORK/shot-map.html" ||
		fail "chromium could not draw map.svg: $(tail -5 "$WORK/chromium.log")"
	chrome --screenshot="$WORK/shots/report-$w.png" --window-size="$w,$h" "file://$WORK/shot-report.html" ||
		fail "chromium could not draw report.html: $(tail -5 "$WORK/chromium.log")"
	for shot in map report; do
		[ -s "$WORK/shots/$shot-$w.png" ] || fail "no screenshot $shot-$w.png"
		[ "$(stat -c %s "$WORK/shots/$shot-$w.png")" -gt 8000 ] ||
			fail "$shot-$w.png is $(stat -c %s "$WORK/shots/$shot-$w.png") bytes: a blank page?"
	done
	# France blue and Allied red markers, at both sizes.
	png_check "$WORK/shots/map-$w.png" "$w" "$h" 50 2a4fa8 b3261e || fail "map.svg at $size"
	png_check "$WORK/shots/report-$w.png" "$w" "$h" 30 || fail "report.html at $size"

	# No horizontal overflow: the page is no wider than the frame.
	read -r sw iw <<<"$(measure "$WORK/report.html" "$w" "$h")"
	[ "${iw:-}" = "$w" ] || fail "the $w px frame measures ${iw:-nothing} px wide"
	[ "$sw" -le "$w" ] || fail "report.html overflows at width $w: scrollWidth $sw"
	echo "report.html at $size: scrollWidth $sw"
done

# The report names its template and says where the map is.
grep -q 'Report made by estafette from template report.html (' "$WORK/report.html" ||
	fail "report.html does not name its template"
grep -q 'attached to this mail as <strong>map.svg</strong>' "$WORK/report.html" ||
	fail "report.html does not say the map is attached"
"$ESTAFETTE" report "$game" --step "$step" --format text | grep -q 'Report made by estafette from template report.txt (' ||
	fail "report.txt does not name its template"

if [ -n "${SCREENS:-}" ]; then
	mkdir -p "$SCREENS"
	cp "$WORK"/shots/*.png "$SCREENS"/
fi
echo "report_browser: step $step, $(ls "$WORK/shots" | wc -l) screenshots checked"
