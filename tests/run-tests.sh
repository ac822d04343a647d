#!/bin/bash
# Run every test: each cmocka unit binary in $B/tests, then each integration
# script in tests/integration (they drive the real binary, git, ssh-keygen
# and a loopback SMTP server). Ends with the line "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
export ESTAFETTE=$top/$B/estafette TOP=$top SHARED=${SHARED:-$top/../shared}
passed=0 failed=0 failures=
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

run() {  # name, command...
	local name=$1; shift
	if (cd "$top" && "$@") >"$log/out" 2>&1; then
		passed=$((passed + 1)); echo "PASS  $name"
	else
		failed=$((failed + 1)); failures="$failures $name"; echo "FAIL  $name"
		sed 's/^/    /' "$log/out" | tail -n 60
	fi
	grep -h '^\[  PASSED  \]\|^\[  FAILED  \]' "$log/out" | sed 's/^/      /'
}

for t in "$top/$B"/tests/*_test; do
	[ -x "$t" ] && run "unit/$(basename "$t")" "$t"
done
for t in "$top"/tests/integration/*.sh; do
	[ -f "$t" ] && run "integration/$(basename "$t" .sh)" bash "$t"
done
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
