#!/bin/bash
# Press settings: game.json "press" mode full / public /
# none, enforced on every order; press mailed at once with --press-by-mail
# (to its readers only, once), and always an event of the step seen by its
# readers and its sender (private press never in the public report).
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
make_players

send() {  # game player press-json -> exit status of submit
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$1" "$2" 1 '[]' --press "$3" > "$2.json"
	rm -f "$2.json.sig" && ssh-keygen -q -Y sign -f "$2" -n estafette-orders "$2.json"
	"$ESTAFETTE" submit "$1" "$2.json" 2>&1
}
for mode in public none; do
	"$ESTAFETTE" new "$mode" --ruleset napoleonic-empire --players players.json --press "$mode" >/dev/null
	join "$mode" france allies
done
out=$(send public france '[{"to": ["allies"], "text": "a secret"}]') && fail "private press in a public-press game"
grep -q 'has public press only' <<<"$out" || fail "$out"
send public france '[{"to": "all", "text": "to everyone"}]' >/dev/null || fail "public press refused"
out=$(send none france '[{"to": "all", "text": "hello"}]') && fail "press in a no-press game"
grep -q 'this game has no press' <<<"$out" || fail "$out"
send none france '[]' >/dev/null || fail "an order without press refused in a no-press game"
expect_exit 64 "$ESTAFETTE" new bad --ruleset napoleonic-empire --players players.json --press loud

"$ESTAFETTE" new mail --ruleset napoleonic-empire --players players.json --press-by-mail >/dev/null
join mail france allies
pending=$ESTAFETTE_HOME/outbox/mail/pending
send mail france '[{"to": ["allies"], "text": "Meet me in Vienna"}, {"to": ["allies"], "text": "Come alone"}]' >/dev/null
ls "$pending"/press-*-allies.eml >/dev/null 2>&1 || fail "the press was not mailed at once: $(ls "$pending")"
# The outbox name is in the Message-ID: it must not count a player's press to others.
[ "$(ls "$pending" | grep -cE '^press-[0-9a-f]{16}-allies\.eml$')" = 2 ] ||
	fail "press names show more than the reader: $(ls "$pending")"
ls "$pending"/press-*-france.eml >/dev/null 2>&1 && fail "the sender got its own press"
grep -q "Meet me in Vienna" "$pending"/press-*-allies.eml || fail "the press mail lacks the text"
"$ESTAFETTE" run mail >/dev/null
grep -q "Meet me in Vienna" mail/turns/0002/report.txt && fail "private press in the public report"
for p in allies france; do
	"$ESTAFETTE" report mail --step 2 --player "$p" > "report-$p.txt"
	grep -q "Meet me in Vienna" "report-$p.txt" || fail "$p's report lacks the press"
done
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["press"] == {"mode": "full", "delivery": "mail"}, d' mail/game.json

# --- Invisible and bidirectional characters: one table (util/unicode.h) for press, names and reasons ---
"$ESTAFETTE" new text --ruleset napoleonic-empire --players players.json >/dev/null
join text france allies
before=$(commits text)
refused_press() {  # label, press text as JSON (escapes), code point the message must name
	local out
	out=$(send text france "[{\"to\": \"all\", \"text\": $2}]") && fail "$1: press accepted"
	grep -qF "france.json: field \"press[0].text\" holds $3" <<<"$out" || fail "$1: $out"
	grep -qF "remove it" <<<"$out" || fail "$1: no fix in: $out"
	expect_exit 65 "$ESTAFETTE" submit text france.json
	[ "$(commits text)" = "$before" ] || fail "$1: a commit was made"
	[ ! -e text/orders/france.json ] || fail "$1: the order was written"
}
refused_press "arabic letter mark" '"Vienna \u061c is ours"' "U+061C ARABIC LETTER MARK at byte 7"
refused_press "left-to-right isolate" '"a \u2066b\u2069"' "U+2066 LEFT-TO-RIGHT ISOLATE"
refused_press "byte-order mark inside" '"peace\ufeff now"' "U+FEFF ZERO WIDTH NO-BREAK SPACE"
refused_press "soft hyphen" '"Auster\u00adlitz"' "U+00AD SOFT HYPHEN"
refused_press "right-to-left mark" '"\u200f"' "U+200F RIGHT-TO-LEFT MARK"
refused_press "a lone joiner" '"a \u200d b"' "U+200D ZERO WIDTH JOINER"
refused_press "a language tag" '"\udb40\udc01en"' "U+E0001 LANGUAGE TAG"
# A run of blanks that would push a fake press line onto a line of its own.
for blank in '\u3000' '\u2800' ' '; do
	fake="\"Agreed.$(printf "$blank%.0s" $(seq 200))- Press from Allied player (allies) to all: Belgium is yours\""
	out=$(send text france "[{\"to\": \"all\", \"text\": $fake}]") && fail "a run of $blank accepted"
	grep -qF 'france.json: field "press[0].text" holds 200 blank characters in a row' <<<"$out" ||
		fail "blank run $blank: $out"
	grep -qF "a run of blanks that could hide, reorder or forge lines" <<<"$out" ||
		fail "blank run $blank: the rule is not named: $out"
	[ "$(commits text)" = "$before" ] || fail "blank run $blank: a commit was made"
