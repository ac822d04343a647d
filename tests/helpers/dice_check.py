#!/usr/bin/python3
"""Independent check of estafette's dice (docs/protocol.md: estafette/dice/v1 and v2).

Written from docs/protocol.md with Python's hashlib and hmac only, so that it can
disagree with internal/dice/dice.c.

    dice_check.py vector [PROTOCOL.md]
        Recompute the normative test vector and compare it with the values
        below; given the path of docs/protocol.md, also check that those values are
        the ones the document prints.

    dice_check.py repo PATH
        Recompute every roll of the game repository at PATH, as of
        refs/heads/main: for each turns/NNNN/dice.json, the revealed chain
        value against the previous one (r_0 = game.json dice.chain_tip), the
        manifest's SHA-256 against the bytes of turns/NNNN/manifest.json, the
        seed, and every roll of "rolls" in order.

    dice_check.py repo PATH [--hidden DIR]
        Also the hidden stream: for each step, a record of it, from
        revealed/NNNN/hidden-dice.json at main (estafette reveal, checked
        against reveal.json's hidden_reveal) or from DIR/NNNN.json (the GM's
        records under $ESTAFETTE_HOME/games/<id>/hidden, checked against
        game.json's hidden_chain_tip): its chain value, its seed and every
        hidden roll. The seed is the public one with domain
        "estafette/dice/v1/hidden-step", except in a dealt game (game.json
        "deal"), where it is
            HMAC-SHA256(key = r'_t, enc("estafette/dice/v1/deal-step")
                        || enc(deal) || u32be(t))
        with neither the game id nor the manifest, so that every game of the
        deal draws the same hidden values (docs/protocol.md "Deals").

Exit status: 0 when everything agrees, 1 on the first disagreement (named on
stderr with its step and roll index), 2 on usage errors or an unreadable
repository.
"""

import hashlib
import hmac
import json
import re
import struct
import subprocess
import sys

DOMAIN_STEP = b"estafette/dice/v1/step"
DOMAIN_HIDDEN = b"estafette/dice/v1/hidden-step"
DOMAIN_DEAL = b"estafette/dice/v1/deal-step"
DOMAIN_STREAM = b"estafette/dice/v1/stream"
REF = "refs/heads/main"

# docs/protocol.md, normative test vector (v1).
VECTOR = {
    "S": "1da729e3272b59bdaa616c908975d0e26bc27dac7911be192b9ed1ad4dc85bad",
    "tip": "1ae05829b93ed33b91e94a288df681e62d8e0e1786787ea117238dd6e548b6a5",
    "r_1": "dcac7d2aad709db85b466db137494c06797f0f35ca08e2976666e55f2f51a342",
    "manifest": "bfc78645fff96da7048eef69ec1296336e0fb7b59a16927f4ae72726fca12591",
    "seed_1": "702c4341cf914556ccd4213499111b792ff5fd601f4bd604ad74dd0bd6f842c5",
    "block_0": "cb0d210f4a599bb7a5d5257c3f8329a8c0258d72cad9b524ef78c574c355837c",
}
VECTOR_D6 = [4, 4, 3, 5, 5, 1, 1, 5, 1, 5, 3, 6]
VECTOR_D10 = [3, 9, 4, 8, 1, 6]

# docs/protocol.md, test vector (v2): the same chain; the seed over canonical inputs.
V2_STEP = b"estafette/dice/v2/step"
V2_HIDDEN = b"estafette/dice/v2/hidden-step"
V2_STREAM = b"estafette/dice/v2/stream"
VECTOR_V2 = {
    "prev": "158b175fbfdd184299daf609fb8d45efe75489226b61736a41b3cb181f6fe5e3",
    "order": "dd3192ef45f65942f21794aaef914286be110a0a05bc078b16c94c70007a0eaf",
    "seed_1": "73607feb67780e56c67903b80233cb3c527b92b6bfbfa86ed0c645fbeb6a33fa",
    "block_0": "03d559207a2488c666b1f0faa2aa5c572ab42cbc53ede6bc68ee46c8e2b2311f",
    "hidden": "37a306d085e839d884a44ac433b7d496e72b0f21a85e9fee99f5871448bc4bf8",
}
VECTOR_V2_D6 = [5, 1, 5, 2, 5, 1, 1, 2, 4, 6, 3, 4]
VECTOR_V2_D10 = [1, 4, 4, 2, 9, 9]


