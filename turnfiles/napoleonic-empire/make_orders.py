#!/usr/bin/python3
"""Regenerate the sample game's signed order files from plan.json.

    /usr/bin/python3 turnfiles/napoleonic-empire/make_orders.py build/estafette

plan.json lists, in play order, what each player ordered: {"player", "seq",
"orders"}. This script plays the game exactly as `make demo` replays it (the
same game id, test dice secret and commit clock), and for each entry writes
orders/NNNN-<player>.json bound to the state it is played against (step,
prev), with entropy derived from the step and player so the files are
reproducible, signs it with the real ssh-keygen and the TEST key in keys/,
submits it and runs the game. At the end it prints what the game awaits and
the awaited player's report, to write the next entry of the plan.
"""
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
GAME_ID = "ne-demo"
SECRET = "estafette sample game"
CLOCK = "1764000000"


def sh(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


def main():
    estafette = str(pathlib.Path(sys.argv[1]).resolve())
    plan = json.loads((HERE / "plan.json").read_text())["plan"]
    work = pathlib.Path(tempfile.mkdtemp(prefix="estafette-sample."))
    os.environ.update(ESTAFETTE_HOME=str(work / "home"), ESTAFETTE_COMMIT_TIME=CLOCK)
    game = str(work / "game")
    sh(estafette, "new", game, "--ruleset", "napoleonic-empire", "--id", GAME_ID,
       "--players", str(HERE / "players.json"), "--test-dice-secret", SECRET)
    sh(estafette, "run", game)
    out = HERE / "orders"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    for entry in plan:
        status = json.loads(sh(estafette, "status", game, "--json"))
        player, step = entry["player"], status["step"]
        seed = f"estafette sample game/{step}/{player}/{entry['seq']}".encode()
        order = {"estafette": "orders/1", "game": GAME_ID, "step": step, "player": player,
                 "prev": status["state_sha256"], "seq": entry["seq"],
                 "entropy": hashlib.sha256(seed).hexdigest(), "orders": entry["orders"]}
        path = out / f"{step:04d}-{player}.json"
        path.write_text(json.dumps(order, indent=2) + "\n")
        sh("ssh-keygen", "-q", "-Y", "sign", "-f", str(HERE / "keys" / player),
           "-n", "estafette-orders", str(path))
        r = subprocess.run([estafette, "submit", game, str(path)], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"{path.name}: refused: {r.stderr}")
        sh(estafette, "run", game)
    status = json.loads(sh(estafette, "status", game, "--json"))
    print(json.dumps({k: status[k] for k in ("step", "kind", "prompt")}, indent=1))
    for a in status["awaiting"]:
        print(sh(estafette, "report", game, "--player", a["player"]))
    print(f"game left in {game}")


main()
