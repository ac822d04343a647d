#!/bin/bash
# Levée en Masse: every order example in the ruleset's README.md and in
# docs/player-guide.md is a file `estafette check` accepts, in a fresh game
# of the options its paragraph names ("for a game with no options", "for a
# game with `--option 10.4=1`"), so the docs cannot drift from the rules.
#
# The first Headline card decides where the Armies stand on the first turn;
# the game's own short deck (`new --rules DIR`) fixes it: the card #N the
# example's paragraph names ("as card #1 does"), or else card #2, which
# advances only the Prussian Army and leaves the others in their starting
# boxes (the Vendée Army in its highest, Cholet 5: not attackable without
# 10.6, RULINGS.md M5). Both have 3 Actions.
#
# A refused file with two problems names each of them once.
set -euo pipefail
source "$TOP/tests/lib.sh"
source "$TOP/tests/helpers/lem_deal.sh"
scratch
cd "$WORK"

lem_players solo

# The examples: "label<TAB>first card<TAB>options (K=V, space-separated; - for none)<TAB>orders JSON".
"$PY" - "$TOP/internal/rulesets/levee-en-masse/README.md" "$TOP/docs/player-guide.md" > examples.tsv <<'EOF'
import json, re, sys

for path in sys.argv[1:]:
    paras = open(path, encoding="utf-8").read().split("\n\n")
    for i, para in enumerate(paras):
        lines = para.split("\n")
        if not all(l.startswith("    ") for l in lines) or '"type"' not in para:
            continue
        if path.endswith("player-guide.md") and "Levée en Masse" not in paras[i - 1]:
            continue
        text = " ".join(paras[i - 1].split())
        body = "\n".join(l[4:] for l in lines)
        orders = json.loads("{%s}" % body)["orders"] if body.startswith('"orders"') else [json.loads(body)]
        need = re.search(r"for a game with (no options|`--option [^`]+`(?:(?:, | and )`--option [^`]+`)*)", text)
        if not need:
            sys.exit("%s: the example before line %d does not say the game it is for "
                     "(\"for a game with no options\" or \"for a game with `--option K=V`\")"
                     % (path, sum(p.count("\n") + 2 for p in paras[:i]) + 1))
        options = re.findall(r"`--option ([^`]+)`", need.group(1))
        card = re.search(r"card #(\w+)", text)
        label = "%s, example %d" % (path.split("/")[-1], i)
        print(label, card.group(1) if card else "2", " ".join(options) or "-", json.dumps(orders), sep="\t")
EOF
[ "$(grep -c . examples.tsv)" -ge 3 ] || fail "fewer than three order examples found: $(cat examples.tsv)"

# A fresh game: the options, the GM's deck with `card` its only Blue card, joined and its first card drawn.
game() {  # dir card options...
	local dir=$1 card=$2 opts=() o
	shift 2
	for o in "$@"; do [ "$o" = - ] || opts+=(--option "$o"); done
	mkdir -p "rules-$dir"
	"$PY" - "$TOP/internal/rulesets/levee-en-masse/data/cards.json" "rules-$dir/cards.json" "$card" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
keep = [c for c in d["cards"] if c["id"] in (sys.argv[3], "29", "55")]
assert len(keep) == 3 and [c["deck"] for c in keep].count("Blue") == 1, keep
json.dump({"provenance": "this test's short deck", "cards": keep}, open(sys.argv[2], "w"))
EOF
	expect_exit 0 "$ESTAFETTE" new "$dir" --ruleset levee-en-masse --players solo-players.json --rules "rules-$dir" "${opts[@]}"
	expect_exit 0 "$ESTAFETTE" submit "$dir" "$(signed "$dir" '[]')"
	expect_exit 0 "$ESTAFETTE" run "$dir"
	[ "$("$ESTAFETTE" status "$dir" --json | json_get 'd["kind"]')" = actions ] ||
		fail "$dir: the game does not await the first turn's Actions"
}
signed() {  # dir orders -> a signed order file for the open step
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$1" solo 1 "$2" > "$1.json"
	rm -f "$1.json.sig"
	ssh-keygen -q -Y sign -f solo -n estafette-orders "$1.json" < /dev/null
	echo "$1.json"
}

n=0
while IFS=$'\t' read -r label card options orders; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the options are one word each
	game "g$n" "$card" $options
	"$ESTAFETTE" report "g$n" --format json | json_get 'd["view"]["card"]["id"]' | grep -qx "$card" ||
		fail "$label: the first card is not #$card"
	"$ESTAFETTE" check "g$n" "$(signed "g$n" "$orders")" > "$WORK/last.out" 2> "$WORK/last.err" ||
		fail "$label (options: $options, first card #$card) is refused: $(cat "$WORK/last.err")"
done < examples.tsv

# Two problems, each said once: the message gives the first, the list below it the other.
game g-two 2
expect_exit 65 "$ESTAFETTE" check g-two "$(signed g-two '[{"type": "military", "army": "vendee"}, {"type": "charge"}]')"
"$PY" - "$WORK/last.err" <<'EOF' || fail "a refusal with two problems: $(cat "$WORK/last.err")"
import re, sys
err = open(sys.argv[1]).read()
assert "2 problems with the orders; the first: orders[0].army: " in err, err
for field in ("orders[0].army: ", "orders[1].type: "):
    assert err.count(field) == 1, (field, err)
EOF
echo "lem_doc_examples: $n order examples of the docs pass check in the games they say they are for"