class Disagreement(Exception):
    """A recomputed value differs from the recorded one."""


class Unreadable(Exception):
    """The input cannot be read (usage or repository error)."""


def sha256(data):
    return hashlib.sha256(data).digest()


def enc(data):
    return struct.pack(">I", len(data)) + data


def chain_value(secret, n):
    value = secret
    for _ in range(n):
        value = sha256(value)
    return value


def step_seed(reveal, domain, game_id, step, manifest_sha256):
    message = enc(domain) + enc(game_id.encode("utf-8")) + struct.pack(">I", step) \
        + enc(manifest_sha256)
    return hmac.new(reveal, message, hashlib.sha256).digest()


def deal_seed(reveal, deal, step):
    # A dealt game's hidden seed (docs/protocol.md "Deals"): the deal's
    # name in place of the game id, and no manifest, so the games of a deal,
    # sharing the hidden chain, draw the same hidden values at each step.
    message = enc(DOMAIN_DEAL) + enc(deal.encode("utf-8")) + struct.pack(">I", step)
    return hmac.new(reveal, message, hashlib.sha256).digest()


def hidden_seed(reveal, game, step, manifest_sha256, inputs=None):
    """(domain, seed) of the hidden stream: v2 over the step's inputs (dice.json), v1 over the manifest."""
    if game["dice"].get("algorithm") == "estafette/dice/v2":
        if "deal" in game:
            return V2_HIDDEN, v2_seed(reveal, V2_HIDDEN, enc(game["deal"].encode()) + struct.pack(">I", step))
        awaited = {e["player"]: bytes.fromhex(e["sha256"]) if e["sha256"] else None
                   for e in inputs["awaited"]}
        return V2_HIDDEN, v2_seed(reveal, V2_HIDDEN, v2_inputs(game["id"], step, bytes.fromhex(inputs["prev"]),
                                                             awaited))
    if "deal" in game:
        return DOMAIN_DEAL, deal_seed(reveal, game["deal"], step)
    return DOMAIN_HIDDEN, step_seed(reveal, DOMAIN_HIDDEN, game["id"], step, manifest_sha256)


def v2_inputs(game_id, step, prev, awaited):
    """inputs_t: awaited is {player id: raw SHA-256 of the resolved order file, or None}."""
    out = enc(game_id.encode()) + struct.pack(">I", step) + enc(prev) + struct.pack(">I", len(awaited))
    for player in sorted(awaited, key=lambda p: p.encode()):
        out += enc(player.encode()) + enc(awaited[player] or b"")
    return out


def v2_seed(key, domain, inputs):
    return hmac.new(key, enc(domain) + inputs, hashlib.sha256).digest()


def block(seed, i, domain=DOMAIN_STREAM):
    return hmac.new(seed, enc(domain) + struct.pack(">Q", i), hashlib.sha256).digest()


class Stream:
    """The roll stream of one step: words in order, rejection as docs/protocol.md says."""

    def __init__(self, seed, domain=DOMAIN_STREAM):
        self.seed = seed
        self.domain = domain
        self.index = 0
        self.words = []

    def word(self):
        if not self.words:
            self.words = list(struct.unpack(">8I", block(self.seed, self.index, self.domain)))
            self.index += 1
        return self.words.pop(0)

    def roll(self, sides):
        limit = 2**32 - (2**32 % sides)
        while True:
            w = self.word()
            if w < limit:
                return w % sides + 1


def expect(what, got, want):
    if got != want:
        raise Disagreement("%s: recomputed %s, expected %s" % (what, got, want))
    print("ok    %s %s" % (what, got if isinstance(got, str) else " ".join(map(str, got))))


def check_vector(design_path):
    s = sha256(b"estafette test vector")
    expect("S", s.hex(), VECTOR["S"])
    tip = chain_value(s, 4)
    expect("tip (N=4)", tip.hex(), VECTOR["tip"])
    r1 = chain_value(s, 3)
    expect("r_1", r1.hex(), VECTOR["r_1"])
    if sha256(r1) != tip:
        raise Disagreement("r_1 does not hash to the tip")
    manifest = sha256(b'{"orders":[]}\n')
    expect("manifest sha256", manifest.hex(), VECTOR["manifest"])
    seed = step_seed(r1, DOMAIN_STEP, "demo", 1, manifest)
    expect("seed_1", seed.hex(), VECTOR["seed_1"])
    expect("block_0", block(seed, 0).hex(), VECTOR["block_0"])
    stream = Stream(seed)
    expect("twelve d6", [stream.roll(6) for _ in range(12)], VECTOR_D6)
    expect("six d10", [stream.roll(10) for _ in range(6)], VECTOR_D10)
    check_vector_v2(r1)
    if design_path:
        check_design_text(design_path)
        check_design_text_v2(design_path)
    print("dice_check: normative vectors agree (v1 and v2)")


