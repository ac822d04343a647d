"""A cheating GM's tools for the tests: rewrite a resolved step's files in a copy
of a game and make its seed agree again, as one who holds the dice chain would.

    import forge_step as fs
    m, d = fs.load(repo, "turns/0002/manifest.json"), fs.load(repo, "turns/0002/dice.json")
    ... edit m and d ...
    fs.reseed(repo, 2, m, d)   # writes both, with dice.json's seed made again

Dice v2: the seed from dice.json's own "inputs" (edit them to match the
manifest); v1: manifest_sha256 and the seed from the manifest's new bytes.
The seed formulas are dice_check.py's, written from docs/protocol.md.
"""
import json

import dice_check as dc


def load(repo, path):
    with open(f"{repo}/{path}") as f:
        return json.load(f)


def save(repo, path, doc):
    with open(f"{repo}/{path}", "w") as f:
        f.write(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def reseed(repo, step, manifest, dice):
    name = "%04d" % step
    save(repo, f"turns/{name}/manifest.json", manifest)
    reveal = bytes.fromhex(dice["reveal"])
    if "inputs" in dice:
        inputs = dice["inputs"]
        awaited = {e["player"]: bytes.fromhex(e["sha256"]) if e["sha256"] else None
                   for e in inputs["awaited"]}
        seed = dc.v2_seed(reveal, dc.V2_STEP,
                          dc.v2_inputs(inputs["game"], step, bytes.fromhex(inputs["prev"]), awaited))
    else:
        with open(f"{repo}/turns/{name}/manifest.json", "rb") as f:
            sha = dc.sha256(f.read())
        dice["manifest_sha256"] = sha.hex()
        seed = dc.step_seed(reveal, dc.DOMAIN_STEP, load(repo, "game.json")["id"], step, sha)
    dice["seed"] = seed.hex()
    save(repo, f"turns/{name}/dice.json", dice)
