#!/bin/bash
# Message-IDs unique in the world and stable (docs/mail.md "Message-IDs"),
# through the real binary and a real loopback SMTP server: two games of the
# same id in two $ESTAFETTE_HOMEs, fed the very same signed files, mail the
# same reports under different Message-IDs, each <RANDOM.GAME.NAME@HOST>
# with this host's name on the right; a message that could not be sent
# (the server down) goes out later, by `estafette mail`, under the id it was
# queued with; a run killed at the outbox's fault points and run again
# sends every message once, under one id, and keeps the id of what was
# queued whole; a receipt threads with the player's message;
# git config estafette.messageiddomain sets the right and is checked; a
# host name that is not a domain name is tidied (when this test may set
# the host name, in a UTS namespace of its own).
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
make_players
export ESTAFETTE_COMMIT_TIME=1800000000
T0=1800000000
DOMAIN=$(host_domain)
start_smtpd "$WORK/mail"
dead_port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# The join files, signed once, submitted to every game below.
"$ESTAFETTE" new scratch-game --ruleset napoleonic-empire --players players.json --id ne-dup \
	--test-dice-secret same >/dev/null
for p in france allies; do
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" scratch-game "$p" 1 '[]' > "join-$p.json"
	ssh-keygen -q -Y sign -f "$p" -n estafette-orders "join-$p.json"
done
rm -rf scratch-game "$ESTAFETTE_HOME"

# new_game DIR: game ne-dup in DIR/game, its ESTAFETTE_HOME DIR/home (exported),
# the join files submitted.
new_game() {
	mkdir "$WORK/$1"
	export ESTAFETTE_HOME=$WORK/$1/home
	(cd "$WORK/$1" && "$ESTAFETTE" new game --ruleset napoleonic-empire --players ../players.json \
		--id ne-dup --test-dice-secret same >/dev/null)
	git -C "$WORK/$1/game" config estafette.sender "GM <gm@example.org>"
	for p in france allies; do
		expect_exit 0 "$ESTAFETTE" submit "$WORK/$1/game" "join-$p.json" --now "@$T0"
	done
}
# id_of FILE: the Message-ID of a stored message, angle brackets included.
id_of() { grep -m1 -i '^Message-ID:' "$1" | sed -E 's/^[^:]*: *//' | tr -d '\r'; }
# server_ids NAME: the distinct Message-IDs under which the SMTP server got outbox message NAME.
server_ids() { grep -hE "$(msgid_re ne-dup "$1")" "$WORK"/mail/[0-9]*.eml 2>/dev/null | tr -d '\r' | sort -u; }

# 1. Two games of one id: the same report, two Message-IDs, each of our form.
new_game a
expect_exit 0 "$ESTAFETTE" run a/game --now "@$T0"
new_game b
expect_exit 0 "$ESTAFETTE" run b/game --now "@$T0"
for name in 0001-france 0001-allies; do
	for g in a b; do
		grep -Eq "$(msgid_re ne-dup "$name")" "$g/home/outbox/ne-dup/pending/$name.eml" ||
			fail "$g: $name's Message-ID is not <32 hex.ne-dup.$name@$DOMAIN>: $(id_of "$g/home/outbox/ne-dup/pending/$name.eml")"
	done
	[ "$(id_of "a/home/outbox/ne-dup/pending/$name.eml")" != "$(id_of "b/home/outbox/ne-dup/pending/$name.eml")" ] ||
		fail "two games of id ne-dup mailed $name under one Message-ID: $(id_of "a/home/outbox/ne-dup/pending/$name.eml")"
done
# Same files, same dice, same clock: the reports are the same but for the id
# (and the MIME boundaries, which derive from it).
"$PY" - a/home/outbox/ne-dup/pending/0001-france.eml b/home/outbox/ne-dup/pending/0001-france.eml <<'PY' ||
import re, sys
def same(path):
    data = open(path, "rb").read()
    data = re.sub(rb"^Message-ID: <[0-9a-f]{32}\.", b"Message-ID: <R.", data, flags=re.M)
    seen = {}
    return re.sub(rb"=_est_[0-9a-f]{32}", lambda m: b"B%d" % seen.setdefault(m.group(0), len(seen)), data)
assert same(sys.argv[1]) == same(sys.argv[2]), "the two games' reports differ beyond the Message-ID"
PY
	fail "the two games' reports of step 1 for france"

