#!/usr/bin/python3
"""Play the Levée en Masse sample game to its end and write its plan.json.

    /usr/bin/python3 turnfiles/levee-en-masse/strategy.py build/estafette [--grind]

A simple player, so that the sample is a whole game: each turn it detaches
Napoleon in triumph when it may, restores order in Paris, sends Napoleon to
the most dangerous Army, attacks the Armies nearest Paris (the first attack
with the last reserves behind it, 10.4, when that Army is two boxes or fewer
from Paris: the reserves cost -1 the next turn), rolls the free To the Barricades!
against an Army inside France that it can push back, and spends what is left
on Political Actions.
It plays through turnfiles/make_orders.py (the same game, ids, clock and
entropy), so `make_orders.py turnfiles/levee-en-masse ESTAFETTE` rebuilds
the very same signed files from the plan this writes.
"""
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from make_orders import Sample  # noqa: E402


def attackable(state, army):
    """7.2, as validate.c reads it: nearest Paris on its track, bracketed first."""
    if army["box"] is None:
        return False
    for other in state["armies"]:
        if other is army or other["box"] is None or other["track"] != army["track"]:
            continue
        if other["box"] < army["box"]:
            return False
        if other["box"] == army["box"] and other["stationary"] and not army["stationary"]:
            return False
    pressed = state["options"].get("10.6") and not army.get("rotated")
    return army["box"] < 5 or army["stationary"] or pressed


def choose(state, rules):
    orders, actions = [], state["actions"]
    squares = {(t["name"], b["box"]) for t in rules["tracks"]["tracks"] for b in t["boxes"] if b.get("square")}
    nap = state.get("napoleon")
    turn = len(state["played"])
    targets = sorted((a for a in state["armies"] if attackable(state, a)), key=lambda a: (a["box"], -a["value"]))
    if nap and nap.get("with"):
        with_army = next(a for a in state["armies"] if a["id"] == nap["with"])
        if with_army["box"] in (4, 5):
            orders.append({"type": "napoleon", "detach": True})
            nap = None
    if state["disorder"] and actions:
        orders.append({"type": "restore-order"})
        actions -= 1
    if nap and not nap.get("with") and nap.get("recalled", -1) != turn and targets:
        orders.append({"type": "napoleon", "assign": targets[0]["id"]})
    for i, army in enumerate(targets[:actions]):
        order = {"type": "military", "army": army["id"]}
        if i == 0 and state["options"].get("10.4") and army["box"] <= 2:
            order["reserves"] = "if-fails"
        orders.append(order)
    actions -= min(actions, len(targets))
    # To the Barricades! pushes back an Army inside France, never a Stationary one nor one in the
    # highest box of its track (10.6.1 lets only a Military Action press it there).
    lengths = {t["name"]: len(t["boxes"]) for t in rules["tracks"]["tracks"]}
    inside = [a for a in targets if (a["track"], a["box"]) in squares and not a["stationary"]
              and a["box"] < lengths[a["track"]]]
    if inside:
        orders.append({"type": "barricades", "army": inside[0]["id"]})
    political = state["political"]
    for _ in range(actions):
        rival = max(("Monarchy", "Despotism"), key=lambda m: political[m])
        orders.append({"type": "political",
                       "marker": rival if political[rival] >= political["Republic"] - 1 else "Republic"})
    return orders


def play_once(salt):
    """The whole game from the join whose last file's entropy takes `salt`."""
    sample = Sample(HERE, sys.argv[1])
    sample.join = {"salt": salt}
    sample.start()
    out = HERE / "orders"
    for old in out.glob("*"):
        old.unlink()
    out.mkdir(exist_ok=True)
    sample.join_all(out)
    rules = {p.stem: json.loads(p.read_text()) for p in (sample.game / "rules").glob("*.json")}
    plan = []
    while True:
        status = sample.status()
        if not status["awaiting"]:
            break
        state = json.loads((sample.game / "state.json").read_text())["state"]
        entry = {"player": "citoyen", "seq": 1, "orders": choose(state, rules)}
        sample.play(entry, out)
        plan.append(entry)
    return sample, plan


# What the sample is for (tests/integration/sample_game.sh reads the same):
# a whole game that shows these rules at work.
STORY = ["Napoleon enters play in the Holding Box", "Napoleon leaves the Holding Box",
         "the last reserves are committed (10.4)", "a decisive victory (10.6.1)",
         "a decisive defeat (10.6.2)", "a Stationary Army with a bracketed Battle Value",
         "Spanish Army enters play"]


def main():
    """plan.json's join salt, or with --grind the first from it whose game tells the STORY."""
    first = json.loads((HERE / "plan.json").read_text()).get("join", {}).get("salt", 0)
    for salt in range(first, first + (MAX_JOINS if "--grind" in sys.argv else 1)):
        sample, plan = play_once(salt)
        events = sample.events_since(1)
        missing = [text for text in STORY if text not in events]
        print(f"join salt {salt}: {len(plan)} turns, missing {missing}", file=sys.stderr)
        if not missing:
            break
    doc = json.loads((HERE / "plan.json").read_text())
    doc["join"] = {"salt": salt}
    doc["plan"] = plan
    (HERE / "plan.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    state = json.loads((sample.game / "state.json").read_text())["state"]
    print(f"{len(plan)} turns; result: {state['result']}")


MAX_JOINS = 400
main()