def check_vector_v2(r1):
    prev = sha256(b'{"turn":1}\n')
    expect("v2 prev", prev.hex(), VECTOR_V2["prev"])
    order = sha256(b'{"estafette":"orders/1","game":"demo","step":1,"player":"france"}\n')
    expect("v2 france's order sha256", order.hex(), VECTOR_V2["order"])
    inputs = v2_inputs("demo", 1, prev, {"france": order, "allies": None})
    seed = v2_seed(r1, V2_STEP, inputs)
    expect("v2 seed_1", seed.hex(), VECTOR_V2["seed_1"])
    expect("v2 block_0", block(seed, 0, V2_STREAM).hex(), VECTOR_V2["block_0"])
    stream = Stream(seed, V2_STREAM)
    expect("v2 twelve d6", [stream.roll(6) for _ in range(12)], VECTOR_V2_D6)
    expect("v2 six d10", [stream.roll(10) for _ in range(6)], VECTOR_V2_D10)
    expect("v2 hidden seed", v2_seed(r1, V2_HIDDEN, inputs).hex(), VECTOR_V2["hidden"])


def check_design_text_v2(path):
    """The v2 values must be the ones the document prints in its v2 vector."""
    check_document(path, "Test vector (v2)", "v2 vector", VECTOR_V2, VECTOR_V2_D6, VECTOR_V2_D10)


def check_design_text(path):
    """The values above must be the ones the protocol document prints, not a private copy."""
    check_document(path, "Normative test vector", "vector", VECTOR, VECTOR_D6, VECTOR_D10)


