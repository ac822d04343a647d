#!/bin/bash
# The sample games of turnfiles/ (Napoleonic Empire, La Guerre de
# l'Empereur, Levée en Masse, Campaign), replayed exactly as `make demo` does (it runs tests/demo.sh),
# then checked: the real SMTP server received every player's report of
# every step once and no report shows what is private to another power; the
# repository passes git fsck --strict and holds one commit per step and per
# recorded order file; an independent Python implementation recomputes every
# roll; the La Guerre sample tells the story its plan promises; a second run
# changes nothing.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
export DEMO_DIR=$WORK/demo
B=${B:-build} bash "$TOP/tests/demo.sh" > "$WORK/demo.log" 2>&1 ||
	fail "the demo failed: $(tail -20 "$WORK/demo.log")"
export ESTAFETTE_HOME=$DEMO_DIR/home

check_sample() {
	local ruleset=$1 min_steps=$2 game=$DEMO_DIR/$1/game orders steps
	shift 2
	orders=$(ls "$TOP/turnfiles/$ruleset"/orders/*.json | wc -l)
	steps=$(($(git -C "$game" tag --list 'step-*' | wc -l) - 1))
	[ "$steps" -ge "$min_steps" ] || fail "$ruleset: the sample game resolves only $steps steps"
	[ "$(commits "$game")" -eq $((1 + orders + steps)) ] ||
		fail "$ruleset: $(commits "$game") commits for $steps steps and $orders order files"
	git -C "$game" fsck --strict --no-progress || fail "$ruleset: git fsck --strict"
	"$PY" "$TOP/tests/helpers/dice_check.py" repo "$game" > "$WORK/dice-$ruleset.log" ||
		fail "$ruleset: dice_check: $(tail -3 "$WORK/dice-$ruleset.log")"
	"$PY" "$TOP/tests/helpers/check_mailbox.py" "$DEMO_DIR/mailbox" "$game" "$@" > "$WORK/mail-$ruleset.log" ||
		fail "$ruleset: mailbox: $(cat "$WORK/mail-$ruleset.log")"
	expect_exit 0 "$ESTAFETTE" audit "$game"
	# A stranger's clone, with no GM secrets: the sample's chains come from its public
	# test secret, so even the hidden draws are checked and the audit is complete.
	rm -rf "$WORK/clone-$ruleset" && git clone -q "$game" "$WORK/clone-$ruleset" &&
		git -C "$WORK/clone-$ruleset" fetch -q --tags
	ESTAFETTE_HOME=$WORK/stranger expect_exit 0 "$ESTAFETTE" audit "$WORK/clone-$ruleset"
	grep -q "all $steps steps hold" "$WORK/last.out" || fail "$ruleset: a clone's audit: $(cat "$WORK/last.out")"
	echo "sample_game: $ruleset: $steps steps, $orders order files; $(tail -1 "$WORK/dice-$ruleset.log");" \
		"$(tail -1 "$WORK/mail-$ruleset.log")"
}

check_sample napoleonic-empire 8 "$TOP/internal/rulesets/napoleonic-empire/data/cards.json"
check_sample la-guerre 10
check_sample levee-en-masse 60

# The Levée en Masse sample: a whole game with the Expansion Kit, two optional rules
# (10.4, 10.6) and Napoleon.
lem=$DEMO_DIR/levee-en-masse/game
cat "$lem"/turns/*/events.json > "$WORK/lem-events.json"
for text in "Napoleon enters play in the Holding Box" "Napoleon leaves the Holding Box" \
	"the last reserves are committed (10.4)" "a decisive victory (10.6.1)" "a decisive defeat (10.6.2)" \
	"a Stationary Army with a bracketed Battle Value" "Spanish Army enters play"; do
	grep -qF "$text" "$WORK/lem-events.json" || fail "levee-en-masse: the sample never says \"$text\""
done
json_get 'd["state"]["phase"]' < "$lem/state.json" | grep -qx over || fail "levee-en-masse: the sample game is not over"

check_sample campaign 12
# The Campaign sample: a four-player Standard game with an alliance made and
# broken, a supported attack, a captured red town, a captured General and
# the mobilisation that follows.
cat "$DEMO_DIR/campaign/game"/turns/*/events.json > "$WORK/cp-events.json"
for text in "proposes an alliance to" "are allies: the Alliance cards are exchanged" "breaks its alliance with" \
	"after engaging every supporting piece: taken" "piece from the red town of" "its piece closest to" \
	"General is captured" "has mobilised in its Capital"; do
	grep -qF "$text" "$WORK/cp-events.json" || fail "campaign: the sample never says \"$text\""
done

# The La Guerre sample: a battle with the full decision cycle (5.612 steps 4, 5
# and 6, each answered by mail in a later run), a bombardment, a retreat with
# pursuit, a retreat before combat (no pursuit), a siege of the garrison
# left behind, and a winter with the embargo.
lg=$DEMO_DIR/la-guerre/game
cat "$lg"/turns/*/events.json > "$WORK/lg-events.json"
for kind in battle-step-4 battle-step-5 battle-step-6 retreat winter; do
	grep -q "\"kind\": \"$kind\"" "$lg"/turns/*/manifest.json || fail "la-guerre: no $kind step in the sample"
done
for text in "bombards with" "to pursuit (5.629)" "without pursuit (5.612 NOTE)" \
	"a first attempt at no Movement Point cost (5.513 NOTE)" "4.241 Continental System, winter 1805" \
	"standing order for Upper Austria, step 4, answers"; do
	grep -qF "$text" "$WORK/lg-events.json" || fail "la-guerre: the sample never says \"$text\""
done

# Nothing is due any more: a second run commits and sends nothing.
start_smtpd "$WORK/again"
for ruleset in napoleonic-empire la-guerre levee-en-masse campaign; do
	game=$DEMO_DIR/$ruleset/game
	head=$(git -C "$game" rev-parse main)
	git -C "$game" config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
	expect_exit 0 "$ESTAFETTE" run "$game"
	[ "$(git -C "$game" rev-parse main)" = "$head" ] || fail "$ruleset: a second run committed"
done
[ -z "$(ls "$WORK/again" | grep '\.eml$' || true)" ] || fail "a second run sent mail again"
echo "sample_game: $(ls "$DEMO_DIR/mailbox"/*.eml | wc -l) mails in all"
