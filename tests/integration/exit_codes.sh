#!/bin/bash
# Exit codes that tell the truth (docs/gm-guide.md "Commands": 66 missing, 73
# cannot write), against the real binary: a full disk while moving main or
# writing the objects says 73; a dangling refs/heads/main says so (66), not
# something about game.json; a read-only $ESTAFETTE_HOME refuses `submit`
# before the order is recorded (73), and a home that fails only after the
# commit warns and exits 0; `status` after `gm replace` shows the order the
# revoked key signed as run will treat it. The full disk and the read-only
# home are real mounts (tmpfs, a read-only bind), so the cases that need
# them run as root.
set -euo pipefail
source "$TOP/tests/lib.sh"
scratch
MOUNTS=()
unmount_all() {
	local i
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do umount "${MOUNTS[i]}" 2>/dev/null || true; done
	MOUNTS=()
}
trap 'unmount_all; stop_smtpd; rm -rf "$WORK"' EXIT
mount_tmpfs() {  # size dir
	mount -t tmpfs -o "size=$1" tmpfs "$2" || fail "mount -t tmpfs $2 (root is needed)"
	MOUNTS+=("$2")
}
unmount() {  # dir (the last one mounted)
	umount "$1" || fail "umount $1"
	unset 'MOUNTS[${#MOUNTS[@]}-1]'
}
cd "$WORK"
make_players
"$ESTAFETTE" keygen gm -C gm@example.org >/dev/null
"$ESTAFETTE" new base --ruleset napoleonic-empire --players players.json --gm-signing-key gm >/dev/null
join base france allies   # step 1, the join (dice v2): the orders below are for step 2
order() {  # game player key file
	"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" "$1" "$2" 1 '[]' > "$4"
	rm -f "$4.sig" && ssh-keygen -q -Y sign -f "$3" -n estafette-orders "$4"
}
copy_game() {  # name: a copy of base, the same game, for one case
	rm -rf "$1" && cp -a base "$1"
	git -C "$1" config estafette.signingkey "$WORK/gm"
}
root=0
[ "$(id -u)" = 0 ] && root=1
[ "$root" = 1 ] || echo "exit_codes: not root, so the full-disk and read-only-home cases cannot mount; they are not run"

# --- A full disk while moving main: 73, main where it was, nothing lost ---
if [ "$root" = 1 ]; then
	copy_game full
	order full france france france.json
	head=$(git -C full rev-parse main)
	# Only refs/heads/ is full: the objects are written, the ref move is what fails.
	cp full/.git/refs/heads/main main.saved
	mount_tmpfs 4k full/.git/refs/heads
	cp main.saved full/.git/refs/heads/main
	expect_exit 73 "$ESTAFETTE" submit full france.json
	grep -q 'moving refs/heads/main: .*No space left on device; free space on that file system and run again' \
		"$WORK/last.err" || fail "full refs: $(cat "$WORK/last.err")"
	unmount full/.git/refs/heads
	[ "$(git -C full rev-parse main)" = "$head" ] || fail "main moved on a full disk"
	git -C full fsck --no-progress 2>&1 | grep -v '^dangling' | grep . && fail "fsck after a full disk"
	"$ESTAFETTE" submit full france.json >/dev/null || fail "the order was not taken once there was space"

	# The whole game on a full file system: the objects cannot be written either: 73 too.
	copy_game full
	mkdir disk && mount_tmpfs 2m disk
	cp -a full disk/ && dd if=/dev/zero of=disk/fill bs=4k 2>/dev/null || true
	head=$(git -C disk/full rev-parse main)
	expect_exit 73 "$ESTAFETTE" submit disk/full france.json
	grep -q 'No space left on device; free space on that file system and run again' "$WORK/last.err" ||
		fail "full disk: $(cat "$WORK/last.err")"
	[ "$(git -C disk/full rev-parse main)" = "$head" ] || fail "main moved on a full disk"
	unmount disk
fi