def check_document(path, heading, label, values, d6, d10):
    """Every value of `values` and the rolls d6, d10 appear in PATH after HEADING."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise Unreadable("%s: %s" % (path, e.strerror))
    section = text.split(heading, 1)
    if len(section) != 2:
        raise Disagreement("%s: no \"%s\" section" % (path, heading))
    text = section[1]
    for name, value in values.items():
        if value not in text:
            raise Disagreement("%s: the %s's %s %s is not in the document" % (path, label, name, value))
    rolls = re.search(r"twelve d6:\s*([\d ]+?),\s*then six d10:\s*([\d ]+)", text)
    if not rolls:
        raise Disagreement("%s: no \"twelve d6: ..., then six d10: ...\" line" % path)
    if [int(x) for x in rolls.group(1).split()] != d6 or [int(x) for x in rolls.group(2).split()] != d10:
        raise Disagreement("%s: the document's %s rolls differ from this checker's" % (path, label))
    print("ok    the %s values are those of %s" % (label, path))


def git_blob(repo, path, rev=REF):
    """The bytes of `path` at `rev` (refs/heads/main), exactly as committed, or None."""
    result = subprocess.run(["git", "-C", repo, "cat-file", "blob", "%s:%s" % (rev, path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if result.returncode != 0:
        return None
    return result.stdout


def git_turns(repo):
    result = subprocess.run(["git", "-C", repo, "ls-tree", "--name-only", REF + ":turns"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if result.returncode != 0:
        return []
    names = result.stdout.decode("utf-8", "replace").split()
    return sorted((n for n in names if re.fullmatch(r"\d{4,}", n)), key=int)


def load_json(repo, path, required=True):
    data = git_blob(repo, path)
    if data is None:
        if required:
            raise Unreadable("%s: no %s at %s" % (repo, path, REF))
        return None
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise Disagreement("%s: not valid JSON: %s" % (path, e))


def hex32(value, what):
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{64}", value):
        raise Disagreement("%s is %r, not 64 lower-case hex digits" % (what, value))
    return bytes.fromhex(value)


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


class ChainState:
    """The last revealed chain value and its step (r_0 = tip at step 0)."""

    def __init__(self, tip, length):
        self.value = tip
        self.step = 0
        self.length = length

    def advance(self, reveal, step, where):
        # r_t = c_(N-t), so SHA-256 applied (t - s) times to r_t gives r_s.
        if step <= self.step:
            raise Disagreement("%s: step %d reveals a chain value, but step %d already did "
                               "(steps must grow)" % (where, step, self.step))
        if step > self.length:
            raise Disagreement("%s: step %d is beyond the chain length %d"
                               % (where, step, self.length))
        if chain_value(reveal, step - self.step) != self.value:
            raise Disagreement("%s: reveal %s hashed %d time(s) is not r_%d = %s"
                               % (where, reveal.hex(), step - self.step, self.step,
                                  self.value.hex()))
        self.value, self.step = reveal, step


def check_rolls(where, rolls, seed, domain=DOMAIN_STREAM):
    if not isinstance(rolls, list):
        raise Disagreement("%s: \"rolls\" is not a list" % where)
    stream = Stream(seed, domain)
    for index, roll in enumerate(rolls):
        at = "%s roll %d" % (where, index)
        if not isinstance(roll, dict) or not is_int(roll.get("sides")) or \
                not is_int(roll.get("value")) or not isinstance(roll.get("purpose"), str):
            raise Disagreement("%s: %r is not {\"sides\": int, \"value\": int, "
                               "\"purpose\": string}" % (at, roll))
        if roll["sides"] < 2:
            raise Disagreement("%s: a die of %d sides" % (at, roll["sides"]))
        value = stream.roll(roll["sides"])
        if value != roll["value"]:
            raise Disagreement("%s (d%d, \"%s\"): dice.json says %d, the stream gives %d"
                               % (at, roll["sides"], roll["purpose"], roll["value"], value))
    return len(rolls)


def check_step(repo, name, game, chain):
    """Check turns/NAME/dice.json; returns the number of rolls checked, or None."""
    where = "turns/%s/dice.json" % name
    dice = load_json(repo, where, required=False)
    if dice is None:
        print("step %s: no dice.json" % name)
        return None
    if not isinstance(dice, dict):
        raise Disagreement("%s: not a JSON object" % where)
    step = dice.get("step")
    if not is_int(step) or step != int(name):
        raise Disagreement("%s: \"step\" is %r, but the folder is step %d"
                           % (where, step, int(name)))
    rolls = dice.get("rolls", [])
    if "reveal" not in dice:
        if rolls:
            raise Disagreement("%s: %d rolls but no \"reveal\" to key them"
                               % (where, len(rolls)))
        print("step %s: no dice drawn" % name)
        return 0
    reveal = hex32(dice["reveal"], where + " \"reveal\"")
    chain.advance(reveal, step, where)

    manifest = git_blob(repo, "turns/%s/manifest.json" % name)
    if manifest is None:
        raise Disagreement("%s: turns/%s/manifest.json is missing" % (where, name))
    if game["dice"].get("algorithm") == "estafette/dice/v2":
        seed = v2_step_seed(repo, name, game, dice, reveal, json.loads(manifest), where)
        count = check_rolls(where, rolls, seed, V2_STREAM)
        print("step %s: reveal chains, inputs and seed agree, %d rolls agree" % (name, count))
        check_hidden_domain(where, dice, game)
        return count
    manifest_sha = sha256(manifest)
    recorded = hex32(dice.get("manifest_sha256"), where + " \"manifest_sha256\"")
    if recorded != manifest_sha:
        raise Disagreement("%s: \"manifest_sha256\" is %s, but turns/%s/manifest.json "
                           "hashes to %s" % (where, recorded.hex(), name, manifest_sha.hex()))

    seed = step_seed(reveal, DOMAIN_STEP, game["id"], step, manifest_sha)
    recorded = hex32(dice.get("seed"), where + " \"seed\"")
    if recorded != seed:
        raise Disagreement("%s: \"seed\" is %s, but the recomputed seed is %s"
                           % (where, recorded.hex(), seed.hex()))
    count = check_rolls(where, rolls, seed)
    print("step %s: reveal chains, manifest and seed agree, %d rolls agree" % (name, count))
    check_hidden_domain(where, dice, game)
    return count


def v2_awaited(where, inputs, step, game, repo, name, manifest):
    """inputs' awaited players as {id: raw SHA-256 or None}, checked against the files and manifest."""
    if not isinstance(inputs, dict) or inputs.get("game") != game["id"] or inputs.get("step") != step:
        raise Disagreement("%s: \"inputs\" must name game %r and step %d" % (where, game["id"], step))
    awaited, ids = {}, []
    for entry in inputs.get("awaited", []):
        player, sha = entry.get("player"), entry.get("sha256")
        if not isinstance(player, str) or player in awaited:
            raise Disagreement("%s: inputs' awaited %r: a player id, each once" % (where, entry))
        awaited[player] = hex32(sha, where + " awaited " + player) if sha is not None else None
        ids.append(player.encode())
    if ids != sorted(ids):
        raise Disagreement("%s: inputs' awaited players are not in byte order of id" % where)
    listed = {e.get("player"): e.get("sha256") for e in manifest.get("orders", [])}
    listed.update({e.get("player"): None for e in manifest.get("missing", [])})
    if {p: (v.hex() if v else None) for p, v in awaited.items()} != listed:
        raise Disagreement("%s: inputs' awaited players are not those of manifest.json's orders "
                           "and missing" % where)
    for player, sha in awaited.items():
        order = git_blob(repo, "turns/%s/orders/%s.json" % (name, player))
        if sha is not None and order is not None and sha256(order) != sha:
            raise Disagreement("%s: turns/%s/orders/%s.json does not hash to the inputs' %s"
                               % (where, name, player, sha.hex()))
    return awaited


