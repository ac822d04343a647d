# A private Dovecot IMAP server on loopback for tests. Source it from bash:
#
#     . tests/helpers/imapd.sh
#     start_imapd "$dir"      # dir: an empty folder of yours (created if missing)
#     ... tests ...
#     stop_imapd              # always; also removes nothing, `rm -rf "$dir"` is yours
#
# start_imapd writes $dir/dovecot.conf (base_dir, state_dir and logs under $dir,
# nothing of the system's /etc/dovecot), a self-signed certificate for
# 127.0.0.1/localhost made with openssl, a passwd-file with one test user, and
# runs `dovecot -c $dir/dovecot.conf`. It listens on 127.0.0.1 only, on two
# ports free at run time: IMAP with STARTTLS, and IMAP over TLS. It exports
#
#     IMAP_PORT     plain IMAP port (STARTTLS offered; plaintext login allowed)
#     IMAPS_PORT    implicit-TLS port
#     IMAP_USER     the test user's name
#     IMAP_PASS     its password
#     IMAP_CA       the server's self-signed certificate (PEM), for CURLOPT_CAINFO
#     IMAP_MAILDIR  the user's INBOX, a Maildir (new/ cur/ tmp/)
#     IMAPD_DIR     $dir
#
# With IMAPD_TLS=no in the environment the server has no TLS at all: no
# STARTTLS on IMAP_PORT and no IMAPS_PORT (exported empty), to test clients
# that require TLS.
#
# Mail is accessed as user `nobody`: Dovecot never runs mail processes as root,
# so the Maildir is owned by nobody. Put messages in the INBOX either way:
#
#   - write a file straight into the Maildir (what a local MDA does):
#         imapd_deliver FILE          # copies FILE to $IMAP_MAILDIR/new/ atomically
#   - or IMAP APPEND through curl; libcurl 7.88 appends with the \Seen flag
#     ("APPEND INBOX (\Seen) {n}"), so clear it to make the message unseen:
#         curl -s --cacert "$IMAP_CA" -u "$IMAP_USER:$IMAP_PASS" \
#              -T FILE "imaps://127.0.0.1:$IMAPS_PORT/INBOX"
#         curl -s --cacert "$IMAP_CA" -u "$IMAP_USER:$IMAP_PASS" \
#              -X 'UID STORE 1:* -FLAGS (\Seen)' "imaps://127.0.0.1:$IMAPS_PORT/INBOX"
#
# Returns non-zero (and prints the server's log) when the server does not come up.
# Dovecot (Debian's dovecot-imapd) is installed by start_imapd when missing
# (tests/deps.sh); it returns non-zero, saying why, when it cannot be.

IMAPD_DEPS=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/deps.sh

imapd_free_port() {
	/usr/bin/python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

imapd_wait_port() {
	local port=$1 i
	for i in $(seq 1 100); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	return 1
}

start_imapd() {
	local dir=$1
	if [ -z "$dir" ]; then
		echo "start_imapd: usage: start_imapd DIR" >&2
		return 2
	fi
	"$IMAPD_DEPS" dovecot-imapd >&2 || {
		echo "start_imapd: dovecot-imapd is missing and could not be installed" >&2
		return 1
	}
	mkdir -p "$dir" || return 1
	dir=$(cd "$dir" && pwd) || return 1
	# nobody must reach its Maildir below $dir
	chmod 0755 "$dir" || return 1
	IMAPD_DIR=$dir
	IMAP_USER=estafette
	IMAP_PASS=orders-$RANDOM-$$
	IMAP_CA=$dir/cert.pem
	IMAP_MAILDIR=$dir/Maildir
	IMAP_PORT=$(imapd_free_port) || return 1
	IMAPS_PORT=$(imapd_free_port) || return 1
	while [ "$IMAPS_PORT" = "$IMAP_PORT" ]; do
		IMAPS_PORT=$(imapd_free_port) || return 1
	done
	export IMAPD_DIR IMAP_USER IMAP_PASS IMAP_CA IMAP_MAILDIR IMAP_PORT IMAPS_PORT

	local uid gid
	uid=$(id -u nobody) || return 1
	gid=$(id -g nobody) || return 1

	mkdir -p "$dir/run" "$dir/state" "$IMAP_MAILDIR/new" "$IMAP_MAILDIR/cur" \
		"$IMAP_MAILDIR/tmp" || return 1
	chown -R "$uid:$gid" "$IMAP_MAILDIR" || return 1
	chmod 0777 "$IMAP_MAILDIR/new" "$IMAP_MAILDIR/cur" "$IMAP_MAILDIR/tmp"

	openssl req -x509 -newkey rsa:2048 -nodes -days 2 \
		-subj "/CN=localhost" \
		-addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
		-keyout "$dir/key.pem" -out "$dir/cert.pem" >"$dir/openssl.log" 2>&1 || {
		cat "$dir/openssl.log" >&2
		return 1
	}

	printf '%s:{PLAIN}%s\n' "$IMAP_USER" "$IMAP_PASS" >"$dir/passwd"
	chmod 0644 "$dir/passwd"

	local ssl=yes imaps_listener
	imaps_listener="  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
    ssl = yes
  }"
	if [ "${IMAPD_TLS:-yes}" = no ]; then
		ssl=no
		imaps_listener="  inet_listener imaps {
    port = 0
  }"
		IMAPS_PORT=
	fi

	cat >"$dir/dovecot.conf" <<EOF
