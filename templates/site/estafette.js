/*
 * estafette.js: the "verify this game" button of a game's site (docs/site.md).
 *
 * It recomputes in the browser, with the browser's own Web Crypto, what
 * docs/protocol.md says anyone can check from a game's public record: every
 * link of the dice chain from the tip game.json committed to, every step's
 * seed from its inputs (the order files' SHA-256s computed here from the
 * files' bytes), every roll and shuffle from the seed's stream, the order
 * files' signatures (where Web Crypto knows the key type) and bindings.
 * It does not judge the rules: whether a step's state follows from its
 * orders and dice is what `estafette audit` checks.
 *
 * The data comes as JSONP files beside the pages (data/game.js, data/NNNN.js:
 * estafetteData({...})), loaded with <script> so that the site works from
 * file:// too. No library, no network, no eval; the page's text is set with
 * textContent only.
 */
(function () {
"use strict";

var subtle = window.crypto && window.crypto.subtle;
var utf8 = new TextEncoder();
var ORDERS_NAMESPACE = "estafette-orders";
var V1 = {step: "estafette/dice/v1/step", hidden: "estafette/dice/v1/hidden-step",
          deal: "estafette/dice/v1/deal-step", stream: "estafette/dice/v1/stream"};
var V2 = {step: "estafette/dice/v2/step", hidden: "estafette/dice/v2/hidden-step",
          stream: "estafette/dice/v2/stream"};
var TWO32 = 4294967296;

/* ---- bytes ---- */

function hex(bytes) {
  return Array.from(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
}

/* 64 lower-case hex digits as 32 bytes, or null. */
function unhex(text) {
  if (typeof text !== "string" || !/^[0-9a-f]{64}$/.test(text))
    return null;
  var out = new Uint8Array(32);
  for (var i = 0; i < 32; i++)
    out[i] = parseInt(text.substr(2 * i, 2), 16);
  return out;
}

function unbase64(text) {
  var s = atob(text), out = new Uint8Array(s.length);
  for (var i = 0; i < s.length; i++)
    out[i] = s.charCodeAt(i);
  return out;
}

/* base64url without padding, as JWK wants its numbers. */
function base64url(bytes) {
  return btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

function concat(parts) {
  var n = parts.reduce(function (sum, p) { return sum + p.length; }, 0), out = new Uint8Array(n), at = 0;
  parts.forEach(function (p) { out.set(p, at); at += p.length; });
  return out;
}

function equal(a, b) {
  return a.length === b.length && a.every(function (x, i) { return x === b[i]; });
}

function compareBytes(a, b) {
  for (var i = 0; i < a.length && i < b.length; i++)
    if (a[i] !== b[i])
      return a[i] - b[i];
  return a.length - b.length;
}

function u32(n) {
  var out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

function u64(n) {
  var out = new Uint8Array(8), view = new DataView(out.buffer);
  view.setUint32(0, Math.floor(n / TWO32));
  view.setUint32(4, n % TWO32);
  return out;
}

/* enc(x) = u32be(len(x)) || x; a string is its UTF-8 bytes. */
function enc(x) {
  var bytes = typeof x === "string" ? utf8.encode(x) : x;
  return concat([u32(bytes.length), bytes]);
}

function text(bytes) {
  return new TextDecoder("utf-8", {fatal: true}).decode(bytes);
}

async function sha256(bytes) {
  return new Uint8Array(await subtle.digest("SHA-256", bytes));
}

function hmacKey(key) {
  return subtle.importKey("raw", key, {name: "HMAC", hash: "SHA-256"}, false, ["sign"]);
}

async function hmac(key, message) {
  return new Uint8Array(await subtle.sign("HMAC", await hmacKey(key), message));
}

/* ---- the dice (docs/protocol.md "Dice protocol v1" and "v2") ---- */

/* A step's stream: block_i = HMAC(seed, enc(domain) || u64be(i)), eight u32be words each. */
class Stream {
  constructor(seed, domain) {
    this.key = hmacKey(seed);
    this.domain = enc(domain);
    this.index = 0;
    this.words = [];
  }

  async word() {
    if (!this.words.length) {
      var block = new Uint8Array(await subtle.sign("HMAC", await this.key,
                                                    concat([this.domain, u64(this.index++)])));
      var view = new DataView(block.buffer);
      for (var i = 0; i < 32; i += 4)
        this.words.push(view.getUint32(i));
    }
    return this.words.shift();
  }

  /* A die of `sides` faces: words at or above the largest multiple of sides are skipped. */
  async roll(sides) {
    var limit = TWO32 - TWO32 % sides;
    for (;;) {
      var w = await this.word();
      if (w < limit)
        return w % sides + 1;
    }
  }
}

function v1Seed(key, domain, gameId, step, manifestSha) {
  return hmac(key, concat([enc(domain), enc(gameId), u32(step), enc(manifestSha)]));
}

function v1DealSeed(key, deal, step) {
  return hmac(key, concat([enc(V1.deal), enc(deal), u32(step)]));
}

/* inputs_t; awaited is a list of [player id, 32-byte SHA-256 or null]. */
function v2Inputs(gameId, step, prev, awaited) {
  var sorted = awaited.map(function (a) { return [utf8.encode(a[0]), a[1]]; })
    .sort(function (a, b) { return compareBytes(a[0], b[0]); });
  var parts = [enc(gameId), u32(step), enc(prev), u32(sorted.length)];
  sorted.forEach(function (a) { parts.push(enc(a[0]), enc(a[1] || new Uint8Array(0))); });
  return concat(parts);
}

function v2Seed(key, domain, inputs) {
  return hmac(key, concat([enc(domain), inputs]));
}

/* ---- OpenSSH signatures (PROTOCOL.sshsig) ---- */

/* Reads SSH wire format: u32 lengths, strings, mpints. */
class Reader {
  constructor(bytes) { this.bytes = bytes; this.at = 0; }
  take(n) {
    if (n > this.bytes.length - this.at)
      throw new Error("truncated");
    this.at += n;
    return this.bytes.subarray(this.at - n, this.at);
  }
  u32() { return new DataView(this.take(4).slice().buffer).getUint32(0); }
  string() { return this.take(this.u32()); }
  name() { return text(this.string()); }
  /* An mpint as unsigned big-endian bytes, without leading zeros. */
  mpint() { var b = this.string(), i = 0; while (i < b.length && !b[i]) i++; return b.subarray(i); }
  end() { if (this.at !== this.bytes.length) throw new Error("trailing bytes"); }
}

/* The armored .sig: {publicKey, namespace, reserved, hashAlg, signature}; throws if malformed. */
function parseSshsig(armored) {
  var m = /-----BEGIN SSH SIGNATURE-----([A-Za-z0-9+\/=\s]*)-----END SSH SIGNATURE-----/.exec(armored);
  if (!m)
    throw new Error("not an armored SSH signature");
  var r = new Reader(unbase64(m[1].replace(/\s+/g, "")));
  if (text(r.take(6)) !== "SSHSIG" || r.u32() !== 1)
    throw new Error("not an SSHSIG of version 1");
  var sig = {publicKey: r.string(), namespace: r.name(), reserved: r.string(), hashAlg: r.name(),
             signature: r.string()};
  r.end();
  return sig;
}

/* keys/allowed_signers: {principal: {namespaces: [...], key: blob bytes}}. */
function parseAllowedSigners(content) {
  var out = {};
  content.split("\n").forEach(function (line) {
    var m = /^(\S+)\s+(?:namespaces="([^"]*)"\s+)?(\S+)\s+([A-Za-z0-9+\/=]+)/.exec(line);
    if (m)
      out[m[1]] = {namespaces: (m[2] || "").split(","), type: m[3], key: unbase64(m[4])};
  });
  return out;
}

function pad32(bytes) {
  var out = new Uint8Array(32);
  out.set(bytes.subarray(Math.max(0, bytes.length - 32)), Math.max(0, 32 - bytes.length));
  return out;
}

/*
 * The Web Crypto key and parameters for an SSH public key blob and signature
 * blob: {key, params, signature}. Throws "unsupported" where Web Crypto lacks
 * the algorithm, and "bad" for a signature that could never verify.
 */
async function sshVerifier(keyBlob, sigBlob) {
  var k = new Reader(keyBlob), s = new Reader(sigBlob), type = k.name(), sigType = s.name();
  var inner = s.string();
  s.end();
  function importing(format, data, algorithm) {
    return subtle.importKey(format, data, algorithm, false, ["verify"]).catch(function () {
      throw new Error("unsupported");
    });
  }
  if (type === "ssh-ed25519" && sigType === type) {
    return {key: await importing("raw", k.string(), {name: "Ed25519"}), params: {name: "Ed25519"},
            signature: inner};
  }
  if (type === "ecdsa-sha2-nistp256" && sigType === type && k.name() === "nistp256") {
    var rs = new Reader(inner), signature = concat([pad32(rs.mpint()), pad32(rs.mpint())]);
    rs.end();
    return {key: await importing("raw", k.string(), {name: "ECDSA", namedCurve: "P-256"}),
            params: {name: "ECDSA", hash: "SHA-256"}, signature: signature};
  }
  var hash = {"rsa-sha2-256": "SHA-256", "rsa-sha2-512": "SHA-512"}[sigType];
  if (type === "ssh-rsa" && hash) {
    var e = k.mpint(), n = k.mpint();
    if (n.length < 256)
      throw new Error("bad");
    var jwk = {kty: "RSA", e: base64url(e), n: base64url(n)};
    return {key: await importing("jwk", jwk, {name: "RSASSA-PKCS1-v1_5", hash: hash}),
            params: {name: "RSASSA-PKCS1-v1_5"}, signature: inner};
  }
  throw new Error("bad");
}

/*
 * Checks an order file's detached signature against the principal's line of
 * allowed_signers: "good", "bad: why", or "unsupported" (a key type this
 * browser's Web Crypto cannot check).
 */
async function verifySignature(armored, message, signer) {
  var sig;
  try {
    sig = parseSshsig(armored);
  } catch (e) {
    return "bad: " + e.message;
  }
  if (!signer || !signer.namespaces.includes(ORDERS_NAMESPACE))
    return "bad: keys/allowed_signers has no key for the player in namespace " + ORDERS_NAMESPACE;
  if (!equal(sig.publicKey, signer.key))
    return "bad: it is signed with another key than keys/allowed_signers lists";
  if (sig.namespace !== ORDERS_NAMESPACE)
    return "bad: it is signed for namespace " + sig.namespace;
  var hash = {sha256: "SHA-256", sha512: "SHA-512"}[sig.hashAlg];
  if (!hash)
    return "bad: hash algorithm " + sig.hashAlg;
  var digest = new Uint8Array(await subtle.digest(hash, message));
  var signed = concat([utf8.encode("SSHSIG"), enc(sig.namespace), enc(sig.reserved), enc(sig.hashAlg),
                       enc(digest)]);
  try {
    var v = await sshVerifier(sig.publicKey, sig.signature);
    return await subtle.verify(v.params, v.key, v.signature, signed) ? "good" : "bad: the signature does not verify";
  } catch (e) {
    return e.message === "unsupported" ? "unsupported" : "bad: the signature does not verify";
  }
}

/* ---- the walk through the game ---- */

/* The first thing that does not agree: thrown, caught by verifyGame. */
class Mismatch extends Error {
  constructor(step, what, words, roll) {
    super(words);
    this.step = step;
    this.what = what;
    this.roll = roll;
  }
}

function pad4(n) {
  return String(n).padStart(4, "0");
}

function json(bytes, where, step) {
  try {
    return JSON.parse(text(bytes));
  } catch (e) {
    throw new Mismatch(step, "data", where + " is not valid JSON.");
  }
}

/* The data files, as estafetteData() received them: "game" and each step number. */
var received = {};
window.estafetteData = function (data) {
  if (data && data.kind === "game")
    received.game = data;
  else if (data && data.kind === "step")
    received[data.step] = data;
};

function load(url) {
  return new Promise(function (resolve, reject) {
    var script = document.createElement("script");
    script.src = url;
    script.onload = resolve;
    script.onerror = function () {
      reject(new Mismatch(null, "load", "The site's file " + url.replace(/^.*\/data\//, "data/") +
        " could not be loaded: the site is incomplete or was moved. Build it again with estafette site."));
    };
    document.head.appendChild(script);
  });
}

class Verifier {
  /* base: the URL of the data/ folder; progress(words) is told each step. */
  constructor(base, progress) {
    this.base = base;
    this.progress = progress || function () {};
    this.steps = 0;
    this.rolls = 0;
    this.hiddenRolls = 0;
    this.signatures = 0;
    this.unchecked = {};
    this.sealedOrders = 0;
  }

  file(data, path, step) {
    var b64 = data.files && data.files[path];
    if (typeof b64 !== "string")
      throw new Mismatch(step, "data", "The site's data has no " + path + (step ? " for step " + step : "") + ".");
    return unbase64(b64);
  }

  async run() {
    await load(this.base + "game.js");
    var g = received.game;
    if (!g)
      throw new Mismatch(null, "data", "data/game.js holds no game.");
    this.game = json(this.file(g, "game.json"), "game.json");
    this.signers = parseAllowedSigners(text(this.file(g, "keys/allowed_signers")));
    var dice = this.game.dice || {};
    this.v2 = dice.algorithm === "estafette/dice/v2";
    if (!this.v2 && dice.algorithm !== "estafette/dice/v1")
      throw new Mismatch(null, "data", "game.json names dice protocol " + dice.algorithm + ", which this page does not know.");
    this.chain = {value: unhex(dice.chain_tip), step: 0};
    this.hidden = {value: unhex(dice.hidden_chain_tip), step: 0};
    if (!this.chain.value)
      throw new Mismatch(null, "chain", "game.json's chain_tip is not 64 hex digits.");
    this.prevState = await sha256(this.file(g, "state.json"));
    var steps = g.steps || [];
    await Promise.all(steps.map(function (t) { return load(this.base + pad4(t) + ".js"); }, this));
    for (var i = 0; i < steps.length; i++) {
      if (steps[i] !== i + 1)
        throw new Mismatch(i + 1, "data", "data/game.js lists step " + steps[i] + " where step " + (i + 1) + " should be.");
      this.progress("Checking step " + steps[i] + " of " + steps.length + "...");
      await this.step(steps[i], received[steps[i]]);
      this.steps++;
    }
  }

  async step(t, data) {
    if (!data)
      throw new Mismatch(t, "data", "data/" + pad4(t) + ".js holds no step " + t + ".");
    var dir = "turns/" + pad4(t) + "/";
    var dice = json(this.file(data, dir + "dice.json", t), dir + "dice.json", t);
    var manifestBytes = this.file(data, dir + "manifest.json", t);
    var manifest = json(manifestBytes, dir + "manifest.json", t);
    if (dice.step !== t || manifest.step !== t)
      throw new Mismatch(t, "data", "Step " + t + ": dice.json or manifest.json names another step.");
    var reveal = unhex(dice.reveal);
    if (!reveal)
      throw new Mismatch(t, "chain", "Step " + t + ": dice.json reveals no chain value.");
    await this.link(this.chain, reveal, t, "Step " + t + ": the chain value it reveals");
    /* The keys of the commit before the step, where the site carries them (a seat replaced since). */
    this.stepSigners = data.files && typeof data.files["keys/allowed_signers"] === "string" ?
      parseAllowedSigners(text(this.file(data, "keys/allowed_signers", t))) : null;
    var hashes = await this.orders(t, data, manifest);
    var seed = await this.seed(t, dice, manifestBytes, manifest, hashes, reveal);
    await this.replay(t, dice.rolls, seed, this.v2 ? V2.stream : V1.stream, "roll");
    this.hiddenDomain(t, dice);
    await this.hiddenRecord(t, data, dice, manifestBytes);
    this.prevState = await sha256(this.file(data, "state.json", t));
  }

  /* SHA-256 applied (t - s) times to r_t must give r_s, the last value known. */
  async link(chain, value, t, what) {
    var v = value;
    for (var i = chain.step; i < t; i++)
      v = await sha256(v);
    if (!equal(v, chain.value))
      throw new Mismatch(t, "chain", what + " does not hash to " +
                         (chain.step ? "step " + chain.step + "'s" : "the tip game.json committed to") +
                         ": it is not on the game's dice chain.");
    chain.value = value;
    chain.step = t;
  }

  /*
   * Each order file and commitment the manifest lists: its bytes and its
   * signature's against the manifest, its binding, its signature. Returns
   * {player: SHA-256 of the order file} (in a sealed game the manifest's,
   * the file not being public).
   */
  async orders(t, data, manifest) {
    var dir = "turns/" + pad4(t) + "/orders/", hashes = {}, listed = {};
    var entries = (manifest.orders || []).concat(manifest.commitments || []);
    for (var e of entries) {
      var where = "Step " + t + ", order file " + e.file + " (" + e.player + ")";
      listed[dir + e.file] = listed[dir + e.file + ".sig"] = true;
      var isOrder = !/\.commitment\.json$/.test(e.file || "");
      if (this.game.sealed && isOrder) {
        hashes[e.player] = unhex(e.sha256);
        this.sealedOrders++;
        continue;
      }
      var bytes = this.file(data, dir + e.file, t), sig = this.file(data, dir + e.file + ".sig", t);
      var sha = await sha256(bytes);
      if (hex(sha) !== e.sha256)
        throw new Mismatch(t, "order", where + ": its SHA-256 is " + hex(sha) + ", the manifest says " + e.sha256 + ".");
      if (hex(await sha256(sig)) !== e.signature_sha256)
        throw new Mismatch(t, "order", where + ": its signature's SHA-256 is not the one the manifest lists.");
      var order = json(bytes, dir + e.file, t);
      if (order.game !== this.game.id || order.step !== t || order.prev !== hex(this.prevState) ||
          order.player !== e.player)
        throw new Mismatch(t, "binding", where + ": it is bound to game " + order.game + ", step " + order.step +
                           ", player " + order.player + " and a state " + order.prev +
                           ", not to this game's step " + t + " after the state step " + (t - 1) + " committed.");
      await this.signature(t, where, text(sig), bytes, e.player);
      if (isOrder)
        hashes[e.player] = sha;
    }
    Object.keys(data.files || {}).forEach(function (path) {
      if (path.startsWith(dir) && !listed[path])
        throw new Mismatch(t, "order", "Step " + t + ": " + path + " is not a file the manifest resolved.");
    });
    return hashes;
  }

  async signature(t, where, armored, bytes, player) {
    var signer = (this.stepSigners || this.signers)[player];
    var result = await verifySignature(armored, bytes, signer);
    if (result === "unsupported") {
      var type = signer.type;
      this.unchecked[type] = (this.unchecked[type] || 0) + 1;
    } else if (result !== "good") {
      throw new Mismatch(t, "signature", where + ": the signature is not " + player + "'s (" + result.slice(5) + ").");
    } else {
      this.signatures++;
    }
  }

  async seed(t, dice, manifestBytes, manifest, hashes, reveal) {
    var seed;
    if (this.v2) {
      seed = await v2Seed(reveal, V2.step, this.v2Inputs(t, dice, manifest, hashes));
    } else {
      var m = await sha256(manifestBytes);
      if (dice.manifest_sha256 !== hex(m))
        throw new Mismatch(t, "seed", "Step " + t + ": dice.json's manifest_sha256 is not the SHA-256 of the step's manifest.json (" + hex(m) + ").");
      seed = await v1Seed(reveal, V1.step, this.game.id, t, m);
    }
    if (hex(seed) !== dice.seed)
      throw new Mismatch(t, "seed", "Step " + t + ": the seed recomputed from the step's inputs is " + hex(seed) +
                         ", the record says " + dice.seed + ".");
    return seed;
  }

  /* v2: the inputs the page computes itself, compared with those dice.json lists. */
  v2Inputs(t, dice, manifest, hashes) {
    var inputs = dice.inputs || {}, where = "Step " + t + ": dice.json's inputs";
    if (inputs.game !== this.game.id || inputs.step !== t)
      throw new Mismatch(t, "seed", where + " name game " + inputs.game + ", step " + inputs.step + ".");
    if (inputs.prev !== hex(this.prevState))
      throw new Mismatch(t, "seed", where + " name a previous state " + inputs.prev + ", but step " + (t - 1) +
                         "'s state.json hashes to " + hex(this.prevState) + ".");
    var awaited = (manifest.orders || []).map(function (o) { return [o.player, hashes[o.player]]; })
      .concat((manifest.missing || []).map(function (o) { return [o.player, null]; }));
    /*
     * Who a step awaited follows from the rules, which only audit replays; but an
     * awaited player who is not one of the game's, or one listed twice, would be
     * a seed input the GM could vary at will.
     */
    var players = (this.game.players || []).map(function (p) { return p.id; }), seen = {};
    awaited.forEach(function (a) {
      if (players.indexOf(a[0]) < 0 || seen[a[0]])
        throw new Mismatch(t, "seed", "Step " + t + ": the manifest lists " + a[0] + " among the awaited players " +
                           (seen[a[0]] ? "twice" : "but game.json has no such player") +
                           ": an input the GM could vary to choose the seed.");
      seen[a[0]] = true;
    });
    var mine = awaited.map(function (a) { return a[0] + "=" + (a[1] ? hex(a[1]) : "none"); }).sort();
    var theirs = (inputs.awaited || []).map(function (a) { return a.player + "=" + (a.sha256 || "none"); }).sort();
    if (mine.join(" ") !== theirs.join(" "))
      throw new Mismatch(t, "seed", where + " list the awaited players " + theirs.join(", ") +
                         ", the order files and the manifest give " + mine.join(", ") + ".");
    return v2Inputs(this.game.id, t, this.prevState, awaited);
  }

  /* Every roll of `rolls` against the stream of `seed`, in order. */
  async replay(t, rolls, seed, domain, kind) {
    var stream = new Stream(seed, domain);
    rolls = rolls || [];
    for (var i = 0; i < rolls.length; i++) {
      var r = rolls[i], sides = r.sides;
      var said = "Step " + t + ", " + kind + " " + (i + 1) + " (" + r.purpose + ", d" + sides + ")";
      if (!Number.isInteger(sides) || sides < 1 || sides > 1000000)
        throw new Mismatch(t, kind, said + ": a die of " + sides + " sides cannot be rolled.", i + 1);
      var value = await stream.roll(sides);
      if (value !== r.value)
        throw new Mismatch(t, kind, said + ": the record says " + r.value + ", the dice give " + value + ".", i + 1);
    }
    if (kind === "roll")
      this.rolls += rolls.length;
    else
      this.hiddenRolls += rolls.length;
  }

  /* A dealt game's dice.json names the deal's hidden domain; no other game's does. */
  hiddenDomain(t, dice) {
    var deal = this.game.deal;
    var want = deal === undefined ? undefined : this.v2 ? V2.hidden : V1.deal;
    if (dice.hidden_domain !== want || dice.deal !== deal)
      throw new Mismatch(t, "seed", "Step " + t + ": dice.json names hidden domain " + dice.hidden_domain +
                         " and deal " + dice.deal + ", but game.json's deal is " + deal + ".");
  }

  /* Where the site carries the step's revealed hidden record: its chain value, seed and rolls. */
  async hiddenRecord(t, data, dice, manifestBytes) {
    var path = "revealed/" + pad4(t) + "/hidden-dice.json";
    if (!data.files || typeof data.files[path] !== "string")
      return;
    var record = json(this.file(data, path, t), path, t), h = unhex(record.reveal), domain, seed;
    if (!h || !this.hidden.value)
      throw new Mismatch(t, "chain", "Step " + t + ": " + path + " reveals no hidden chain value.");
    await this.link(this.hidden, h, t, "Step " + t + ": the hidden chain value " + path + " reveals");
    var deal = this.game.deal;
    if (this.v2) {
      domain = V2.hidden;
      var inputs = deal !== undefined ? concat([enc(deal), u32(t)]) :
        v2Inputs(this.game.id, t, unhex(dice.inputs.prev),
                 dice.inputs.awaited.map(function (a) { return [a.player, unhex(a.sha256)]; }));
      seed = await v2Seed(h, domain, inputs);
    } else if (deal !== undefined) {
      domain = V1.deal;
      seed = await v1DealSeed(h, deal, t);
    } else {
      domain = V1.hidden;
      seed = await v1Seed(h, domain, this.game.id, t, await sha256(manifestBytes));
    }
    if (record.domain !== domain || record.seed !== hex(seed))
      throw new Mismatch(t, "seed", "Step " + t + ": the hidden seed of " + path + " is not the one its chain value gives.");
    await this.replay(t, record.rolls, seed, this.v2 ? V2.stream : V1.stream, "hidden roll");
  }
}

/* ---- the words ---- */

function plural(n, one, many) {
  return n + " " + (n === 1 ? one : many);
}

function summary(v) {
  var words = [plural(v.steps, "step", "steps") + ", " + plural(v.rolls, "roll", "rolls") + ": all agree."];
  if (v.hiddenRolls)
    words.push(plural(v.hiddenRolls, "revealed hidden roll", "revealed hidden rolls") + " agree too.");
  var unchecked = Object.keys(v.unchecked).map(function (type) {
    return v.unchecked[type] + " of type " + type;
  });
  words.push(plural(v.signatures, "signature", "signatures") + " checked" +
             (unchecked.length ? "; " + unchecked.join(", ") + " not checked (this browser lacks the algorithm)." : "."));
  if (v.sealedOrders)
    words.push(plural(v.sealedOrders, "order file is", "order files are") + " sealed (not public): " +
               "their SHA-256 came from the manifest.");
  return words.join(" ");
}

/* Runs the verifier and shows its result in `out` (an <output>), words and data attributes. */
async function verifyGame(out, base) {
  var v = new Verifier(base, function (words) { out.textContent = words; });
  out.dataset.status = "running";
  var started = performance.now();
  try {
    if (!subtle)
      throw new Mismatch(null, "load", "This browser has no Web Crypto here (a page must be https:// or file://).");
    await v.run();
    out.dataset.status = "ok";
    out.textContent = summary(v);
  } catch (e) {
    if (!(e instanceof Mismatch))
      e = new Mismatch(null, "load", "The check stopped: " + e.message);
    out.dataset.status = e.what === "load" ? "error" : "mismatch";
    out.dataset.firstBadWhat = e.what;
    if (e.step)
      out.dataset.firstBadStep = e.step;
    if (e.roll)
      out.dataset.firstBadRoll = e.roll;
    out.textContent = e.message + (v.steps ? " The " + plural(v.steps, "step", "steps") + " before it agree." : "");
  }
  out.dataset.steps = v.steps;
  out.dataset.rolls = v.rolls;
  out.dataset.hiddenRolls = v.hiddenRolls;
  out.dataset.signatures = v.signatures;
  out.dataset.signaturesUnchecked = Object.keys(v.unchecked).map(function (t) { return t + ":" + v.unchecked[t]; }).join(" ");
  out.dataset.ms = Math.round(performance.now() - started);
}

/* data/ beside assets/, where this script is: the same from index.html and from steps/. */
var dataBase = document.currentScript ? document.currentScript.src.replace(/assets\/estafette\.js(\?.*)?$/, "data/") : "data/";

function start() {
  var button = document.getElementById("verify"), out = document.getElementById("verify-result");
  if (!button || !out)
    return;
  var running = false;
  button.hidden = false;
  function go() {
    if (running)
      return;
    running = true;
    button.disabled = true;
    verifyGame(out, dataBase).then(function () { button.disabled = false; running = false; });
  }
  button.addEventListener("click", go);
  if (/[?&]verify\b/.test(location.search) || location.hash === "#verify") {
    if (location.hash === "#verify")
      out.scrollIntoView({block: "center"});
    go();
  }
}

/*
 * maps.html: a slider through the maps of the game, one map at a time (without
 * JavaScript the page lists them all). It starts at the newest map, or at the
 * one the URL names (#step-12), and follows the page's links to each step.
 */
function mapSlider() {
  var list = document.getElementById("maps");
  var maps = list ? Array.from(list.querySelectorAll("figure.map")) : [];
  if (maps.length < 2)
    return;
  var bar = document.createElement("p"), range = document.createElement("input");
  var label = document.createElement("label"), all = document.createElement("button");
  range.type = "range";
  range.min = 0;
  range.max = maps.length - 1;
  all.type = "button";
  all.textContent = "Show every map";
  label.append(document.createElement("span"), " ", range);
  bar.append(label, " ", all);
  list.before(bar);
  function show(i) {
    maps.forEach(function (f, k) { f.hidden = k !== i; });
    range.value = i;
    label.firstChild.textContent = "Step " + maps[i].id.replace("step-", "") + " of " +
      maps[maps.length - 1].id.replace("step-", "");
  }
  function fromHash() {
    var at = maps.findIndex(function (f) { return "#" + f.id === location.hash; });
    show(at < 0 ? maps.length - 1 : at);
    if (at >= 0)
      bar.scrollIntoView();
  }
  range.addEventListener("input", function () { show(Number(range.value)); });
  all.addEventListener("click", function () {
    maps.forEach(function (f) { f.hidden = false; });
    bar.remove();
    window.removeEventListener("hashchange", fromHash);
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
}

/* For the tests (tests/helpers/site_vectors.html): the pieces, by name. */
window.estafette = {hex: hex, unhex: unhex, enc: enc, sha256: sha256, hmac: hmac, Stream: Stream,
                    v1Seed: v1Seed, v2Inputs: v2Inputs, v2Seed: v2Seed, V1: V1, V2: V2,
                    parseSshsig: parseSshsig, parseAllowedSigners: parseAllowedSigners,
                    verifySignature: verifySignature, verifyGame: verifyGame};

function ready() {
  start();
  mapSlider();
}

if (document.readyState === "loading")
  document.addEventListener("DOMContentLoaded", ready);
else
  ready();
})();
