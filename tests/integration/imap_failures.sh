#!/bin/bash
# IMAP in trouble is a temporary failure, a wrong setting a configuration
# error (docs/mail.md "Fetching from a mailbox"), through the real binary:
# servers on loopback that close at once, send the greeting and close, or
# drop a TLS handshake midway (tests/helpers/bad_imapd.py), and a port
# nothing listens on, make `fetch` exit 75, naming the server and saying the
# next fetch tries again; a real dovecot (tests/helpers/imapd.sh) with a
# wrong password, without the CA of its certificate, or reached with
# imaps:// on its clear-text port makes it exit 78, naming the server, the
# login and the setting to fix, never the password. Then the cron line of
# docs/mail.md, taken from the page and run as it is written, with the
# IMAP server down and a deadline passed: the step is resolved and its
# reports reach a real loopback SMTP server.
set -euo pipefail
source "$TOP/tests/lib.sh"
source "$TOP/tests/helpers/imapd.sh"
need_pkgs dovecot-imapd
scratch
BAD_PIDS=()
trap 'for p in "${BAD_PIDS[@]}"; do kill "$p" 2>/dev/null; done; stop_imapd 2>/dev/null; stop_smtpd; rm -rf "$WORK"' EXIT
cd "$WORK"
make_players

# bad_server MODE: a bad_imapd.py in MODE; prints its port.
bad_server() {
	"$PY" "$TOP/tests/helpers/bad_imapd.py" "$1" --port-file "$WORK/port.$1" 2>"$WORK/bad-$1.log" &
	BAD_PIDS+=($!)
	for _ in $(seq 100); do [ -s "$WORK/port.$1" ] && break; sleep 0.1; done
	[ -s "$WORK/port.$1" ] || fail "bad_imapd.py $1 did not start: $(cat "$WORK/bad-$1.log")"
}
free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The cron line's game: a deadline of an hour, the join resolved two hours
# ago, so step 2's deadline passed an hour ago; mail to the SMTP server.
T0=$(($(date +%s) - 7200))
export ESTAFETTE_COMMIT_TIME=$T0
"$ESTAFETTE" new game --ruleset napoleonic-empire --players players.json --deadline-hours 1 >/dev/null
unset ESTAFETTE_COMMIT_TIME
for p in france allies; do
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" game "$p" 1 '[]' > "join-$p.json"
	ssh-keygen -q -Y sign -f "$p" -n estafette-orders "join-$p.json"
	expect_exit 0 "$ESTAFETTE" submit game "join-$p.json" --now "@$T0"
done
expect_exit 0 "$ESTAFETTE" run game --now "@$T0" --no-mail
[ "$(git -C game tag | wc -l)" -eq 2 ] || fail "the join was not resolved: $(git -C game tag)"
git -C game config estafette.sender "GM <gm@example.org>"

