#!/bin/sh
# Install the Debian packages the build, the tests and the demo need,
# skipping apt entirely when every one is already present.
set -e
pkgs="gcc make pkg-config git openssh-client openssl curl python3 python3-aiosmtpd
      libgit2-dev zlib1g-dev libcurl4-openssl-dev libjansson-dev libssl-dev libcmocka-dev
      libgmime-3.0-dev dovecot-imapd chromium clang libclang-rt-14-dev python3-yaml jq
      unicode-data"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing"
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
