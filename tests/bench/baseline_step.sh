#!/bin/bash
# A batch step's baseline: what a GM without estafette scripts for
# one step of every game in DIR: verify each order with ssh-keygen -Y verify
# against the game's allowed_signers, then commit the new state with the git
# command line (git add, git commit, git tag). No rules, dice or reports.
set -euo pipefail
for g in "$1"/*/; do
	g=${g%/}
	step=$(( $(git -C "$g" tag -l 'step-*' | wc -l) ))
	dir=$(printf 'turns/%04d' "$step")
	mkdir -p "$g/$dir/orders"
	for f in "$g"/orders/*.json; do
		[ -e "$f" ] || continue
		p=$(basename "$f" .json)
		ssh-keygen -q -Y verify -f "$g/keys/allowed_signers" -I "$p" -n estafette-orders \
			-s "$f.sig" < "$f" >/dev/null
		git -C "$g" mv -k "orders/$p.json" "orders/$p.json.sig" "$dir/orders/"
	done
	printf '{"step": %d}\n' "$step" > "$g/state.json"
	git -C "$g" add -A
	git -C "$g" -c user.name=gm -c user.email=gm@example.org commit -q -m "step $step"
	git -C "$g" tag "$(printf 'step-%04d' "$step")"
done
