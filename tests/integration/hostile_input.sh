#!/bin/bash
# Hostile input: every case of tests/hostile/cases.tsv
# against a real Napoleonic Empire game (and a Campaign game where the rules
# matter), with real ssh-keygen keys and signatures and real git. Each case
# builds its input in a folder of its own, beside a copy of the prepared
# game and its $ESTAFETTE_HOME, runs one command under `timeout 20` and must
# give the exit code and a message matching the case's pattern (the file,
# the field and the fix); never 70, a signal or a hang. When the case says
# so, the game must be unchanged afterwards: main's commit and the outbox
# (`main`: the commit only; a receipt may be queued). Every game a case wrote to must
# pass `git fsck --strict`, no mail the case queued may carry a header the
# sender put there, and no output may quote /etc/passwd (no committed symlink
# is ever followed). Prints one line per failing case, with what it got.
#
#   HOSTILE_ONLY=REGEX   run only the cases whose name matches
#   HOSTILE_SHOW=1       print every case's exit and message (to write cases)
set -uo pipefail
source "$TOP/tests/lib.sh"
scratch
cd "$WORK"
CASES=$TOP/tests/hostile/cases.tsv
MK="$PY $TOP/tests/hostile/make_case.py"
E=$ESTAFETTE
started=$(date +%s)

# --- the prepared games (made once; each case works on a copy) ---
mkdir base && cd base
make_players
ssh-keygen -q -t ed25519 -N '' -C mallory -f mallory
ssh-keygen -q -t ed25519 -N '' -C newfrance -f newfrance
ssh-keygen -q -t ecdsa -b 384 -N '' -C p384 -f p384
ssh-keygen -q -t rsa -b 1024 -N '' -C rsa1024 -f rsa1024
"$E" keygen gm -C gm@example.org >/dev/null
export ESTAFETTE_HOME=$WORK/base/home
"$E" new game --ruleset napoleonic-empire --players players.json --gm-signing-key gm --id ne-h >/dev/null ||
	fail "new game"
join game france allies  # (step 1, the join: the cases play step 2)
# France's good order (the start of most cases), and every hostile variant of it.
"$PY" "$TOP/tests/helpers/make_order.py" "$E" game france 1 '[]' > good.json
ssh-keygen -q -Y sign -f france -n estafette-orders good.json < /dev/null
mkdir kinds && $MK orders good.json kinds || fail "make_case.py orders"
git -C game fsck --strict --no-progress || fail "the prepared game fails git fsck --strict"
# A 50 MB mail (an attachment of 50 MB around the good order), made once: cases link to it.
$MK mail big-attachment --order good.json --sig good.json.sig > big.eml || fail "big.eml"
# The revoked key: the GM gave France's seat to a new key; the old one is revoked.
cp -a game revoked && cp -a home revoked-home
ESTAFETTE_HOME=$WORK/base/revoked-home "$E" gm revoked replace --player france --name "New France" \
	--email newfrance@example.org --key newfrance.pub --reason "the old player left" >/dev/null ||
	fail "gm replace"
# Campaign, for cases where a ruleset's own checks matter (Austria moves first).
mkdir cpkeys && cp "$TOP"/turnfiles/campaign/keys/{austria,france,russia,spain}* cpkeys/ &&
	chmod 600 cpkeys/austria cpkeys/france cpkeys/russia cpkeys/spain
ESTAFETTE_HOME=$WORK/base/cp-home "$E" new campaign --ruleset campaign \
	--players "$TOP/turnfiles/campaign/players.json" --id cp-h >/dev/null || fail "new campaign"
ESTAFETTE_HOME=$WORK/base/cp-home join campaign austria=cpkeys/austria france=cpkeys/france \
	russia=cpkeys/russia spain=cpkeys/spain
# Who moves first is the dice's: the cases take the player (CPP, country CPC) and another (CPO).
CPP=$(ESTAFETTE_HOME=$WORK/base/cp-home "$E" status campaign --json | json_get 'd["awaiting"][0]["player"]')
CPC=$(json_get '[p["powers"][0] for p in d["players"] if p["id"] == "'"$CPP"'"][0]' < campaign/game.json)
CPO=$(json_get '[p["powers"][0] for p in d["players"] if p["id"] != "'"$CPP"'"][0]' < campaign/game.json)
CPOP=$(json_get '[p["id"] for p in d["players"] if p["id"] != "'"$CPP"'"][0]' < campaign/game.json)
cd "$WORK"
prepared=$(($(date +%s) - started))

