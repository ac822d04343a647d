# Shared by the demo and the integration scripts (bash): a scratch folder,
# a real loopback SMTP server, and small assertions. Source it.
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
ESTAFETTE=${ESTAFETTE:-$TOP/build/estafette}
PY=/usr/bin/python3

fail() { echo "FAIL: $*" >&2; exit 1; }

# need_pkgs PKG...: Debian packages only some tests need (chromium,
# dovecot-imapd), installed now by tests/deps.sh when missing. When they
# cannot be, the test ends as skipped (exit 77, see tests/run-tests.sh) with
# a SKIP: line saying which packages and why.
need_pkgs() {
	local out
	if out=$("$TOP/tests/deps.sh" "$@" 2>&1); then
		[ -z "$out" ] || echo "NOTE: $(echo "$out" | head -n 1)"
		return 0
	fi
	echo "SKIP: needs $*, which could not be installed here: $(echo "$out" | tail -n 3 |
		tr '\n' ' ')(install them with tests/deps.sh $*)"
	exit 77
}

# need_chromium: CHROMIUM names the browser the test drives; Debian's
# chromium, installed now if missing, unless CHROMIUM already names another.
need_chromium() {
	if [ -z "${CHROMIUM:-}" ]; then
		need_pkgs chromium
		CHROMIUM=/usr/bin/chromium
	fi
	[ -x "$CHROMIUM" ] || fail "$CHROMIUM is missing"
}

# scratch: a new folder removed at exit, with its own ESTAFETTE_HOME.
scratch() {
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/estafette-test.XXXXXX")
	export ESTAFETTE_HOME=$WORK/home
	trap 'stop_smtpd; rm -rf "$WORK"' EXIT
}

# start_smtpd DIR [args]: a real aiosmtpd server on a free loopback port;
# sets SMTP_PORT.
start_smtpd() {
	local dir=$1; shift
	mkdir -p "$dir"
	rm -f "$dir/port"
	"$PY" "$TOP/tests/helpers/smtpd.py" --dir "$dir" --port 0 --port-file "$dir/port" "$@" \
		2>"$dir/smtpd.log" &
	SMTPD_PID=$!
	for _ in $(seq 100); do
		[ -s "$dir/port" ] && break
		sleep 0.1
	done
	[ -s "$dir/port" ] || fail "smtpd.py did not start: $(cat "$dir/smtpd.log")"
	SMTP_PORT=$(cat "$dir/port")
}

stop_smtpd() {
	if [ -n "${SMTPD_PID:-}" ]; then
		kill "$SMTPD_PID" 2>/dev/null
		wait "$SMTPD_PID" 2>/dev/null
		SMTPD_PID=
	fi
	return 0
}

# collect_mail FROM: the messages the SMTP server wrote to FROM (its --dir)
# since the last call, moved into ./mail of the current folder.
collect_mail() {
	local f
	mkdir -p mail
	for f in "$1"/[0-9]*.eml; do
		[ -e "$f" ] || continue
		mv "$f" "mail/$(basename "$f")"
		rm -f "${f%.eml}.json"
	done
}

# expect_exit CODE command...: run it, require that exit code.
expect_exit() {
	local want=$1; shift
	local got=0
	# (the outer redirection hides bash's own "Killed" note when a test kills the command)
	{ "$@" >"$WORK/last.out" 2>"$WORK/last.err"; } 2>/dev/null || got=$?
	[ "$got" -eq "$want" ] ||
		fail "$* exited $got, expected $want: $(cat "$WORK/last.out" "$WORK/last.err")"
}

# json FILE EXPR: a value from JSON on stdin or in FILE, by a Python expression on `d`.
json_get() {
	"$PY" -c "import json,sys; d=json.load(sys.stdin); print($1)"
}

commits() { git -C "$1" rev-list --count main; }

# make_players: Ed25519 keys france and allies made by the real ssh-keygen
# in the current folder, and players.json naming them (Napoleonic Empire).
make_players() {
	local p
	for p in france allies; do ssh-keygen -q -t ed25519 -N '' -C "$p" -f "$p"; done
	cat > players.json <<JSON
{"players": [
 {"id": "france", "name": "France player", "email": "france@example.org", "key": "$(cat france.pub)"},
 {"id": "allies", "name": "Allied player", "email": "allies@example.org", "key": "$(cat allies.pub)"}]}
JSON
}

