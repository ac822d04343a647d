#!/bin/sh
# Install the Debian packages the build and the tests need, skipping apt
# entirely when every one is already present.
#
#   tests/deps.sh          the base set (make deps): the build, the demo and
#                          every test but those below; with r-cran-whisker
#                          when $SHARED (default ../shared) has no Mustache
#                          spec, for its older copy of the spec
#   tests/deps.sh PKG...   just these: the tests that need a large package
#                          (chromium, dovecot-imapd) ask for it when they run
#                          (need_pkgs in tests/lib.sh, start_imapd)
#
# Installs as root, else through sudo (sudo -n when no terminal can take a
# password). Exits non-zero, having said why, when it cannot.
set -e
if [ $# -gt 0 ]; then
	pkgs="$*"
else
	pkgs="gcc make pkg-config git openssh-client openssl curl python3 python3-aiosmtpd
	      libgit2-dev zlib1g-dev libcurl4-openssl-dev libjansson-dev libssl-dev
	      libcmocka-dev libgmime-3.0-dev librsvg2-dev libpng-dev clang libclang-rt-14-dev python3-yaml jq
	      unicode-data"
	spec=${SHARED:-$(dirname "$0")/../../shared}/external/mustache-spec
	for f in comments delimiters interpolation inverted partials sections; do
		[ -r "$spec/$f.json" ] || { pkgs="$pkgs r-cran-whisker"; break; }
	done
fi
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
sudo=
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null; then
		echo "deps: cannot install$missing: not root, and no sudo" >&2
		exit 1
	fi
	sudo=sudo
	[ -t 0 ] || sudo="sudo -n"
fi
echo "deps: installing$missing"
# another apt on this machine may hold the lock for a while: wait for it
apt="apt-get -o DPkg::Lock::Timeout=300"
$sudo $apt update -qq
$sudo env DEBIAN_FRONTEND=noninteractive $apt install -y -qq --no-install-recommends $missing
