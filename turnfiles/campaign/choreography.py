#!/usr/bin/python3
"""Write the "plan" of the Campaign sample game (turnfiles/campaign/plan.json).

    /usr/bin/python3 turnfiles/campaign/choreography.py
    /usr/bin/python3 turnfiles/make_orders.py turnfiles/campaign build/estafette

The first command rewrites only the "plan" list of plan.json (the header keys,
game, secret, clock and options, stay as they are); the second plays it and
signs the order files in orders/.

The story is a Standard game for four players, told on one frontier, the
Pyrenees. The order of play thrown in step 1 is Austria, Spain, France,
Russia, so Spain's turn always comes just before France's.

  Spain proposes an alliance to France, France accepts (§8). Spain gathers
  three cavalry and its General round Barcelona; France brings its General
  down to the frontier. Spain breaks the alliance (§8). France answers by
  marching its General onto Barcelona, a red town (§6, §13): France gains an
  infantry piece beside it, Spain loses its infantry closest to it. At its
  next turn (not the turn it broke, §8) Spain attacks the French General:
  one cavalry engages the new French infantry that supports him (§14), the
  other two cavalry and the Spanish General are three attackers against his
  defence of two (§10), and he is captured (§15): France's General and army
  go to the Enlistment Area and must mobilise in Paris (§16). Russia and
  Austria ally in the east. In three turns France brings its General and its
  army from the Enlistment Area to Paris and the start squares round it: four
  cavalry, and four of its five infantry (the fifth waits off the board, as
  all four infantry start squares are taken), and has mobilised (§16).

Throws: an entry's "expect" on the next player's throw text ("Spain's turn:
the dice throw 6 and") asks for a throw of at least 7 when a turn needs
many moves, and "France's turn: the dice throw 6 and 6" a double six (12
moves); make_orders.py tries entropy salts until the dice agree.
"""
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent


def move(piece, *squares):
    """One piece's moves, one order per single step, in the order played."""
    return [{"type": "move", "piece": piece, "to": list(sq)} for sq in squares]


def alliance(action, country):
    return {"type": "alliance", "action": action, "with": country}


def turn(player, orders, expect=None):
    entry = {"player": player, "seq": 1, "orders": orders}
    if expect:
        entry["expect"] = expect
    return entry


def at_least_seven(country):
    """A throw text that only a throw of 7 or more can produce (the first die a six)."""
    return f"{country}'s turn: the dice throw 6 and"


def twelve(country):
    """The throw text of a double six: 12 moves."""
    return f"{country}'s turn: the dice throw 6 and 6"


PLAN = [
    # step 2, Austria (throw 3): waits
    turn("austria", [], [at_least_seven("Spain")]),
    # step 3, Spain: proposes the alliance; two cavalry towards Barcelona
    turn("spain", [alliance("propose", "France")] +
         move("Spain-C3", (6, 16), (6, 14)) +
         move("Spain-C1", (3, 13), (5, 13), (7, 13), (7, 15)),
         ["Spain proposes an alliance to France", at_least_seven("France")]),
    # step 4, France: accepts; the General leaves Paris for the frontier
    turn("france", [alliance("accept", "Spain")] +
         move("France-C4", (5, 8)) +
         move("France-G", (5, 6), (5, 7), (6, 8), (6, 9), (6, 10)),
         ["Spain and France are allies"]),
    # step 5, Russia: waits
    turn("russia", []),
    # step 6, Austria: waits
    turn("austria", [], [at_least_seven("Spain")]),
    # step 7, Spain: breaks the alliance; its General and a third cavalry by Barcelona
    turn("spain", [alliance("break", "France")] +
         move("Spain-G", (4, 16), (5, 15), (5, 14)) +
         move("Spain-C4", (3, 15), (3, 13), (5, 13)),
         ["Spain breaks its alliance with France"]),
    # step 8, France: the General takes Barcelona, a red town; its infantry is placed at [7, 12]
    turn("france", move("France-G", (6, 11), (6, 12), (6, 13)) +
         [{"type": "place", "town": "Barcelona", "square": [7, 12]}],
         ["France captures Barcelona",
          "France gains an infantry piece from the red town of Barcelona",
          "Spain loses Spain-I2, its piece closest to Barcelona"]),
    # step 9, Russia: waits
    turn("russia", []),
    # step 10, Austria: waits
    turn("austria", []),
    # step 11, Spain: attacks its former ally's General; C1 engages the supporting infantry
    turn("spain", [{"type": "attack", "target": "France-G"}] + move("Spain-C1", (7, 13)),
         ["after engaging every supporting piece: taken", "France's General is captured",
          twelve("France")]),
    # step 12, France (throw 12): mobilising (§16); three cavalry to their start squares, the General to Paris
    turn("france", move("France-C1", (4, 7), (4, 5)) + move("France-C2", (6, 7), (6, 5)) +
         move("France-I1", (6, 8)) + move("France-C4", (5, 8), (5, 6), (5, 4)) +
         move("France-G", (4, 8), (5, 7), (5, 6), (5, 5)),
         ["France makes 12 moves"]),
    # step 13, Russia: proposes an alliance to Austria
    turn("russia", [alliance("propose", "Austria")], ["Russia proposes an alliance to Austria"]),
    # step 14, Austria: accepts
    turn("austria", [alliance("accept", "Russia")], ["Russia and Austria are allies"]),
    # step 15, Spain: waits
    turn("spain", [], [twelve("France")]),
    # step 16, France (throw 12): the last cavalry and two infantry to their start squares
    turn("france", move("France-C3", (3, 8), (5, 8), (5, 6)) +
         move("France-I1", (7, 7), (6, 6), (7, 5), (6, 4)) +
         move("France-I3", (5, 9), (6, 8), (7, 7), (6, 6)) +
         move("France-I2", (3, 9)),
         ["France makes 12 moves"]),
    # step 17, Russia: waits
    turn("russia", []),
    # step 18, Austria: waits
    turn("austria", []),
    # step 19, Spain: waits
    turn("spain", [], [twelve("France")]),
    # step 20, France: a piece waiting off the board enters the Enlistment Area (§15); with four
    # infantry on the four infantry start squares, France has mobilised (§16)
    turn("france", move("France-I2", (4, 8), (3, 7), (4, 6), (3, 5), (4, 4)) +
         move("France-I4", (4, 10), (3, 9), (4, 8), (3, 7), (4, 6)),
         ["France makes 10 moves", "France has mobilised in its Capital"]),
    # step 21, Russia: waits; France's army may move off and attack again at its next turn
    turn("russia", []),
]


def main():
    path = HERE / "plan.json"
    doc = json.loads(path.read_text())
    doc["plan"] = PLAN
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