# --- A dangling refs/heads/main: 66, and the message says so ---
copy_game dangling
echo 1111111111111111111111111111111111111111 > dangling/.git/refs/heads/main
order base france france france.json
for cmd in "status dangling" "submit dangling france.json" "run dangling" "audit dangling" \
	"report dangling" "gm dangling pause --reason x"; do
	# shellcheck disable=SC2086
	expect_exit 66 "$ESTAFETTE" $cmd
	grep -qF "dangling: refs/heads/main is dangling: it names commit 1111111111111111111111111111111111111111, which is not in the repository" \
		"$WORK/last.err" || fail "$cmd: $(cat "$WORK/last.err")"
	grep -qF 'update-ref refs/heads/main step-0001^{commit}' "$WORK/last.err" || fail "$cmd: no fix: $(cat "$WORK/last.err")"
	grep -q 'game\.json' "$WORK/last.err" && fail "$cmd talks of game.json: $(cat "$WORK/last.err")"
done
mkdir all && cp -a dangling all/
expect_exit 66 "$ESTAFETTE" run --all all
grep -qF "refs/heads/main is dangling" "$WORK/last.out" "$WORK/last.err" || fail "run --all: $(cat "$WORK/last.out" "$WORK/last.err")"
# Its own fix works.
git -C dangling update-ref refs/heads/main 'step-0001^{commit}'
"$ESTAFETTE" status dangling >/dev/null || fail "status after the fix"
"$ESTAFETTE" audit dangling >/dev/null || fail "audit after the fix"

# --- A read-only $ESTAFETTE_HOME: submit refuses before recording (73) ---
if [ "$root" = 1 ]; then
	copy_game rohome
	order rohome france france france.json
	before=$(commits rohome)
	mount --bind "$ESTAFETTE_HOME" "$ESTAFETTE_HOME" && MOUNTS+=("$ESTAFETTE_HOME")
	mount -o remount,ro,bind "$ESTAFETTE_HOME" || fail "remount read-only"
	expect_exit 73 "$ESTAFETTE" submit rohome france.json
	grep -qF "$ESTAFETTE_HOME/outbox/base/pending: cannot write: Read-only file system; nothing was recorded" \
		"$WORK/last.err" || fail "read-only home: $(cat "$WORK/last.err")"
	grep -qF 'make $ESTAFETTE_HOME writable (or free space there) and submit again' "$WORK/last.err" ||
		fail "no fix: $(cat "$WORK/last.err")"
	[ "$(commits rohome)" = "$before" ] || fail "the order was committed, and the player told it failed"
	[ ! -e rohome/orders/france.json ] || fail "orders/france.json written"
	unmount "$ESTAFETTE_HOME"
	"$ESTAFETTE" submit rohome france.json >/dev/null || fail "refused once the home was writable"

	# A home that takes the probe but not the receipt: the order is recorded, so exit 0 and a warning.
	copy_game latehome
	order latehome france france france.json
	before=$(commits latehome)
	mkdir late && mount_tmpfs 1m late
	cp -a "$ESTAFETTE_HOME/." late/
	dd if=/dev/zero of=late/fill bs=4k 2>/dev/null || true
	truncate -s -4k late/fill  # one page: the probe's byte and the receipt's .eml, not its envelope
	ESTAFETTE_HOME=$WORK/late expect_exit 0 "$ESTAFETTE" submit latehome france.json
	grep -q 'recorded orders of france for step 2' "$WORK/last.out" || fail "late: $(cat "$WORK/last.out")"
	grep -qF 'warning: france.json: the orders were recorded, but their receipt or press mail was not queued' \
		"$WORK/last.err" || fail "late: no warning: $(cat "$WORK/last.err")"
	grep -q 'No space left on device' "$WORK/last.err" || fail "late: $(cat "$WORK/last.err")"
	[ "$(commits latehome)" = $((before + 1)) ] || fail "late: not committed"
	sha=$(sha256sum france.json | cut -c1-16)
	[ ! -e "late/outbox/base/pending/receipt-$sha.json" ] || fail "late: the receipt was queued after all"
	# As the warning says: with space again, the same file queues what is missing, once.
	rm late/fill
	ESTAFETTE_HOME=$WORK/late expect_exit 65 "$ESTAFETTE" submit latehome france.json
	grep -q 'recorded already' "$WORK/last.err" || fail "resubmit: $(cat "$WORK/last.err")"
	[ -e "late/outbox/base/pending/receipt-$sha.json" ] || fail "the receipt was not queued on the second submit"
	[ "$(commits latehome)" = $((before + 1)) ] || fail "resubmit: committed twice"
	unmount late
