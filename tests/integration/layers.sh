#!/bin/bash
# Calls go one way (docs/HACKING.md "Layers"): from the built objects' symbols, no module
# calls one above or beside it, and no circle of files crosses a module. The checker is
# first shown a tree where a lower module calls a higher one, and must refuse it.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${B:-build}
PY=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A game/ file that calls into step/, and step/ calling back: both must be named.
mkdir -p "$work/internal/game" "$work/internal/step"
printf 'int est_step_x(void);\nint est_game_x(void) { return est_step_x(); }\n' > "$work/game.c"
printf 'int est_game_x(void);\nint est_step_x(void) { return 1; }\nint est_step_y(void) { return est_game_x(); }\n' > "$work/step.c"
cc -c -o "$work/internal/game/game.o" "$work/game.c"
cc -c -o "$work/internal/step/step.o" "$work/step.c"
if "$PY" "$TOP/tests/helpers/layers.py" "$work" > "$work/out"; then
	echo "layers.py accepted game/ calling step/:"; cat "$work/out"; exit 1
fi
grep -q 'game/game calls step/step (est_step_x), which is above it' "$work/out"
grep -q '2 files call each other in a circle: game/game step/step' "$work/out"

case $B in /*) built=$B ;; *) built=$TOP/$B ;; esac
"$PY" "$TOP/tests/helpers/layers.py" "$built" --print
