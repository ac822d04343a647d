#!/usr/bin/python3
"""The batch: N distinct Napoleonic Empire games, ready to resolve.

    make_batch.py ESTAFETTE DIR N PLAYERS_JSON KEYDIR WHEN

Makes DIR/g0001 ... DIR/gN (ids g0001 ...), each created with
`estafette new`, joined (step 1, every player's signed join) at @WHEN,
and holding every awaited player's signed orders for step 2, submitted:
each game is its own, with its own id, hands, outbox and reports, as on a
host running many games.
An order is the discards the Draw Phase's hand limit asks for. KEYDIR
holds each player's ssh key, named after the player id. ESTAFETTE_HOME
and ESTAFETTE_COMMIT_TIME come from the environment. Games are made in
parallel, one process a core.
"""
import json
import multiprocessing
import os
import subprocess
import sys

E, DIR, N, PLAYERS, KEYDIR, WHEN = sys.argv[1:7]


def run(*args, stdin=None):
    return subprocess.run([E, *args], check=True, capture_output=True, input=stdin).stdout


def order_for(game, status, player):
    view = json.loads(run("report", game, "--player", player, "--format", "json"))["view"]
    hand = view.get("hand", [])
    discards = [{"type": "discard", "card": c["id"]} for c in hand[:max(0, len(hand) - 7)]]
    return {"estafette": "orders/1", "game": status["game"], "step": status["step"],
            "player": player, "prev": status["state_sha256"], "seq": 1,
            "entropy": os.urandom(32).hex(), "orders": discards}


def make(i):
    game = os.path.join(DIR, "g%0*d" % (len(N), i))
    run("new", game, "--ruleset", "napoleonic-empire", "--players", PLAYERS,
        "--test-dice-secret", "bench")
    run("run", game, "--now", "@" + WHEN)
    submit_awaited(game)
    run("run", game, "--now", "@" + WHEN)
    submit_awaited(game)


def submit_awaited(game):
    status = json.loads(run("status", game, "--json"))
    for player in (a["player"] for a in status["awaiting"]):
        path = "%s.%s.json" % (game, player)
        with open(path, "w") as f:
            f.write(json.dumps(order_for(game, status, player), indent=2) + "\n")
        subprocess.run(["ssh-keygen", "-q", "-Y", "sign", "-f", os.path.join(KEYDIR, player),
                        "-n", "estafette-orders", path], check=True)
        run("submit", game, path, "--sig", path + ".sig", "--now", "@" + WHEN)
        os.remove(path)
        os.remove(path + ".sig")


if __name__ == "__main__":
    os.makedirs(DIR, exist_ok=True)
    with multiprocessing.Pool(os.cpu_count()) as pool:
        pool.map(make, range(1, int(N) + 1), chunksize=8)
