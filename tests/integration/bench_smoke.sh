#!/bin/bash
# make bench at tiny sizes (BENCH_SMOKE=1: three games, a 26-step history,
# a three-step audit, one repetition), so that a change that breaks a bench
# (a game that no longer resolves the way the bench expects, a figure the
# summary cannot find) fails make check rather than the next person who
# measures. The figures at these sizes mean nothing and are not checked;
# the table must have every row and the JSON every bench.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
B=${B:-build}
[ -x "$TOP/$B/bench/dice_bench" ] && [ -x "$TOP/$B/bench/floor_bench" ] ||
	fail "the bench programs are not built ($TOP/$B/bench): make check builds them"
BENCH_SMOKE=1 BENCH_OUT=$WORK/results.json TMPDIR=$WORK B=$B "$TOP/tests/bench/run.sh" > "$WORK/bench.out" 2>&1 ||
	fail "make bench (smoke sizes) failed: $(tail -15 "$WORK/bench.out")"
"$PY" - "$WORK/results.json" "$WORK/bench.out" <<'PY' || fail "the bench's results are incomplete: $(tail -30 "$WORK/bench.out")"
import json, sys
got = {json.loads(l)["bench"] for l in open(sys.argv[1]) if l.strip()}
want = {"nothing_due", "batch", "floor", "history", "audit", "dice", "memory"}
assert want <= got, f"missing from results.json: {sorted(want - got)}"
table = open(sys.argv[2]).read()
for row in ("history: steps 22-26 / steps 16-20", "memory: peak RSS, history_late_step",
            "run --all", "audit"):
    assert row in table, f"no row {row!r} in the table"
PY
