#!/bin/bash
# make bench: each benchmark prints a table and a JSON line, measured against
# a baseline in the same run; the JSON lines are collected in
# tests/bench/results.json (not committed).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-build}
out=$top/tests/bench/results.json
: > "$out"
for b in "$top/$B"/bench/*_bench; do
	echo "== $(basename "$b")"
	"$b" | tee /dev/stderr | grep '^{' >> "$out"
done 2>&1
echo "results: $out"
