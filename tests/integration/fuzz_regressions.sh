#!/bin/bash
# Every input that once crashed a fuzz target (tests/fuzz/regressions/<target>/)
# and every seed of its corpus (tests/fuzz/corpus/<target>/) goes once through
# the target's own code, linked by `make check` to the plain driver
# tests/fuzz/regress.c ($B/tests/fuzz/<target>_regress). A crash, an abort of
# the target's oracle (a refusal with no message, a code its header does not
# allow, a result not as its header says) or, in the sanitizer build, an
# ASan or UBSan report fails the test, so a finding stays fixed.
set -euo pipefail
source "$TOP/tests/lib.sh"
bdir=${B:+$TOP/$B}
bdir=${bdir:-$(dirname "$ESTAFETTE")}
targets=$(cd "$TOP/tests/fuzz" && ls *_fuzz.c | sed 's/_fuzz\.c$//')
[ -n "$targets" ] || fail "no fuzz targets in tests/fuzz"
total=0
for t in $targets; do
	bin=$bdir/tests/fuzz/${t}_regress
	[ -x "$bin" ] || fail "$bin is not built (make check builds it)"
	inputs=()
	for d in "$TOP/tests/fuzz/regressions/$t" "$TOP/tests/fuzz/corpus/$t"; do
		[ -d "$d" ] || continue
		while IFS= read -r -d '' f; do inputs+=("$f"); done < <(find "$d" -type f ! -name '.*' -print0 | sort -z)
	done
	[ "${#inputs[@]}" -gt 0 ] || fail "$t: no corpus and no regressions"
	out=$(TOP=$TOP "$bin" "${inputs[@]}" 2>&1) || fail "$t: an input crashed the target: $(tail -n 30 <<< "$out")"
	grep -qx "${#inputs[@]} inputs ran" <<< "$out" || fail "$t: the driver did not run every input: $out"
	total=$((total + ${#inputs[@]}))
done
echo "fuzz regressions: $total inputs through $(wc -w <<< "$targets") targets"
