# The set-up the Levée en Masse integration tests share. Source it after
# tests/lib.sh, in the test's folder:
#
#     source "$TOP/tests/helpers/lem_deal.sh"
#     lem_players anne bert       # keys anne, bert and anne-players.json, bert-players.json
#     lem_short_deck gm-rules     # gm-rules/cards.json: a game of six turns

# lem_players NAME...: for each NAME an Ed25519 key (NAME, NAME.pub) made by
# the real ssh-keygen, and NAME-players.json, a players file of that one player.
lem_players() {
	local p
	for p in "$@"; do
		ssh-keygen -q -t ed25519 -N '' -C "$p" -f "$p"
		echo "{\"players\": [{\"id\": \"$p\", \"name\": \"$p\", \"email\": \"$p@example.org\"," \
			"\"key\": \"$(cat "$p.pub")\"}]}" > "$p-players.json"
	done
}

# lem_short_deck DIR: DIR/cards.json, a GM's own Headline deck (`new --rules
# DIR`) of six cards, two of each deck, from the ruleset's: a game of six turns.
lem_short_deck() {
	mkdir -p "$1"
	"$PY" - "$TOP/internal/rulesets/levee-en-masse/data/cards.json" "$1/cards.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
keep = [c for c in d["cards"] if c["id"] in ("2", "5", "23", "30", "45", "50")]
assert len(keep) == 6, keep
json.dump({"provenance": "the GM's own short deck for this test", "note": "six cards",
           "cards": keep}, open(sys.argv[2], "w"), indent=1)
PY
}
