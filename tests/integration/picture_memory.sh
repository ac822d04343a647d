#!/bin/bash
# The map's picture does not pile up in `run --all`: over four games, each
# drawing its step's picture, the pass peaks (wait4's maximum resident set,
# as `make bench` measures it) within 2 MiB of one of those games' step
# alone. With glibc's own mmap threshold, which rises to the size of the
# first picture's surface once it is freed, every later game drew its 4 MiB
# surface in the heap, which kept it, and the pass peaked 5 MiB higher.
# Under AddressSanitizer (make sanitize), whose allocator and quarantine are
# not glibc's, the games are still run but the peaks not judged.
set -euo pipefail
source "$TOP/tests/lib.sh"
[ -x /usr/bin/time ] || need_pkgs time
scratch
cd "$WORK"

make_players
export ESTAFETTE_COMMIT_TIME=1800000000   # 2027-01-15T08:00:00Z
"$PY" "$TOP/tests/bench/make_batch.py" "$ESTAFETTE" batch 4 players.json . 1800000000
cp -a batch alone && cp -a "$ESTAFETTE_HOME" home-alone
ESTAFETTE_HOME=$WORK/home-alone /usr/bin/time -f %M -o alone.kib \
	"$ESTAFETTE" run alone/g1 --now @1800000000 >/dev/null 2>&1 ||
	fail "run alone/g1 failed"
/usr/bin/time -f %M -o all.kib "$ESTAFETTE" run --all batch --now @1800000000 >/dev/null 2>&1 ||
	fail "run --all batch failed"
for g in alone/g1 batch/g1 batch/g2 batch/g3 batch/g4; do
	git -C "$g" rev-parse -q --verify step-0002 >/dev/null || fail "$g did not resolve step 2"
done
# Every game's mail carries its picture, so every game drew one.
n=$(grep -l 'Content-Type: image/png' "$ESTAFETTE_HOME"/outbox/g*/pending/0002-*.eml | wc -l)
[ "$n" -eq 8 ] || fail "$n of the 8 step-2 reports of run --all carry the map's picture, not 8"
alone=$(cat alone.kib) all=$(cat all.kib)
case "$(ldd "$ESTAFETTE")" in *libasan*) echo "ok: peaks not judged under ASan"; exit 0 ;; esac
[ "$all" -le $((alone + 2048)) ] ||
	fail "run --all over 4 games peaked at $all KiB, one game's step at $alone KiB: the pictures pile up"
echo "ok: run --all over 4 games peaked at $all KiB, one game's step alone at $alone KiB"
