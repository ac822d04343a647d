#!/usr/bin/python3
"""forge_rsa.py pub|sign ...: an RSA key whose public exponent is 1, and a signature by it.
  pub PUBFILE              -> prints "ssh-rsa BASE64" with e=1 and the modulus of PUBFILE
  sign KEYLINE NS FILE     -> prints an armored SSHSIG over FILE, made without any private key
    (with e = 1, RSA verification raises the signature to the first power: the PKCS#1
    v1.5 padding of the hash is itself a valid signature)
"""
import base64, hashlib, struct, sys

def s(b): return struct.pack(">I", len(b)) + b
def mpint(x):
    b = x.to_bytes((x.bit_length() + 7) // 8, "big") if x else b""
    if b and b[0] & 0x80: b = b"\0" + b
    return s(b)
def fields(blob):
    out, off = [], 0
    while off < len(blob):
        n, = struct.unpack(">I", blob[off:off+4]); out.append(blob[off+4:off+4+n]); off += 4 + n
    return out

if sys.argv[1] == "pub":
    typ, b64 = open(sys.argv[2]).read().split()[:2]
    f = fields(base64.b64decode(b64))
    n = int.from_bytes(f[2], "big")
    print("ssh-rsa", base64.b64encode(s(b"ssh-rsa") + mpint(1) + mpint(n)).decode())
else:
    keyline, ns, path = sys.argv[2:5]
    blob = base64.b64decode(keyline.split()[1])
    n = int.from_bytes(fields(blob)[2], "big")
    k = (n.bit_length() + 7) // 8
    msg = b"SSHSIG" + s(ns.encode()) + s(b"") + s(b"sha512") + s(hashlib.sha512(open(path, "rb").read()).digest())
    di = bytes.fromhex("3051300d060960864801650304020305000440") + hashlib.sha512(msg).digest()
    em = b"\0\1" + b"\xff" * (k - 3 - len(di)) + b"\0" + di   # PKCS#1 v1.5; with e=1 this IS the signature
    sig = b"SSHSIG" + struct.pack(">I", 1) + s(blob) + s(ns.encode()) + s(b"") + s(b"sha512") + s(s(b"rsa-sha2-512") + s(em))
    b = base64.b64encode(sig).decode()
    print("-----BEGIN SSH SIGNATURE-----")
    for i in range(0, len(b), 70): print(b[i:i+70])
    print("-----END SSH SIGNATURE-----")