# push_orders CLONE MESSAGE: in CLONE, a clone of a game's remote, every
# player the game awaits signs an order of no moves (with the key named
# after the player in the current folder), and the files go to the remote
# in one commit MESSAGE, as the players push them.
push_orders() {
	local d=$1 p f
	git -C "$d" pull -q --ff-only
	mkdir -p "$d/orders"
	for p in $("$ESTAFETTE" status "$d" --json | json_get '" ".join(a["player"] for a in d["awaiting"] if not a["received"])'); do
		f=$d/orders/$p.json
		"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$d" "$p" 1 '[]' > "$f"
		rm -f "$f.sig"
		ssh-keygen -q -Y sign -f "$p" -n estafette-orders "$f"
	done
	git -C "$d" add orders
	git -C "$d" -c user.name=player -c user.email=p@example.org commit -qm "$2"
	git -C "$d" push -q origin main
}

# join GAME PLAYER[=KEY]...: the join (step 1 of a game under dice v2):
# each player's signed file with "orders": [], submitted, then a run that
# resolves the step. KEY defaults to the file named after the player in
# the current folder.
join() {
	local game=$1 p key f; shift
	for p in "$@"; do
		key=${p#*=}; p=${p%%=*}
		f=$WORK/join-$p-$RANDOM.json
		"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$game" "$p" 1 '[]' > "$f"
		ssh-keygen -q -Y sign -f "$key" -n estafette-orders "$f"
		"$ESTAFETTE" submit "$game" "$f" >/dev/null || fail "join: $p's file was refused"
	done
	"$ESTAFETTE" run "$game" >/dev/null || fail "join: the run after it failed"
}

# gm_git GAME ARGS...: git in GAME as its GM, commits signed with the game's
# GM key (git config estafette.signingkey), as a GM who edits by hand would
# (`gm_git G tag -s -f -m "step 2" step-0002 main` for a step tag).
gm_git() {
	local game=$1 key; shift
	key=$(git -C "$game" config estafette.signingkey)
	git -C "$game" -c gpg.format=ssh -c user.signingkey="$key" -c commit.gpgsign=true \
		-c user.name=gm -c user.email=gm@example.org "$@"
}

# save_receipts OUTBOX DIR: the signed receipts attached to the mails in
# OUTBOX (an outbox's pending/ or sent/ folder), saved in DIR as a player's
# mail client would save them.
save_receipts() {
	mkdir -p "$2"
	"$PY" - "$1" "$2" <<'PY'
import email, email.policy, pathlib, sys
for eml in sorted(pathlib.Path(sys.argv[1]).glob("*.eml")):
    msg = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    for part in msg.iter_attachments():
        name = part.get_filename() or ""
        if name.startswith("receipt-"):
            (pathlib.Path(sys.argv[2]) / name).write_bytes(part.get_payload(decode=True))
PY
}

# host_domain: what the right of this host's Message-IDs should be
# (docs/mail.md "Message-IDs"), worked out apart from the code: the host
# name, completed by the resolver's canonical name when it has no dot.
host_domain() {
	"$PY" - <<'PY'
import re, socket
host = socket.gethostname()
if "." not in host:
    try:
        canon = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM, flags=socket.AI_CANONNAME)[0][3]
        host = canon if "." in canon else host
    except OSError:
        pass
labels = [re.sub(r"[^a-z0-9-]", "-", l.lower()).strip("-") for l in host.split(".")]
print(".".join(l for l in labels if l) or "localhost.invalid")
PY
}

# msgid_re GAME NAME: a grep -E pattern for the Message-ID header of
# outbox message NAME of GAME: <32 hex.GAME.NAME@host_domain>.
msgid_re() {
	local dots=${MSGID_DOMAIN:-$(host_domain)}
	printf '^Message-ID: <[0-9a-f]{32}\\.%s\\.%s@%s>\r?$' "${1//./\\.}" "${2//./\\.}" "${dots//./\\.}"
}