done
# The same as raw UTF-8 bytes rather than a JSON escape.
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" text france 1 '[]' \
	--press '[{"to": "all", "text": "raw X mark"}]' | sed 's/X/\xd8\x9c/' > france.json
rm -f france.json.sig && ssh-keygen -q -Y sign -f france -n estafette-orders france.json
out=$("$ESTAFETTE" submit text france.json 2>&1) && fail "raw U+061C accepted"
grep -qF 'holds U+061C ARABIC LETTER MARK at byte 4' <<<"$out" || fail "$out"
[ "$(commits text)" = "$before" ] || fail "raw U+061C: a commit was made"
# An emoji's joiner and selector are prose: the press is taken and reaches the report as sent.
send text france '[{"to": "all", "text": "\u2764\ufe0f \ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67"}]' >/dev/null ||
	fail "emoji press refused"
"$ESTAFETTE" run text >/dev/null
grep -qF "$(printf '\xe2\x9d\xa4\xef\xb8\x8f \xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7')" \
	text/turns/0002/report.txt || fail "the emoji press is not in the report"

# A player's display name: nothing of the table, not even a joiner; `new` writes nothing.
for name in 'Napoleon \u061c' 'Fra\u200cnce' 'France \u202eplayer' 'France\u00ad'; do
	sed "s/\"France player\"/\"$(sed 's/\\/\\\\/g' <<<"$name")\"/" players.json > players-bad.json
	grep -qF "$name" players-bad.json || fail "players-bad.json lacks $name"
	expect_exit 65 "$ESTAFETTE" new badname --ruleset napoleonic-empire --players players-bad.json
	grep -q 'players-bad.json: players\[0\].name holds U+[0-9A-F]* [A-Z]' "$WORK/last.err" ||
		fail "new with name $name: $(cat "$WORK/last.err")"
	grep -qF "write the name without it" "$WORK/last.err" || fail "no fix: $(cat "$WORK/last.err")"
	[ ! -e badname ] || fail "new wrote badname for the name $name"
done
# Nothing but blanks, a blank at the edge, or another player's name in other case: none names a player.
for name in '\u3000\u3000' '\u2800' ' ' 'France player ' 'ALLIED PLAYER'; do
	sed "s/\"France player\"/\"$(sed 's/\\/\\\\/g' <<<"$name")\"/" players.json > players-bad.json
	expect_exit 65 "$ESTAFETTE" new badname --ruleset napoleonic-empire --players players-bad.json
	grep -qE 'players-bad.json: players\[[01]\].name (".*" starts or ends with a blank|is players\[0\].name)' \
		"$WORK/last.err" || fail "new with name '$name': $(cat "$WORK/last.err")"
	[ ! -e badname ] || fail "new wrote badname for the name '$name'"
done
printf '%s' "$(cat players.json)" | sed "s/\"France player\"/\"France $(printf '\xd8\x9c')\"/" > players-bad.json
expect_exit 65 "$ESTAFETTE" new badname --ruleset napoleonic-empire --players players-bad.json
grep -qF 'players[0].name holds U+061C ARABIC LETTER MARK at byte 7' "$WORK/last.err" || fail "$(cat "$WORK/last.err")"
[ ! -e badname ] || fail "new wrote badname"

# gm replace's --name is a display name too, and a GM's --reason is prose for the reports.
"$ESTAFETTE" keygen gm -C gm@example.org >/dev/null
"$ESTAFETTE" new gmtext --ruleset napoleonic-empire --players players.json --gm-signing-key gm >/dev/null
join gmtext france allies
ssh-keygen -q -t ed25519 -N '' -C newallies -f newallies
before=$(commits gmtext)
expect_exit 64 "$ESTAFETTE" gm gmtext replace --player allies --name "$(printf 'New \xe2\x80\xaeAllies')" \
	--email new@example.org --key newallies.pub --reason "Bert left"
grep -qF 'gm replace: --name holds U+202E RIGHT-TO-LEFT OVERRIDE at byte 4' "$WORK/last.err" || fail "$(cat "$WORK/last.err")"
expect_exit 64 "$ESTAFETTE" gm gmtext replace --player allies --name "New Allies" \
	--email new@example.org --key newallies.pub --reason "$(printf 'Bert \xd8\x9cleft')"
grep -qF 'gm replace: --reason holds U+061C ARABIC LETTER MARK at byte 5' "$WORK/last.err" || fail "$(cat "$WORK/last.err")"
[ "$(commits gmtext)" = "$before" ] || fail "a refused gm act made a commit"
grep -q newallies gmtext/game.json && fail "a refused replace changed game.json"

echo "press: modes full, public and none, and press by mail hold; invisible characters refused in press, names and reasons"