fi

# --- status after gm replace: the revoked key's order is what run will make of it ---
copy_game replaced
order replaced france france france.json
"$ESTAFETTE" submit replaced france.json >/dev/null
"$ESTAFETTE" status replaced --json | json_get '[a["received"] for a in d["awaiting"]]' | grep -qx '\[True\]' ||
	fail "not received before the replace"
ssh-keygen -q -t ed25519 -N '' -C newfrance -f newfrance
"$ESTAFETTE" gm replaced replace --player france --name "New France player" --email nf@example.org \
	--key newfrance.pub --reason "the French player left" >/dev/null
"$ESTAFETTE" status replaced --json > status.json
json_get '[a["received"] for a in d["awaiting"]]' < status.json | grep -qx '\[False\]' ||
	fail "status says received: $(cat status.json)"
json_get 'd["awaiting"][0]["refused"]' < status.json |
	grep -q '^orders/france.json.sig: key SHA256:.* is not listed for principal "france"' ||
	fail "refused: $(cat status.json)"
"$ESTAFETTE" status replaced > status.txt
grep -q '^  france *sequential awaited' status.txt || fail "$(cat status.txt)"
grep -q 'the order recorded (seq 1) will be refused: orders/france.json.sig: key' status.txt || fail "$(cat status.txt)"
# And run does what status said: nothing due, france awaited.
"$ESTAFETTE" run replaced > run.txt
grep -q 'nothing due' run.txt || fail "run took the revoked key's order: $(cat run.txt)"
grep -q 'awaits: france' run.txt || fail "$(cat run.txt)"
grep -qF 'send new orders with "seq": 2 or higher' status.txt || fail "$(cat status.txt)"
# The new player's order, seq 2 as status says, is received, and run takes it.
"$PY" "$TOP/tests/helpers/make_order.py" "$ESTAFETTE" replaced france 2 '[]' > france.json
rm -f france.json.sig && ssh-keygen -q -Y sign -f newfrance -n estafette-orders france.json
"$ESTAFETTE" submit replaced france.json >/dev/null
"$ESTAFETTE" status replaced --json | json_get '[a["received"] for a in d["awaiting"]]' | grep -qx '\[True\]' ||
	fail "the new key's order is not received"
"$ESTAFETTE" run replaced | grep -q 'resolved step 2' || fail "the new key's order did not resolve"

# --- A host without the game's dice secrets: 78 at once, not when a step falls due ---
copy_game nosecrets
mkdir -p other-home
expect_exit 78 env ESTAFETTE_HOME="$WORK/other-home" "$ESTAFETTE" run nosecrets --no-mail
grep -qF "the game's next step cannot be resolved here: $WORK/other-home/games/base/secrets.json: the game's dice secrets are missing" \
	"$WORK/last.err" || fail "run without the secrets: $(cat "$WORK/last.err")"
grep -qF "copy its games/base folder here" "$WORK/last.err" || fail "no fix named: $(cat "$WORK/last.err")"
[ ! -e other-home/outbox ] || fail "a run without the secrets queued mail into that home: $(find other-home/outbox)"
mkdir nosecrets-all && mv nosecrets nosecrets-all/
expect_exit 78 env ESTAFETTE_HOME="$WORK/other-home" "$ESTAFETTE" run --all nosecrets-all --no-mail
grep -q "nosecrets: failed (config, exit 78): .*secrets are missing" "$WORK/last.out" ||
	fail "run --all without the secrets: $(cat "$WORK/last.out" "$WORK/last.err")"
# With them copied in, the same host runs it: nothing due, exit 0.
mkdir -p other-home/games && cp -a "$ESTAFETTE_HOME/games/base" other-home/games/
expect_exit 0 env ESTAFETTE_HOME="$WORK/other-home" "$ESTAFETTE" run --all nosecrets-all --no-mail
grep -q "^base: nothing due" "$WORK/last.out" || fail "with the secrets: $(cat "$WORK/last.out")"
echo "exit codes: a full disk 73, a dangling main 66, a read-only home refuses before recording, status after gm replace holds, a host without the dice secrets 78"