# --- helpers a case's build and command use (run in the case's folder) ---
BASE=$WORK/base
order() {  # player seq [make_order args] > FILE: a good order for the open step of ./game
	local p=$1 seq=$2; shift 2
	"$PY" "$TOP/tests/helpers/make_order.py" "$E" game "$p" "$seq" "${ORDERS:-[]}" "$@"
}
sign() {  # key file [namespace]: sign as ssh-keygen does (key: a file of $BASE or of cpkeys)
	local key=$1 file=$2 ns=${3:-estafette-orders}
	[ -f "$BASE/$key" ] && key=$BASE/$key || key=$BASE/cpkeys/$key
	rm -f "$file.sig"
	ssh-keygen -q -Y sign -f "$key" -n "$ns" "$file" < /dev/null
}
good() {  # good.json: France's good order for step 2 of the ne game, signed
	cp "$BASE/good.json" "$BASE/good.json.sig" .
}
mk() {  # KIND OUT [signer]: the good order made hostile, signed again by signer (or not: -)
	[ -f good.json ] || good
	cp "$BASE/kinds/$1.json" "$2" || return 1
	[ "${3:-france}" = - ] || sign "${3:-france}" "$2"
}
mail() {  # KIND OUT [make_case mail args]: a mail around good.json (or --order F --sig F.sig)
	local kind=$1 out=$2; shift 2
	[ -f good.json ] || good
	$MK mail "$kind" --order good.json --sig good.json.sig "$@" > "$out"
}
tampered() {  # x.json: France's order changed after signing
	good && cp good.json x.json && cp good.json.sig x.json.sig && sed -i 's/"seq": 1/"seq": 7/' x.json
}
commit_file() {  # message: commit the game's work tree as a GM's hand edit would
	git -C game add -A . && git -C game -c user.name=x -c user.email=x@example.org commit -qm "$1"
}
edit_json() {  # file python-expression-on-d: rewrite a JSON file of the game by hand
	"$PY" -c "import json,sys; p=sys.argv[1]; d=json.load(open(p)); $2; open(p,'w').write(json.dumps(d, indent=2)+'\n')" "game/$1"
}
export -f order sign good mk mail tampered commit_file edit_json
export E PY TOP MK BASE CPP CPC CPO CPOP

snapshot() {  # the game's main and its outbox (names and bytes)
	git -C game rev-parse -q --verify main 2>/dev/null
	(cd home && find outbox -type f 2>/dev/null | sort | xargs -r sha256sum)
}

