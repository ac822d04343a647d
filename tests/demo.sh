#!/bin/bash
# make demo: real games end to end, one for each ruleset (every folder of
# internal/rulesets/ but common) from its sample game in turnfiles/<ruleset>/.
# Each is created in a fresh folder (demo-game/<ruleset>/), its signed sample
# orders are replayed step by step through `submit` and `run`, and every
# report is mailed through an SMTP server: the one in $ESTAFETTE_SMTP_URL if
# set, else a real local one (aiosmtpd on loopback). DEMO_GAMES names the
# samples to play (default: all); a ruleset without a sample is said and
# passed over.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
source "$TOP/tests/lib.sh"
ESTAFETTE=$TOP/${B:-build}/estafette
DEMO=${DEMO_DIR:-$TOP/demo-game}
if [ -z "${DEMO_GAMES:-}" ]; then
	DEMO_GAMES=
	for dir in "$TOP"/internal/rulesets/*/; do
		name=$(basename "$dir")
		[ "$name" = common ] && continue
		if [ -f "$TOP/turnfiles/$name/plan.json" ]; then
			DEMO_GAMES="$DEMO_GAMES $name"
		else
			echo "$name: no sample game in turnfiles/$name/ (plan.json, players.json, orders/); not played"
		fi
	done
fi
GAMES=$DEMO_GAMES

stop_smtpd 2>/dev/null || true
rm -rf "$DEMO"
mkdir -p "$DEMO"
export ESTAFETTE_HOME=$DEMO/home
if [ -n "${ESTAFETTE_SMTP_URL:-}" ]; then
	SMTP_URL=$ESTAFETTE_SMTP_URL
else
	trap stop_smtpd EXIT
	start_smtpd "$DEMO/mailbox"
	SMTP_URL=smtp://127.0.0.1:$SMTP_PORT
	echo "a local SMTP server (aiosmtpd) listens on 127.0.0.1:$SMTP_PORT"
fi

# logged CMD...: CMD's output goes to the game's transcript; if it fails,
# the transcript's end is shown and the demo stops.
logged() {
	echo "\$ $*" >> "$TRANSCRIPT"
	"$@" >> "$TRANSCRIPT" 2>&1 && return 0
	echo "FAILED: $*" >&2
	tail -n 20 "$TRANSCRIPT" >&2
	exit 1
}

# One sample: its plan.json says the game id, dice secret and commit clock
# the orders were signed against.
play() {
	local sample=$TOP/turnfiles/$1 game=$DEMO/$1/game id secret clock
	id=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1])).get("game", "ne-demo"))' "$sample/plan.json")
	secret=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1])).get("secret", "estafette sample game"))' "$sample/plan.json")
	clock=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1])).get("clock", 1764000000))' "$sample/plan.json")
	mapfile -t options < <("$PY" -c 'import json,sys
for k, v in json.load(open(sys.argv[1])).get("options", {}).items(): print(f"--option={k}={v}")' "$sample/plan.json")
	export ESTAFETTE_COMMIT_TIME=$clock
	mkdir -p "$DEMO/$1"
	TRANSCRIPT=$DEMO/$1/transcript.txt
	: > "$TRANSCRIPT"
	echo
	echo "=== $1: game $id"
	dice=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1])).get("dice_protocol", "v2"))' "$sample/plan.json")
	logged "$ESTAFETTE" new "$game" --ruleset "$1" --id "$id" --players "$sample/players.json" \
		--test-dice-secret "$secret" --dice-protocol "$dice" "${options[@]}"
	git -C "$game" config estafette.smtpurl "$SMTP_URL"
	git -C "$game" config estafette.sender "$1 GM <gm@example.org>"
	git -C "$game" config estafette.gmaddress "gamemaster@example.org"
	logged "$ESTAFETTE" run "$game"
	for order in "$sample"/orders/*.json; do
		echo "== $(basename "$order")" >> "$TRANSCRIPT"
		logged "$ESTAFETTE" submit "$game" "$order"
		logged "$ESTAFETTE" run "$game"
	done
	logged git -C "$game" fsck --strict --no-progress
	echo "  $(ls "$sample"/orders/*.json | wc -l) signed order files submitted, each followed by a run:" \
		"$(git -C "$game" tag | wc -l) step tags, $(git -C "$game" rev-list --count main) commits," \
		"$(ls "$ESTAFETTE_HOME/outbox/$id/sent" | grep -c '\.eml$') messages mailed; git fsck --strict is clean"
	"$ESTAFETTE" status "$game" | sed 's/^/  /'
	echo "  game repository: $game (git -C $game log --oneline)"
	echo "  public reports:  $game/turns/*/report.txt"
	echo "  players' mail:   $ESTAFETTE_HOME/outbox/$id/sent/"
	echo "  latest report:   $ESTAFETTE report $game --player $("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["players"][0]["id"])' "$sample/players.json")"
	echo "  all it printed:  $TRANSCRIPT"
}

for g in $GAMES; do
	play "$g"
done
[ -d "$DEMO/mailbox" ] && echo "as received:     $DEMO/mailbox/ ($(ls "$DEMO/mailbox" | grep -c '\.eml$') messages)"
exit 0
