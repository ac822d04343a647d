#!/bin/bash
# The audit's baseline: re-verify every resolved order file of
# GAME with ssh-keygen -Y verify, nothing else (no replay, no dice check).
set -euo pipefail
g=$1
cd "$g"
for f in turns/*/orders/*.json; do
	p=$(basename "$f" .json)
	ssh-keygen -q -Y verify -f keys/allowed_signers -I "$p" -n estafette-orders -s "$f.sig" \
		< "$f" >/dev/null
done