# The mail a case queued: its text (for the pattern) and a check of its headers.
new_mail() {
	comm -13 <(sort "$1") <(cd home && find outbox -name '*.eml' | sort) | (cd home && xargs -r "$PY" -c '
import email, email.policy, sys
allowed = {"date", "from", "to", "cc", "subject", "message-id", "in-reply-to", "references",
           "auto-submitted", "mime-version", "content-type", "content-transfer-encoding",
           "content-disposition", "x-estafette-game", "reply-to", "precedence"}
for path in sys.argv[1:]:
    raw = open(path, "rb").read()
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    for line in head.replace(b"\r\n", b"\n").split(b"\n"):
        if line[:1] in (b" ", b"\t"):
            continue
        name = line.split(b":", 1)[0].decode("latin-1").lower()
        if name not in allowed:
            print("MAIL-HEADER-INJECTED %s: %r" % (path, line[:120]))
        if any(c < 32 and c != 9 for c in line):
            print("MAIL-CONTROL-CHARACTER %s: %r" % (path, line[:120]))
    m = email.message_from_bytes(raw, policy=email.policy.default)
    print("mail to %s" % m["To"])
    print("subject %s" % m["Subject"])
    for part in m.walk():
        if part.get_content_maintype() == "text":
            print(part.get_content())
')
}

# One case: its verdict goes to $C/verdict (a FAIL line, or nothing), its folder
# is removed when it held.
run_case() {
	local name=$1 game=$2 build=$3 command=$4 want=$5 pattern=$6 unchanged=$7
	local C=$WORK/cases/$name got=0 after msg one
	local -a problems=()
	mkdir -p "$C"
	case $game in
	ne) cp -a "$BASE/game" "$C/game" && cp -a "$BASE/home" "$C/home" ;;
	revoked) cp -a "$BASE/revoked" "$C/game" && cp -a "$BASE/revoked-home" "$C/home" ;;
	campaign) cp -a "$BASE/campaign" "$C/game" && cp -a "$BASE/cp-home" "$C/home" ;;
	*) echo "FAIL $name: no prepared game \"$game\"" > "$WORK/verdicts/$name"; return ;;
	esac
	export ESTAFETTE_HOME=$C/home
	if ! (cd "$C" && eval "$build") >"$C/build.log" 2>&1 </dev/null; then
		echo "FAIL $name: building the input failed: $(tail -c 300 "$C/build.log")" > "$WORK/verdicts/$name"
		return
	fi
	(cd "$C" && snapshot) > "$C/before"
	(cd "$C/home" && find outbox -name '*.eml' 2>/dev/null) > "$C/mails.before"
	(cd "$C" && eval "timeout -s KILL 20 $command") >"$C/out" 2>"$C/err" </dev/null || got=$?
	after=$(cd "$C" && snapshot)
	: > "$C/mail"
	[ "$after" = "$(cat "$C/before")" ] || (cd "$C" && new_mail "$C/mails.before") > "$C/mail" 2>&1
	cat "$C/out" "$C/err" "$C/mail" > "$C/all"
	msg=$(head -c 600 "$C/err"; head -c 300 "$C/out")
	case $got in
	137|124) problems+=("a hang: killed after 20 s") ;;
	70) problems+=("exit 70 (internal error)") ;;
	*) [ "$got" -gt 128 ] && problems+=("a crash: signal $((got - 128))") ;;
	esac
	[ "$got" = "$want" ] || problems+=("exit $got, expected $want")
	# (several patterns, each to match some line: joined by " &&& ")
	while read -r -d $'\x1f' one; do
		grep -Eq -- "$one" "$C/all" || problems+=("no message matching /$one/")
	done < <(printf '%s\x1f' "${pattern// &&& /$'\x1f'}")
	grep -q '^MAIL-' "$C/mail" && problems+=("$(grep -m1 '^MAIL-' "$C/mail")")
	grep -q 'root:x:0:0' "$C/all" && problems+=("/etc/passwd was read and shown")
	grep -q '^mail to .*victim@' "$C/mail" && problems+=("a mail went to the address an attacker named")
	case $unchanged in
	yes) [ "$after" = "$(cat "$C/before")" ] || problems+=("the game or its outbox changed") ;;
	main) [ "$(head -n1 <<< "$after")" = "$(head -n1 "$C/before")" ] || problems+=("main moved: something was recorded") ;;
	-) ;;
	*) problems+=("unchanged column is \"$unchanged\", not yes, main or -") ;;
	esac
	# (only where the command wrote objects: the copies start from one checked repository)
	if [ -n "$(find "$C/game/.git/objects" -type f -newer "$C/before" 2>/dev/null | head -n 1)" ]; then
		git -C "$C/game" fsck --strict --no-progress >/dev/null 2>&1 || problems+=("git fsck --strict fails")
	fi
	if [ "${HOSTILE_SHOW:-}" ]; then
		printf '%s\texit %s\t%s\n' "$name" "$got" "$(tr '\n' ' ' <<< "$msg" | cut -c1-400)" >> "$WORK/show"
	fi
	if [ "${#problems[@]}" -gt 0 ]; then
		printf 'FAIL %s: %s; got: %s\n' "$name" "$(IFS=';'; echo "${problems[*]}")" \
			"$(tr '\n' ' ' <<< "$msg" | cut -c1-300)" > "$WORK/verdicts/$name"
	else
		rm -rf "$C"
	fi
}

# Two cases at a time (the machine's two cores; HOSTILE_JOBS to change): each
# works in its own folder, so they cannot meet.
mkdir -p "$WORK/verdicts"
ran=0 running=0 dup=0
declare -A seen
while IFS=$'\t' read -r name game build command want pattern unchanged; do
	case $name in ''|'#'*) continue ;; esac
	if [ -n "${seen[$name]:-}" ]; then
		echo "FAIL $name: the name is used twice in cases.tsv"; dup=$((dup + 1)); continue
	fi
	seen[$name]=1
	[ -n "${HOSTILE_ONLY:-}" ] && ! [[ $name =~ $HOSTILE_ONLY ]] && continue
	ran=$((ran + 1))
	if [ "$running" -ge "${HOSTILE_JOBS:-2}" ]; then
		wait -n
		running=$((running - 1))
	fi
	run_case "$name" "$game" "$build" "$command" "$want" "$pattern" "$unchanged" &
	running=$((running + 1))
done < "$CASES"
wait
[ -f "$WORK/show" ] && sort "$WORK/show"
failed=$(find "$WORK/verdicts" -type f | wc -l)
[ "$failed" -eq 0 ] || cat "$WORK"/verdicts/*
failed=$((failed + dup))

[ -n "${HOSTILE_ONLY:-}" ] || [ "$ran" -ge 120 ] || fail "only $ran cases in $CASES, the suite wants at least 120"
[ "$failed" -eq 0 ] || fail "$failed of $ran hostile cases failed"
echo "hostile_input: $ran cases held (prepared in ${prepared}s, $(($(date +%s) - started))s in all)"
