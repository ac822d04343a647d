#!/bin/bash
# Each step reaches the disk before anything names it, checked on the
# system calls themselves. Killing a process (fault_points.sh and the batch
# suites) loses no page the kernel holds, so a missing or misplaced fsync
# passes every kill test; a power cut would show it. Here every estafette
# process of a small batch (two Napoleonic Empire games: `new`, the joins'
# and the orders' `submit`, a `run --all` that commits, queues and mails
# over a loopback SMTP server, then one with --no-mail and an `estafette
# mail` of each game) runs under strace, and
# tests/helpers/durability_order.py checks that main moved only after the
# step's objects, hidden record and earlier reports were durable, that no
# report was queued before its step's refs were or before its own content
# was, and that no process ended with a ref or a message owed to the disk.
# The same batch with fsync and syncfs made no-ops (LD_PRELOAD) must fail
# the check, and so must one whose outbox folders are never fsynced: the
# check can see what it looks for.
set -euo pipefail
source "$TOP/tests/lib.sh"
source "$TOP/tests/helpers/batch.sh"
need_pkgs strace
# Under make sanitize: LeakSanitizer cannot run under ptrace (strace).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
scratch
cd "$WORK"
start_smtpd "$WORK/smtp"
mkdir orders traces && (cd orders && make_players)
REAL=$ESTAFETTE
# The calls the check reads (durability_order.py's header).
CALLS=fsync,fdatasync,syncfs,rename,renameat,renameat2,link,linkat,mkdir,mkdirat

# The batch, every estafette process traced into traces/ (PRELOAD: a library
# to load in each, for the check's own check).
traced_batch() {
	local dir=$1
	rm -rf "$dir" traces/* orders/join-* orders/s2-* && mkdir -p "$dir"
	cat > "$WORK/estafette" <<SH
#!/bin/sh
exec strace -f -qq -y -o "$WORK/traces/\$\$" -E "LD_PRELOAD=${PRELOAD:-}" \
	-e trace=$CALLS "$REAL" "\$@"
SH
	chmod +x "$WORK/estafette"
	ESTAFETTE=$WORK/estafette
	batch_template "$dir" g1 g2
	(cd "$dir" && "$ESTAFETTE" run --all games --now "@$T0" >>"$WORK/log.out" 2>>"$WORK/log.err") ||
		fail "run --all at T0: $(tail -3 "$WORK/log.err")"
	(cd "$dir" && batch_orders g1 && batch_orders g2 &&
		"$ESTAFETTE" run --all games --now "@$((T0 + 60))" --no-mail >>"$WORK/log.out" 2>>"$WORK/log.err" &&
		"$ESTAFETTE" mail games/g1 >>"$WORK/log.out" 2>>"$WORK/log.err" &&
		"$ESTAFETTE" mail games/g2 >>"$WORK/log.out" 2>>"$WORK/log.err") ||
		fail "run --all at T0+60, then mail: $(tail -3 "$WORK/log.err")"
	ESTAFETTE=$REAL
}

traced_batch "$WORK/b"
[ "$(git -C b/games/g1 tag | wc -l)" -eq 3 ] || fail "g1 did not reach step 2: $(git -C b/games/g1 tag)"
counts=$("$PY" "$TOP/tests/helpers/durability_order.py" traces/*) ||
	fail "a step was named before it was durable (above)"
echo "checked $(ls traces | wc -l) processes: $counts"
for what in "main moves" "outbox puts"; do
	n=$(sed -E "s/.*$what ([0-9]+).*/\1/" <<<"$counts")
	[ "$n" -ge 4 ] || fail "only $n $what traced: the trace misses what the check is for"
done

# A run killed after it put its step's reports, before it synced their
# folder: the names may be in memory only. The next run finds them there
# and must sync the folder before it moves main to a later step, or a
# power cut then would lose that step's reports for good (no later run
# queues them: the step is no longer the latest). Both runs go into one
# trace, so that the check sees the first one's puts.
rm -rf "$WORK/k" orders/join-* orders/s2-* && mkdir -p "$WORK/k"
batch_template "$WORK/k" g1
killed_then() {
	strace -f -qq -y -A -o "$WORK/traces/killed" \
		-e trace=$CALLS "$REAL" "$@"
}
cd "$WORK/k"
rc=0; ESTAFETTE_FAULT=outbox-after-write@2 killed_then run games/g1 --now "@$T0" --no-mail \
	>/dev/null 2>>"$WORK/log.err" || rc=$?
[ "$rc" -ne 0 ] && [ -e "$ESTAFETTE_HOME/outbox/g1/pending/0001-allies.json" ] ||
	fail "the run was not killed after its last report (exit $rc): $(ls "$ESTAFETTE_HOME/outbox/g1/pending")"
batch_orders g1
killed_then run games/g1 --now "@$((T0 + 60))" --no-mail >/dev/null 2>>"$WORK/log.err" ||
	fail "the run after the kill: $(tail -3 "$WORK/log.err")"
[ "$(git -C games/g1 tag | wc -l)" -eq 3 ] || fail "g1 did not reach step 2 after the kill: $(git -C games/g1 tag)"
cd "$WORK"
"$PY" "$TOP/tests/helpers/durability_order.py" traces/killed >/dev/null ||
	fail "after a run killed before its reports' folder sync, main moved first (above)"
rm -f traces/killed

# fsync and syncfs that do nothing: the same batch must fail the check.
cat > nosync.c <<'C'
int fsync(int fd) { (void)fd; return 0; }
int fdatasync(int fd) { (void)fd; return 0; }
int syncfs(int fd) { (void)fd; return 0; }
C
cc -shared -fPIC -o nosync.so nosync.c
export ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0"
PRELOAD=$WORK/nosync.so traced_batch "$WORK/c"
if out=$("$PY" "$TOP/tests/helpers/durability_order.py" traces/* 2>&1); then
	fail "with fsync a no-op the check still passed: $out"
fi
grep -Eq "(main moves|the new game is moved into place), but .*objects/pack/pack-.* is not durable" <<<"$out" ||
	fail "with fsync a no-op the check failed otherwise than at the first step's pack: $out"
# The outbox folders never fsynced (the rest as it is): the check must
# fail at the first report queued, for its name is not durable when the
# process ends or the next step moves main.
cat > nopending.c <<'C'
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
int fsync(int fd)
{
	char link[64], path[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n > 8 && memcmp(path + n - 8, "/pending", 8) == 0)
		return 0;
	return (int)syscall(SYS_fsync, fd);
}
C
cc -shared -fPIC -o nopending.so nopending.c
PRELOAD=$WORK/nopending.so traced_batch "$WORK/d"
if out=$("$PY" "$TOP/tests/helpers/durability_order.py" traces/* 2>&1); then
	fail "with the outbox's folders never synced the check still passed: $out"
fi
grep -Eq "(main moves|the process ends), but .*/outbox/g[12]/pending/[^ ]* is not durable" <<<"$out" ||
	fail "with the outbox's folders never synced the check failed otherwise: $out"
echo "OK: every step durable before main named it, every ref before its reports, every report before the next step"