# written by tests/helpers/imapd.sh; private instance, nothing from /etc/dovecot
base_dir = $dir/run
state_dir = $dir/state
instance_name = estafette-test-$IMAP_PORT
log_path = $dir/dovecot.log
info_log_path = $dir/dovecot.log
protocols = imap
# no stats-writer: its handshake stalls the shutdown by seconds
stats_writer_socket_path =
listen = 127.0.0.1
ssl = $ssl
ssl_cert = <$dir/cert.pem
ssl_key = <$dir/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
# tests log in with wrong passwords: no delay, and no penalty for the next login
auth_failure_delay = 0
mail_location = maildir:$IMAP_MAILDIR:LAYOUT=fs
mail_uid = $uid
mail_gid = $gid
first_valid_uid = $uid
first_valid_gid = $gid
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $dir/passwd
}
userdb {
  driver = static
  args = uid=$uid gid=$gid home=$dir/home
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
$imaps_listener
}
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service stats {
  inet_listener http {
    port = 0
  }
}
EOF
	if ! dovecot -c "$dir/dovecot.conf" >"$dir/start.log" 2>&1; then
		cat "$dir/start.log" "$dir/dovecot.log" >&2 2>/dev/null
		return 1
	fi
	if ! imapd_wait_port "$IMAP_PORT" ||
		{ [ -n "$IMAPS_PORT" ] && ! imapd_wait_port "$IMAPS_PORT"; }; then
		echo "start_imapd: dovecot did not listen on $IMAP_PORT and $IMAPS_PORT" >&2
		cat "$dir/dovecot.log" >&2 2>/dev/null
		stop_imapd
		return 1
	fi
	return 0
}

# imapd_game GAME HOME: point GAME's fetch at the running server (imaps, its
# CA, the test user) and put the password in HOME/imap-password, mode 0600.
imapd_game() {
	git -C "$1" config estafette.imapurl "imaps://127.0.0.1:$IMAPS_PORT/INBOX" &&
	git -C "$1" config estafette.imapuser "$IMAP_USER" &&
	git -C "$1" config estafette.imapcafile "$IMAP_CA" &&
	echo "$IMAP_PASS" > "$2/imap-password" && chmod 600 "$2/imap-password"
}

# Copy FILE into the INBOX's new/ (tmp/ then rename, as Maildir asks).
imapd_deliver() {
	local file=$1 name
	name=$(date +%s).$$_$RANDOM.$(hostname)
	cp "$file" "$IMAP_MAILDIR/tmp/$name" || return 1
	chmod 0644 "$IMAP_MAILDIR/tmp/$name"
	mv "$IMAP_MAILDIR/tmp/$name" "$IMAP_MAILDIR/new/$name"
}

stop_imapd() {
	local pidfile=$IMAPD_DIR/run/master.pid pid i
	[ -n "$IMAPD_DIR" ] && [ -f "$pidfile" ] || return 0
	pid=$(cat "$pidfile")
	kill "$pid" 2>/dev/null
	# Dovecot's master waits for its log process: a stop takes 2-3 seconds
	for i in $(seq 1 150); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -9 "$pid" 2>/dev/null
	return 0
}