# 1. Temporary failures: exit 75, the server named, a retry promised.
bad_server close
bad_server greeting
bad_server tls-drop
nobody=$(free_port)
for case in "imap close" "imaps close" "imap greeting" "imaps tls-drop" "imap nobody" "imaps nobody"; do
	scheme=${case% *} mode=${case#* }
	port=$([ "$mode" = nobody ] && echo "$nobody" || cat "port.$mode")
	url="$scheme://127.0.0.1:$port/INBOX"
	expect_exit 75 "$ESTAFETTE" fetch game --imap "$url"
	grep -q "$scheme://127.0.0.1:$port/INBOX" "$WORK/last.err" || fail "$case: the server is not named: $(cat "$WORK/last.err")"
	grep -q "the next fetch tries again" "$WORK/last.err" || fail "$case: no word of a retry: $(cat "$WORK/last.err")"
done
expect_exit 75 "$ESTAFETTE" fetch game --imap "imaps://127.0.0.1:$(cat port.tls-drop)/INBOX"
grep -q "TLS handshake broke off" "$WORK/last.err" || fail "tls-drop: $(cat "$WORK/last.err")"
[ "$(git -C game tag | wc -l)" -eq 2 ] || fail "a fetch resolved a step"

# 2. Configuration errors, with a real dovecot: exit 78, what to fix named.
chmod 755 "$WORK"   # dovecot's unprivileged processes must reach their files
start_imapd "$WORK/imapd" >/dev/null || fail "dovecot did not start"
git -C game config estafette.imapuser "$IMAP_USER"
git -C game config estafette.imapcafile "$IMAP_CA"
echo "not-$IMAP_PASS" > "$ESTAFETTE_HOME/imap-password"
chmod 600 "$ESTAFETTE_HOME/imap-password"
expect_exit 78 "$ESTAFETTE" fetch game --imap "imaps://127.0.0.1:$IMAPS_PORT/INBOX"
grep -q "imaps://127.0.0.1:$IMAPS_PORT/INBOX: .*refused the login \"$IMAP_USER\".*estafette.imapuser.*imap-password" "$WORK/last.err" ||
	fail "a wrong password: $(cat "$WORK/last.err")"
! grep -q "not-$IMAP_PASS" "$WORK/last.out" "$WORK/last.err" || fail "the message shows the password"
echo "$IMAP_PASS" > "$ESTAFETTE_HOME/imap-password"
expect_exit 0 "$ESTAFETTE" fetch game --imap "imaps://127.0.0.1:$IMAPS_PORT/INBOX"
git -C game config --unset estafette.imapcafile
expect_exit 78 "$ESTAFETTE" fetch game --imap "imaps://127.0.0.1:$IMAPS_PORT/INBOX"
grep -q "certificate was not verified.*estafette.imapcafile" "$WORK/last.err" ||
	fail "an unverified certificate: $(cat "$WORK/last.err")"
git -C game config estafette.imapcafile "$IMAP_CA"
expect_exit 78 "$ESTAFETTE" fetch game --imap "imaps://127.0.0.1:$IMAP_PORT/INBOX"
grep -q "imaps://127.0.0.1:$IMAP_PORT/INBOX: .*does not speak TLS.*imap://" "$WORK/last.err" ||
	fail "imaps:// to the clear-text port: $(cat "$WORK/last.err")"
stop_imapd

# 3. The cron line of docs/mail.md, as written, with the IMAP server gone
# and step 2's deadline passed: the run resolves it and mails the reports.
line=$(sed -nE 's/^    (\*\/[0-9]+ \* \* \* \* (estafette fetch G.*))$/\2/p' "$TOP/docs/mail.md")
[ "$(echo "$line" | grep -c .)" -eq 1 ] || fail "docs/mail.md: not one cron line with estafette fetch G: $line"
git -C game config estafette.imapurl "imaps://127.0.0.1:$IMAPS_PORT/INBOX"
start_smtpd "$WORK/mail"
git -C game config estafette.smtpurl "smtp://127.0.0.1:$SMTP_PORT"
mkdir bin
ln -s "$ESTAFETTE" bin/estafette
# cron runs the line with sh, in the home folder, the game's path in place of G.
got=0
(cd "$WORK" && PATH="$WORK/bin:$PATH" G="$WORK/game" sh -c "${line//G/\"\$G\"}") \
	>"$WORK/cron.out" 2>"$WORK/cron.err" || got=$?
[ "$got" -eq 0 ] || fail "the cron line \"$line\" exited $got: $(cat "$WORK/cron.out" "$WORK/cron.err")"
grep -q "imaps://127.0.0.1:$IMAPS_PORT/INBOX" "$WORK/cron.err" || fail "the fetch did not fail: $(cat "$WORK/cron.err")"
[ "$(git -C game tag | wc -l)" -eq 3 ] || fail "the cron line did not resolve step 2: $(git -C game tag; cat "$WORK/cron.out")"
for p in france allies; do
	grep -qE "$(msgid_re "$(json_get 'd["id"]' < game/game.json)" "0002-$p")" "$WORK"/mail/[0-9]*.eml ||
		fail "step 2's report to $p did not reach the SMTP server: $(ls "$WORK/mail")"
done
echo "imap_failures: 6 kinds of IMAP trouble exit 75, 3 wrong settings exit 78, the cron line \"$line\" resolves and mails with IMAP down"
