#!/bin/bash
# tests/helpers/smtpd.py, the SMTP server the mail tests and the demo rely on,
# checked with an independent client (curl's command line): messages stored
# byte for byte with dot-stuffing undone, envelopes recorded, connections
# counted, --reject-first answering 451, --reject-rcpt answering 550, a clean
# exit on SIGTERM.
set -eu
top=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
pid=

fail() { echo "mail_smtpd: $*" >&2; [ -f "$tmp/smtpd.log" ] && tail -n 20 "$tmp/smtpd.log" >&2; exit 1; }
cleanup() {
	if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT

start() {  # smtpd.py options...
	rm -rf "$tmp/box" "$tmp/port"
	/usr/bin/python3 "$top/tests/helpers/smtpd.py" --dir "$tmp/box" --port 0 \
		--port-file "$tmp/port" "$@" 2>>"$tmp/smtpd.log" &
	pid=$!
	for _ in $(seq 200); do [ -s "$tmp/port" ] && break; sleep 0.05; done
	[ -s "$tmp/port" ] || fail "smtpd.py did not write its port file"
	port=$(cat "$tmp/port")
}

stop() {
	kill -TERM "$pid"
	wait "$pid" || fail "smtpd.py exited with status $? on SIGTERM, not 0"
	pid=
}

send() {  # file rcpt... (one curl run, one connection)
	local file=$1; shift
	local args=()
	for r in "$@"; do args+=(--mail-rcpt "$r"); done
	curl -sS --max-time 20 "smtp://127.0.0.1:$port" --mail-from gm@example.org "${args[@]}" \
		-T "$file"
}

# Lines that start with dots must come back as they were sent.
printf 'From: gm@example.org\r\nSubject: dots\r\n\r\n.\r\n..two dots\r\n.x\r\nend\r\n' >"$tmp/a.eml"
printf 'From: gm@example.org\r\nSubject: second\r\n\r\nsecond body\r\n' >"$tmp/b.eml"

start
send "$tmp/a.eml" france@example.org austria@example.org || fail "curl could not send"
cmp -s "$tmp/a.eml" "$tmp/box/0001.eml" || fail "stored message differs from the one sent"
/usr/bin/python3 - "$tmp/box/0001.json" <<'EOF' || fail "envelope of 0001 is wrong"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["mail_from"] == "gm@example.org", m
assert m["rcpt_tos"] == ["france@example.org", "austria@example.org"], m
assert m["session"] == 1, m
EOF
# Two messages in one curl run share one connection: the log counts sessions.
curl -sS --max-time 20 --mail-from gm@example.org --mail-rcpt prussia@example.org \
	-T "$tmp/a.eml" "smtp://127.0.0.1:$port" -T "$tmp/b.eml" "smtp://127.0.0.1:$port" ||
	fail "curl could not send two"
cmp -s "$tmp/b.eml" "$tmp/box/0003.eml" || fail "third stored message differs"
[ "$(wc -l <"$tmp/box/connections.log")" -eq 2 ] || fail "expected 2 sessions, log: $(cat "$tmp/box/connections.log")"
grep -q '"session": 2' "$tmp/box/0003.json" || fail "0003 not recorded on session 2"
stop

# --reject-first 1: the first DATA is answered 451, the retry is stored as 0001.
start --reject-first 1
if send "$tmp/b.eml" france@example.org 2>/dev/null; then fail "first DATA was not refused"; fi
[ ! -e "$tmp/box/0001.eml" ] || fail "a refused message was stored"
grep -q "answering 451" "$tmp/smtpd.log" || fail "no 451 in the log"
send "$tmp/b.eml" france@example.org || fail "retry after 451 failed"
cmp -s "$tmp/b.eml" "$tmp/box/0001.eml" || fail "retried message differs"
stop

# --reject-rcpt: 550 for that recipient, nothing stored.
start --reject-rcpt nobody@example.org
if send "$tmp/b.eml" nobody@example.org 2>/dev/null; then fail "bad recipient was accepted"; fi
[ ! -e "$tmp/box/0001.eml" ] || fail "a message to a refused recipient was stored"
send "$tmp/b.eml" france@example.org || fail "good recipient refused"
stop

echo "mail_smtpd: ok"