def v2_step_seed(repo, name, game, dice, reveal, manifest, where):
    """Dice v2: the seed over the step's inputs, each one recomputed from the repository."""
    step = int(name)
    inputs = dice.get("inputs")
    awaited = v2_awaited(where, inputs, step, game, repo, name, manifest)
    before = git_blob(repo, "state.json", "refs/tags/step-%04d" % (step - 1))
    if before is None:
        raise Disagreement("%s: no state.json at tag step-%04d, the state step %d resolved"
                           % (where, step - 1, step))
    prev = sha256(before)
    if hex32(inputs.get("prev"), where + " inputs \"prev\"") != prev:
        raise Disagreement("%s: inputs' prev is not the SHA-256 of state.json at step-%04d (%s)"
                           % (where, step - 1, prev.hex()))
    seed = v2_seed(reveal, V2_STEP, v2_inputs(game["id"], step, prev, awaited))
    if hex32(dice.get("seed"), where + " \"seed\"") != seed:
        raise Disagreement("%s: \"seed\" is %s, but the seed recomputed from the inputs is %s"
                           % (where, dice.get("seed"), seed.hex()))
    return seed


def check_hidden_domain(where, dice, game):
    """A dealt game's dice.json names the hidden domain and the deal; no other game's does."""
    if "deal" in game:
        want = (V2_HIDDEN if game["dice"].get("algorithm") == "estafette/dice/v2" else DOMAIN_DEAL).decode()
        if dice.get("hidden_domain") != want or dice.get("deal") != game["deal"]:
            raise Disagreement("%s: game.json names deal %r, but \"hidden_domain\" is %r and "
                               "\"deal\" %r" % (where, game["deal"], dice.get("hidden_domain"),
                                                dice.get("deal")))
    elif "hidden_domain" in dice or "deal" in dice:
        raise Disagreement("%s: names a hidden domain or deal, but game.json has no deal" % where)


def check_hidden_record(where, record, game, step, h_t, manifest_sha, inputs):
    """One step's hidden record: its chain value h_t, domain, seed and rolls."""
    if not isinstance(record, dict):
        raise Disagreement("%s: not a JSON object" % where)
    if record.get("step") != step:
        raise Disagreement("%s: \"step\" is %r, not %d" % (where, record.get("step"), step))
    if hex32(record.get("reveal"), where + " \"reveal\"") != h_t:
        raise Disagreement("%s: \"reveal\" is not the hidden chain's value for step %d" % (where, step))
    domain, seed = hidden_seed(h_t, game, step, manifest_sha, inputs)
    if record.get("domain") != domain.decode():
        raise Disagreement("%s: \"domain\" is %r, but this game's hidden domain is %s"
                           % (where, record.get("domain"), domain.decode()))
    if hex32(record.get("seed"), where + " \"seed\"") != seed:
        raise Disagreement("%s: \"seed\" is %s, but the recomputed hidden seed is %s"
                           % (where, record.get("seed"), seed.hex()))
    v2 = game["dice"].get("algorithm") == "estafette/dice/v2"
    count = check_rolls(where, record.get("rolls", []), seed, V2_STREAM if v2 else DOMAIN_STREAM)
    print("step %d: hidden seed (%s) agrees, %d hidden rolls agree" % (step, domain.decode(), count))
    return count


