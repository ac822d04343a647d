#!/bin/bash
# Run every test: each cmocka unit binary in $B/tests, then each integration
# script in tests/integration (they drive the real binary, git, ssh-keygen
# and a loopback SMTP server). Ends with the line "N passed, N failed" (and
# ", N skipped" when a test exited 77: it could not run here and said why in a
# line starting "SKIP:"). A test's lines starting "NOTE:" or "SKIP:" are
# repeated under its name, and the SKIP: lines again before the last line.
# Each result gives the seconds the test took. SKIP_TESTS="unit/NAME
# integration/NAME ..." names tests not to run; each is counted as skipped,
# with SKIP_WHY (a line) as the reason.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
export ESTAFETTE=$top/$B/estafette TOP=$top SHARED=${SHARED:-$top/../shared}
passed=0 failed=0 skipped=0 failures=
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

run() {  # name, command...
	local name=$1 rc=0 start=$SECONDS; shift
	case " ${SKIP_TESTS:-} " in *" $name "*)
		skipped=$((skipped + 1)); echo "SKIP  $name"
		echo "  $name: ${SKIP_WHY:-named in SKIP_TESTS}" >>"$log/skips"
		return ;;
	esac
	(cd "$top" && "$@") >"$log/out" 2>&1 || rc=$?
	local took="($((SECONDS - start)) s)"
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1)); echo "PASS  $name $took"
	elif [ "$rc" -eq 77 ]; then
		skipped=$((skipped + 1)); echo "SKIP  $name $took"
	else
		failed=$((failed + 1)); failures="$failures $name"; echo "FAIL  $name $took"
		sed 's/^/    /' "$log/out" | tail -n 60
	fi
	grep -h '^\[  PASSED  \]\|^\[  FAILED  \]\|^\[  SKIPPED \] [0-9]' "$log/out" |
		sed 's/^/      /'
	grep -h '^NOTE:\|^SKIP:' "$log/out" | sed 's/^/      /'
	grep -h '^SKIP:' "$log/out" | sed "s|^SKIP:|  $name:|" >>"$log/skips"
}

for t in "$top/$B"/tests/*_test; do
	[ -x "$t" ] && run "unit/$(basename "$t")" "$t"
done
for t in "$top"/tests/integration/*.sh; do
	[ -f "$t" ] && run "integration/$(basename "$t" .sh)" bash "$t"
done
if [ -s "$log/skips" ]; then
	echo "not run here:"
	cat "$log/skips"
fi
[ -n "$failures" ] && echo "failed:$failures"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
