#!/usr/bin/python3
"""Calls go one way (docs/HACKING.md "Layers"), checked from the built objects.

    layers.py BUILD_DIR [--print]

Reads every object under BUILD_DIR/internal with nm: which file defines each global
symbol and which symbols each file uses. Fails (exit 1, naming the call) when a module
calls one above it or beside it, or when files call each other in a circle that crosses
a module or holds more than MAX_CIRCLE files. --print shows the module arrows and the
circles as well.
"""
import glob
import os
import subprocess
import sys

# Bottom to top; modules on one line may not call each other at all.
LAYERS = [
    ["util"],
    ["orders", "sshsig", "dice", "seal", "store", "render", "mail"],
    ["rulesets/common"],
    ["rulesets/*"],
    ["game"],
    ["turn"],
    ["intake"],
    ["step"],
    ["engine"],
    ["audit"],
]
MAX_CIRCLE = 3


def module_of(obj, top):
    """("game", "game/sealed") for BUILD/internal/game/sealed.o; a ruleset is a module of its own."""
    rel = os.path.relpath(obj, top)[:-2][len("internal/"):]
    parts = rel.split("/")
    return ("/".join(parts[:2]) if parts[0] == "rulesets" and len(parts) > 2 else parts[0]), rel


def level_of(module, level):
    if module in level:
        return level[module]
    if module.startswith("rulesets/"):
        return level.get("rulesets/*")
    return None


def nm(args, obj):
    out = subprocess.run(["nm"] + args + [obj], capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def graph(top):
    objs = sorted(glob.glob(os.path.join(top, "internal", "**", "*.o"), recursive=True))
    if not objs:
        sys.exit("layers.py: no objects under %s/internal: build first (make)" % top)
    defs, uses = {}, {}
    for o in objs:
        for line in nm(["--defined-only", "-g"], o):
            f = line.split()
            if len(f) == 3:
                defs.setdefault(f[2], o)
        uses[o] = [line.split()[-1] for line in nm(["-u"], o) if line.strip()]
    edges = {o: {} for o in objs}
    for o, used in uses.items():
        for sym in used:
            d = defs.get(sym)
            if d and d != o:
                edges[o].setdefault(d, []).append(sym)
    return edges


def circles(edges):
    index, low, on, stack, comps, n = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            comps.append(comp)

    sys.setrecursionlimit(10000)
    for v in edges:
        if v not in index:
            visit(v)
    return [c for c in comps if len(c) > 1]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    top, show = sys.argv[1], "--print" in sys.argv[2:]
    level = {m: i for i, row in enumerate(LAYERS) for m in row}
    edges = graph(top)
    problems, arrows = [], {}
    for a, targets in edges.items():
        ma, fa = module_of(a, top)
        for b, syms in targets.items():
            mb, fb = module_of(b, top)
            if ma == mb:
                continue
            arrows[(ma, mb)] = arrows.get((ma, mb), 0) + 1
            la, lb = level_of(ma, level), level_of(mb, level)
            if la is None or lb is None:
                problems.append("%s -> %s: module %s is not in LAYERS (tests/helpers/layers.py)"
                                % (fa, fb, ma if la is None else mb))
            elif lb >= la:
                problems.append("%s calls %s (%s), which is %s it: calls go one way"
                                % (fa, fb, ", ".join(sorted(set(syms))[:4]),
                                   "beside" if la == lb else "above"))
    for comp in circles(edges):
        names = sorted(module_of(o, top)[1] for o in comp)
        mods = {module_of(o, top)[0] for o in comp}
        if len(mods) > 1 or len(comp) > MAX_CIRCLE:
            problems.append("%d files call each other in a circle: %s" % (len(comp), " ".join(names)))
        elif show:
            print("circle inside %s: %s" % (mods.pop(), " ".join(names)))
    if show:
        for (a, b), count in sorted(arrows.items(), key=lambda x: (level_of(x[0][0], level) or 0, x[0])):
            print("%-9s -> %-9s %d" % (a, b, count))
    for p in problems:
        print("layers: " + p)
    print("layers: %d modules, %d files, %d arrows between modules, %d problems"
          % (len({module_of(o, top)[0] for o in edges}), len(edges), len(arrows), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