def load_file_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise Disagreement("%s: %s" % (path, e))


def check_hidden(repo, game, hidden_dir):
    """The hidden records of every step that has one; returns how many rolls agree."""
    reveal = load_json(repo, "reveal.json", required=False)
    if reveal is None and not hidden_dir:
        return None
    tip = hex32(game["dice"].get("hidden_chain_tip"), "game.json dice.hidden_chain_tip")
    if reveal is not None:
        top = reveal.get("step")
        h_top = hex32(reveal.get("hidden_reveal"), "reveal.json \"hidden_reveal\"")
        if not is_int(top) or chain_value(h_top, top) != tip:
            raise Disagreement("reveal.json: hidden_reveal hashed %r times is not the hidden "
                               "chain tip" % top)
    rolls = 0
    for name in git_turns(repo):
        step = int(name)
        manifest = git_blob(repo, "turns/%s/manifest.json" % name)
        manifest_sha = sha256(manifest) if manifest is not None else b""
        inputs = (load_json(repo, "turns/%s/dice.json" % name, required=False) or {}).get("inputs")
        sources = []
        if reveal is not None and step <= reveal["step"]:
            sources.append(("revealed/%s/hidden-dice.json" % name,
                            load_json(repo, "revealed/%s/hidden-dice.json" % name, required=False),
                            chain_value(h_top, reveal["step"] - step)))
        if hidden_dir:
            path = "%s/%s.json" % (hidden_dir, name)
            record = load_file_json(path)
            if record is not None:
                h_t = hex32(record.get("reveal"), path + " \"reveal\"")
                if chain_value(h_t, step) != tip:
                    raise Disagreement("%s: \"reveal\" hashed %d times is not game.json's "
                                       "hidden_chain_tip" % (path, step))
                sources.append((path, record, h_t))
        for where, record, h_t in sources:
            if record is not None:
                rolls += check_hidden_record(where, record, game, step, h_t, manifest_sha, inputs)
    return rolls


def check_repo(repo, hidden_dir=None):
    game = load_json(repo, "game.json")
    if not isinstance(game, dict) or not isinstance(game.get("id"), str) or \
            not isinstance(game.get("dice"), dict):
        raise Disagreement("game.json: needs a string \"id\" and a \"dice\" object")
    dice = game["dice"]
    algorithm = dice.setdefault("algorithm", "estafette/dice/v1")
    if algorithm not in ("estafette/dice/v1", "estafette/dice/v2"):
        raise Disagreement("game.json: dice algorithm %r is neither estafette/dice/v1 nor v2" % algorithm)
    length = dice.get("chain_length", 10000)
    if not is_int(length) or length < 1:
        raise Disagreement("game.json: dice.chain_length %r is not a positive integer" % length)
    chain = ChainState(hex32(dice.get("chain_tip"), "game.json dice.chain_tip"), length)

    if "deal" in game and not isinstance(game["deal"], str):
        raise Disagreement("game.json: \"deal\" is %r, not a string" % game["deal"])
    steps = rolls = 0
    for name in git_turns(repo):
        count = check_step(repo, name, game, chain)
        if count is not None:
            steps += 1
            rolls += count
    print("dice_check: %d steps, %d rolls agree" % (steps, rolls))
    hidden = check_hidden(repo, game, hidden_dir)
    if hidden is not None:
        print("dice_check: %d hidden rolls agree" % hidden)


def main(argv):
    try:
        if len(argv) in (2, 3) and argv[1] == "vector":
            check_vector(argv[2] if len(argv) == 3 else None)
        elif len(argv) == 3 and argv[1] == "repo":
            check_repo(argv[2])
        elif len(argv) == 5 and argv[1] == "repo" and argv[3] == "--hidden":
            check_repo(argv[2], argv[4])
        else:
            sys.stderr.write("usage: dice_check.py vector [PROTOCOL.md] | repo PATH [--hidden DIR]\n")
            return 2
    except Disagreement as e:
        sys.stderr.write("dice_check: %s\n" % e)
        return 1
    except Unreadable as e:
        sys.stderr.write("dice_check: %s\n" % e)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
