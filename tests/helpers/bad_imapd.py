#!/usr/bin/python3
"""A loopback server that fails an IMAP client the way a struggling server
or network does, for the tests of temporary IMAP failures (exit 75).

    bad_imapd.py MODE --port-file FILE

listens on a free port of 127.0.0.1, writes the port to FILE, and for each
connection, by MODE:

    close       accepts and closes at once, before any greeting
    greeting    sends the IMAP greeting, then closes before any reply
    tls-drop    reads the first bytes of the client's TLS handshake (its
                ClientHello), then closes mid-handshake

Runs until killed.
"""
import argparse
import os
import socket
import threading

p = argparse.ArgumentParser()
p.add_argument("mode", choices=["close", "greeting", "tls-drop"])
p.add_argument("--port-file", required=True)
a = p.parse_args()


def serve(conn):
    try:
        if a.mode == "greeting":
            conn.sendall(b"* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] ready\r\n")
        elif a.mode == "tls-drop":
            conn.settimeout(5)
            conn.recv(5)  # the record header of the ClientHello: the handshake has begun
    except OSError:
        pass
    conn.close()


s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(16)
with open(a.port_file + ".tmp", "w") as f:
    f.write(str(s.getsockname()[1]))
os.rename(a.port_file + ".tmp", a.port_file)
while True:
    conn, _ = s.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
