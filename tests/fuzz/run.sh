#!/bin/bash
# Run libFuzzer targets built by `make fuzz` (tests/fuzz/README.md):
#   B=build-fuzz FUZZ_SECONDS=60 tests/fuzz/run.sh orders sshsig ...
# Each target runs FUZZ_SECONDS (nice -n 10) on a scratch copy of its
# committed corpus and its saved findings, so the committed corpus never
# grows, with its dictionary tests/fuzz/dict/<target>.dict if there is one. Logs, and any crashing input, go to $B/fuzz/<target>/. Prints one
# line per target (seconds, executions, corpus files) and fails if any
# target found a crash, a leak, a timeout (-timeout=10) or ran out of
# memory (-rss_limit_mb=2048).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-build-fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
export TOP=$top
failed=
for t in "$@"; do
	bin=$top/$B/fuzz/${t}_fuzz out=$top/$B/fuzz/$t
	[ -x "$bin" ] || { echo "fuzz: $bin is not built (make fuzz)" >&2; exit 1; }
	rm -rf "$out"
	mkdir -p "$out/corpus" "$out/findings"
	for d in "$top/tests/fuzz/corpus/$t" "$top/tests/fuzz/regressions/$t"; do
		[ -d "$d" ] && find "$d" -maxdepth 1 -type f ! -name '.*' -exec cp {} "$out/corpus/" \;
	done
	dict=()
	[ -f "$top/tests/fuzz/dict/$t.dict" ] && dict=(-dict="$top/tests/fuzz/dict/$t.dict")
	start=$(date +%s)
	rc=0
	nice -n 10 "$bin" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		"${dict[@]}" -print_final_stats=1 -artifact_prefix="$out/findings/" "$out/corpus" >"$out/log" 2>&1 || rc=$?
	secs=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log" | tail -n 1)
	[ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$out/log" | tail -n 1 | tr -d '#')
	files=$(find "$out/corpus" -type f | wc -l)
	echo "fuzz $t: ${secs}s, ${execs:-?} executions, $files corpus files, exit $rc"
	if [ "$rc" -ne 0 ] || [ -n "$(ls -A "$out/findings")" ]; then
		failed="$failed $t"
		grep -m 5 'ERROR:\|runtime error\|fuzz: \|SUMMARY' "$out/log" | sed 's/^/    /'
		echo "    findings: $(ls "$out/findings" | tr '\n' ' '); log: $out/log"
	fi
done
[ -z "$failed" ] || { echo "fuzz: findings in:$failed" >&2; exit 1; }
