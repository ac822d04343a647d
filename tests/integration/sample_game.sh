#!/bin/bash
# The sample game of turnfiles/napoleonic-empire, replayed exactly as
# `make demo` does (it runs tests/demo.sh), then checked: the real SMTP
# server received every player's report of every step once and no report
# shows another side's hand; the repository passes git fsck --strict and
# holds one commit per step and per recorded order file; an independent
# Python implementation recomputes every roll; a second run changes nothing.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
export DEMO_DIR=$WORK/demo
B=${B:-build} bash "$TOP/tests/demo.sh" > "$WORK/demo.log" 2>&1 ||
	fail "the demo failed: $(tail -20 "$WORK/demo.log")"
game=$DEMO_DIR/game
export ESTAFETTE_HOME=$DEMO_DIR/home

orders=$(ls "$TOP"/turnfiles/napoleonic-empire/orders/*.json | wc -l)
steps=$(($(git -C "$game" tag --list 'step-*' | wc -l) - 1))
[ "$steps" -ge 8 ] || fail "the sample game resolves only $steps steps"
[ "$(commits "$game")" -eq $((1 + orders + steps)) ] ||
	fail "$(commits "$game") commits for $steps steps and $orders order files"
git -C "$game" fsck --strict --no-progress || fail "git fsck --strict"
"$PY" "$TOP/tests/helpers/dice_check.py" repo "$game" > "$WORK/dice.log" ||
	fail "dice_check: $(tail -3 "$WORK/dice.log")"
"$PY" "$TOP/tests/helpers/check_mailbox.py" "$DEMO_DIR/mailbox" "$game" \
	"$TOP/internal/rulesets/napoleonic-empire/data/cards.json" || fail "mailbox"

# Nothing is due any more: a second run commits and sends nothing.
head=$(git -C "$game" rev-parse main)
mails=$(ls "$DEMO_DIR/mailbox"/*.eml | wc -l)
start_smtpd "$WORK/again"
git -C "$game" config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
expect_exit 0 "$ESTAFETTE" run "$game"
[ "$(git -C "$game" rev-parse main)" = "$head" ] || fail "a second run committed"
[ -z "$(ls "$WORK/again" | grep '\.eml$' || true)" ] || fail "a second run sent mail again"
echo "sample_game: $steps steps, $orders order files, $mails mails; $(tail -1 "$WORK/dice.log")"
