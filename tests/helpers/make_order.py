#!/usr/bin/python3
"""Write an order file bound to a game's open step, as a player's client would.

    make_order.py ESTAFETTE GAME PLAYER SEQ 'ORDERS-JSON' [--step N] [--prev HEX]
                  [--game-id ID] [--press 'PRESS-JSON'] > orders.json

Asks `estafette status GAME --json` for the step and state_sha256 (prev);
--step/--prev/--game-id override them (to build replays and forgeries).
Entropy is 32 fresh random bytes unless ESTAFETTE_TEST_ENTROPY fixes it.
"""
import argparse
import json
import os
import subprocess
import sys

p = argparse.ArgumentParser()
p.add_argument("estafette")
p.add_argument("game")
p.add_argument("player")
p.add_argument("seq", type=int)
p.add_argument("orders")
p.add_argument("--step", type=int)
p.add_argument("--prev")
p.add_argument("--game-id")
p.add_argument("--press")
a = p.parse_args()

status = json.loads(subprocess.run([a.estafette, "status", a.game, "--json"],
                                   check=True, capture_output=True).stdout)
entropy = os.environ.get("ESTAFETTE_TEST_ENTROPY") or os.urandom(32).hex()
order = {
    "estafette": "orders/1",
    "game": a.game_id or status["game"],
    "step": a.step if a.step is not None else status["step"],
    "player": a.player,
    "prev": a.prev or status["state_sha256"],
    "seq": a.seq,
    "entropy": entropy,
    "orders": json.loads(a.orders),
}
if a.press:
    order["press"] = json.loads(a.press)
sys.stdout.write(json.dumps(order, indent=2) + "\n")