# 2. The server down: `mail` exits 75 and leaves everything pending; once
# it is up, `mail` sends each message under the id it was queued with.
export ESTAFETTE_HOME=$WORK/a/home
outbox=a/home/outbox/ne-dup
git -C a/game config estafette.smtpurl "smtp://127.0.0.1:$dead_port"
for f in "$outbox"/pending/*.eml; do echo "$(basename "$f" .eml) $(id_of "$f")"; done | sort > queued.txt
[ "$(wc -l < queued.txt)" -eq 4 ] || fail "expected 2 reports and 2 receipts queued: $(cat queued.txt)"
expect_exit 75 "$ESTAFETTE" mail a/game
[ "$(ls "$outbox"/pending/*.eml | wc -l)" -eq 4 ] || fail "a message left pending/ while the server was down"
git -C a/game config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
expect_exit 0 "$ESTAFETTE" mail a/game
while read -r name id; do
	got=$(server_ids "$name")
	[ "$got" = "Message-ID: $id" ] || fail "$name was queued as $id, the server got: ${got:-nothing}"
	[ "$(id_of "$outbox/sent/$name.eml")" = "$id" ] || fail "$name's id changed in sent/"
done < queued.txt

# 3. A receipt answers the player's own message: In-Reply-To and References.
(cd a && "$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game france 1 '[]') > o2.json
ssh-keygen -q -Y sign -f france -n estafette-orders o2.json
"$PY" "$TOP/tests/helpers/make_mail.py" plain --order o2.json --sig o2.json.sig \
	--from "France player <france@example.org>" --to "GM <gm@example.org>" > o2.eml
player_id=$(id_of o2.eml)
expect_exit 0 "$ESTAFETTE" receive a/game < o2.eml
expect_exit 0 "$ESTAFETTE" mail a/game
receipt=$(grep -lE "$(msgid_re ne-dup 'receipt-[0-9a-f]{16}(-france)?')" "$WORK"/mail/[0-9]*.eml |
	xargs grep -lF "In-Reply-To: $player_id" || true)
[ "$(echo "$receipt" | grep -c .)" -eq 1 ] || fail "no single receipt In-Reply-To $player_id: $(grep -h '^In-Reply-To' "$WORK"/mail/*.eml)"
grep -qF "References: $player_id" "$receipt" || fail "$receipt: References is not $player_id"

# 4. Killed at the outbox's fault points and run again: every message once,
# under one id; a message queued whole before the kill keeps its id.
for point in outbox-after-eml outbox-after-write@2 smtp-after-accept; do
	rm -rf c
	new_game c
	outbox=c/home/outbox/ne-dup
	git -C c/game config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
	rm -f "$WORK"/mail/[0-9]*.eml "$WORK"/mail/[0-9]*.json
	got=0
	{ ESTAFETTE_FAULT=$point "$ESTAFETTE" run c/game --now "@$T0" >/dev/null 2>&1; } 2>/dev/null || got=$?
	[ "$got" -eq 137 ] || fail "$point: the run was not killed there (exit $got)"
	# What was queued whole (or sent) before the kill, with its id.
	for f in "$outbox"/pending/*.json "$outbox"/sent/*.eml; do
		[ ! -e "$f" ] || echo "$(basename "${f%.*}") $(id_of "${f%.*}.eml")"
	done > before.txt
	expect_exit 0 "$ESTAFETTE" run c/game --now "@$T0"
	[ -z "$(ls "$outbox/pending")" ] || fail "$point: left pending: $(ls "$outbox/pending")"
	for f in "$outbox"/sent/*.eml; do
		name=$(basename "$f" .eml)
		got=$(server_ids "$name")
		[ "$(echo "$got" | grep -c .)" -eq 1 ] || fail "$point: $name reached the server under: ${got:-nothing}"
		[ "$got" = "Message-ID: $(id_of "$f")" ] || fail "$point: $name: sent/ and the server differ"
	done
	[ "$(ls "$outbox"/sent/*.eml | wc -l)" -eq 4 ] || fail "$point: sent/ holds $(ls "$outbox/sent")"
	while read -r name id; do
		[ "$(id_of "$outbox/sent/$name.eml")" = "$id" ] ||
			fail "$point: $name was queued whole as $id and sent as $(id_of "$outbox/sent/$name.eml")"
	done < before.txt
	[ "$point" = outbox-after-eml ] || [ -s before.txt ] || fail "$point: nothing was queued whole before the kill"
done

# 5. git config estafette.messageiddomain: the right of the ids; refused, naming
# the setting and the fix, when it is not a domain name.
rm -rf d
new_game d
git -C d/game config estafette.messageiddomain games.example.org
expect_exit 0 "$ESTAFETTE" run d/game --now "@$T0"
grep -Eq "$(MSGID_DOMAIN=games.example.org msgid_re ne-dup 0001-france)" d/home/outbox/ne-dup/pending/0001-france.eml ||
	fail "estafette.messageiddomain was not used: $(id_of d/home/outbox/ne-dup/pending/0001-france.eml)"
rm -rf e
new_game e
for bad in "games_example.org" "games..example.org" "-games.example.org" "games example.org" \
	"games.example.org."; do
	git -C e/game config estafette.messageiddomain "$bad"
	expect_exit 78 "$ESTAFETTE" run e/game --now "@$T0"
	grep -q "estafette.messageiddomain is \"$bad\", not a domain name.*--unset" "$WORK/last.err" ||
		fail "the refusal of estafette.messageiddomain=\"$bad\": $(cat "$WORK/last.err")"
done

# 6. A host name that is no domain name is tidied, or replaced by
# localhost.invalid; needs a UTS namespace (root or user namespaces).
if unshare --uts true 2>/dev/null; then
	git -C d/game config --unset estafette.messageiddomain
	export ESTAFETTE_HOME=$WORK/d/home
	for pair in "GM_Box!.Example.ORG=gm-box.example.org" "_._=localhost.invalid"; do
		host=${pair%%=*} want=${pair#*=}
		rm -rf d/home/outbox
		unshare --uts "$PY" -c 'import os, socket, sys; socket.sethostname(sys.argv[1]); os.execv(sys.argv[2], sys.argv[2:])' \
			"$host" "$ESTAFETTE" run d/game --now "@$T0" --no-mail >/dev/null 2>"$WORK/last.err" ||
			fail "run with host name $host: $(cat "$WORK/last.err")"
		grep -Eq "$(MSGID_DOMAIN=$want msgid_re ne-dup 0001-france)" d/home/outbox/ne-dup/pending/0001-france.eml ||
			fail "host name $host: $(id_of d/home/outbox/ne-dup/pending/0001-france.eml), expected @$want"
	done
else
	echo "NOTE: no UTS namespace here; the tidying of host names was not tried"
fi
echo "message_ids: unique per game and host (@$DOMAIN), kept through a dead server, three kinds of kill and a receipt's thread"
