#!/usr/bin/python3
"""A real SMTP server (aiosmtpd) for estafette's tests and demo.

    /usr/bin/python3 tests/helpers/smtpd.py --dir DIR [--host 127.0.0.1]
        [--port 0] [--port-file F] [--reject-first N] [--reject-rcpt ADDR]...
        [--auth USER:PASSWORD] [--tls-cert PEM --tls-key PEM [--smtps]]

Binds HOST:PORT (port 0: any free port); once listening, writes the port to
--port-file (atomically, so a reader never sees half a number). Each
accepted message is stored as DIR/NNNN.eml (the bytes received, dot-stuffing
undone) plus DIR/NNNN.json with {"mail_from", "rcpt_tos", "session"} (and
"auth", the user who logged in, under --auth; "tls", whether the message came
over TLS), the .json last. Every
connection appends "session N from HOST:PORT" to DIR/connections.log, so a
test can tell how many connections a run used.

--reject-first N answers 451 (try again later) to the first N DATA commands;
--reject-rcpt ADDR answers 550 (no such user) to RCPT TO:<ADDR>; --auth
requires AUTH PLAIN or LOGIN with that user and password (over plain TCP: a
test server only) and answers 535 to any other. --tls-cert and --tls-key
offer STARTTLS with that certificate; with --smtps the port speaks TLS from
the first byte instead. Logs to stderr and runs until SIGTERM or SIGINT.
"""
import argparse
import asyncio
import json
import logging
import os
import signal
import ssl
import sys
import warnings

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

log = logging.getLogger("smtpd")


def write_atomic(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.rename(tmp, path)


class Mailbox:
    """The aiosmtpd handler: stores, counts and refuses as told."""

    def __init__(self, folder, reject_first, reject_rcpts):
        self.folder = folder
        self.reject_first = reject_first
        self.reject_rcpts = set(a.lower() for a in reject_rcpts)
        self.data_commands = 0
        self.stored = 0
        self.sessions = 0

    def connected(self, peer):
        self.sessions += 1
        line = "session %d from %s:%s\n" % (self.sessions, peer[0], peer[1])
        with open(os.path.join(self.folder, "connections.log"), "a") as f:
            f.write(line)
        log.info("connection %d from %r", self.sessions, peer)
        return self.sessions

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower() in self.reject_rcpts:
            log.info("refusing recipient %s", address)
            return "550 5.1.1 <%s>: no such user here" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.data_commands += 1
        if self.data_commands <= self.reject_first:
            log.info("answering 451 to DATA %d", self.data_commands)
            return "451 4.3.0 try again later (test server, --reject-first)"
        self.stored += 1
        base = os.path.join(self.folder, "%04d" % self.stored)
        write_atomic(base + ".eml", envelope.original_content)
        meta = {"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos,
                "session": server.number}
        if session.authenticated:
            meta["auth"] = session.auth_data.login.decode()
        meta["tls"] = (session.ssl is not None
                       or server.transport.get_extra_info("ssl_object") is not None)
        write_atomic(base + ".json", json.dumps(meta, indent=2).encode() + b"\n")
        log.info("stored %s.eml from %s to %s", base, envelope.mail_from,
                 ", ".join(envelope.rcpt_tos))
        return "250 2.0.0 OK stored as %04d" % self.stored


class CountingSMTP(SMTP):
    """aiosmtpd's SMTP protocol, telling the handler about each new connection."""

    number = 0  # this connection's number, from 1

    def connection_made(self, transport):
        # After STARTTLS the same connection is "made" again (with a new
        # session object): count it once.
        first = getattr(self, "_original_transport", None) is None
        super().connection_made(transport)
        if first:
            self.number = self.event_handler.connected(self.session.peer)


def authenticator_for(credentials):
    user, _, password = credentials.partition(":")

    def authenticate(server, session, envelope, mechanism, auth_data):
        ok = (isinstance(auth_data, LoginPassword) and auth_data.login == user.encode()
              and auth_data.password == password.encode())
        log.info("AUTH %s as %r: %s", mechanism,
                 getattr(auth_data, "login", b"?"), "ok" if ok else "refused")
        return AuthResult(success=ok, handled=False, auth_data=auth_data)

    return authenticate


async def serve(args):
    loop = asyncio.get_running_loop()
    mailbox = Mailbox(args.dir, args.reject_first, args.reject_rcpt)
    options, context = {}, None
    if args.auth:
        options.update(authenticator=authenticator_for(args.auth), auth_required=True,
                       auth_require_tls=False)
    if args.tls_cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.tls_cert, args.tls_key)
        if not args.smtps:
            options["tls_context"] = context
    server = await loop.create_server(
        lambda: CountingSMTP(mailbox, hostname="estafette-test-smtpd",
                             data_size_limit=None, loop=loop, **options),
        host=args.host, port=args.port, ssl=context if args.smtps else None)
    port = server.sockets[0].getsockname()[1]
    log.info("listening on %s:%d, storing in %s", args.host, port, args.dir)
    if args.port_file:
        write_atomic(args.port_file, b"%d\n" % port)
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    server.close()
    await server.wait_closed()
    log.info("stopped after %d session(s), %d message(s)", mailbox.sessions, mailbox.stored)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dir", required=True, help="where to store messages")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0, help="0: any free port")
    p.add_argument("--port-file", help="write the port here once listening")
    p.add_argument("--reject-first", type=int, default=0, metavar="N",
                   help="answer 451 to the first N DATA commands")
    p.add_argument("--reject-rcpt", action="append", default=[], metavar="ADDR",
                   help="answer 550 to RCPT TO:<ADDR> (repeatable)")
    p.add_argument("--auth", metavar="USER:PASSWORD",
                   help="require AUTH with these credentials (plain TCP, tests only)")
    p.add_argument("--tls-cert", metavar="PEM", help="certificate: offer STARTTLS")
    p.add_argument("--tls-key", metavar="PEM", help="its private key")
    p.add_argument("--smtps", action="store_true",
                   help="TLS from the first byte (implicit TLS) instead of STARTTLS")
    args = p.parse_args()
    if bool(args.tls_cert) != bool(args.tls_key) or (args.smtps and not args.tls_cert):
        p.error("--tls-cert and --tls-key go together, and --smtps needs them")
    # aiosmtpd warns that AUTH without TLS is unsafe: true, and fine on loopback.
    warnings.simplefilter("ignore")
    logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                        format="smtpd: %(message)s")
    os.makedirs(args.dir, exist_ok=True)
    try:
        asyncio.run(serve(args))
    except OSError as e:
        log.error("cannot listen on %s:%d: %s", args.host, args.port, e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
