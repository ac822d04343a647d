#!/bin/bash
# make demo: a real Napoleonic Empire game end to end. Creates the game in a
# fresh folder (demo-game/), replays the signed sample orders of
# turnfiles/napoleonic-empire step by step through `submit` and `run`, and
# mails every report through an SMTP server: the one in $ESTAFETTE_SMTP_URL
# if set, else a real local one (aiosmtpd on loopback).
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
source "$TOP/tests/lib.sh"
ESTAFETTE=$TOP/${B:-build}/estafette
SAMPLE=$TOP/turnfiles/napoleonic-empire
DEMO=${DEMO_DIR:-$TOP/demo-game}

stop_smtpd 2>/dev/null || true
rm -rf "$DEMO"
mkdir -p "$DEMO"
export ESTAFETTE_HOME=$DEMO/home
# Reproducible commits: the sample orders were signed against these states.
export ESTAFETTE_COMMIT_TIME=1764000000

"$ESTAFETTE" new "$DEMO/game" --ruleset napoleonic-empire --id ne-demo \
	--players "$SAMPLE/players.json" --test-dice-secret "estafette sample game"

if [ -n "${ESTAFETTE_SMTP_URL:-}" ]; then
	git -C "$DEMO/game" config estafette.smtpurl "$ESTAFETTE_SMTP_URL"
else
	trap stop_smtpd EXIT
	start_smtpd "$DEMO/mailbox"
	git -C "$DEMO/game" config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
	echo "a local SMTP server (aiosmtpd) listens on 127.0.0.1:$SMTP_PORT"
fi
git -C "$DEMO/game" config estafette.sender "Napoleonic Empire GM <gm@example.org>"

"$ESTAFETTE" run "$DEMO/game"
for order in "$SAMPLE"/orders/*.json; do
	echo
	echo "== $(basename "$order")"
	"$ESTAFETTE" submit "$DEMO/game" "$order"
	"$ESTAFETTE" run "$DEMO/game"
done

echo
"$ESTAFETTE" status "$DEMO/game"
git -C "$DEMO/game" fsck --strict --no-progress
echo
echo "game repository: $DEMO/game ($(git -C "$DEMO/game" rev-list --count main) commits," \
	"$(git -C "$DEMO/game" tag | wc -l) step tags; git -C $DEMO/game log --oneline)"
echo "public reports:  $DEMO/game/turns/*/report.txt"
echo "players' mail:   $ESTAFETTE_HOME/outbox/ne-demo/sent/"
[ -d "$DEMO/mailbox" ] && echo "as received:     $DEMO/mailbox/ ($(ls "$DEMO/mailbox" | grep -c '\.eml$') messages)"
echo "latest report:   $ESTAFETTE report $DEMO/game --player france"
