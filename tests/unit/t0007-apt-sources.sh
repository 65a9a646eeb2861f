#!/bin/sh
# scripts/apt-sources.sh keeps the host's Debian entries for the suite
# family and drops third-party repositories, in both apt formats.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
check() {	# check DESC EXPECTED-LINE
	n=$((n + 1))
	if grep -qxF "$2" "$tmp/out"; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		echo "#   want line: $2"
		sed 's/^/#   got: /' "$tmp/out"
		fails=$((fails + 1))
	fi
}
absent() {	# absent DESC PATTERN
	n=$((n + 1))
	if grep -q "$2" "$tmp/out"; then
		echo "not ok $n - $1"
		sed 's/^/#   got: /' "$tmp/out"
		fails=$((fails + 1))
	else
		echo "ok $n - $1"
	fi
}

echo "TAP version 13"
mkdir -p "$tmp/etc/sources.list.d"
cat >"$tmp/etc/sources.list.d/debian.sources" <<'SRC'
Types: deb
# a comment
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://mirror.example/debian
Suites: bookworm
Components: main

Types: deb
URIs: http://mirror.example/debian-security
Suites: bookworm-security
Components: main contrib
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
cat >"$tmp/etc/sources.list.d/vendor.sources" <<'SRC'
Types: deb
URIs: https://vendor.example/apt
Suites: nodistro
Components: main
Signed-By: /usr/share/keyrings/vendor.gpg
SRC
cat >"$tmp/etc/sources.list" <<'SRC'
deb [arch=amd64 signed-by=/k.gpg] http://other.example/debian bookworm-backports main
deb https://cloud.example/apt cloud-sdk-bookworm main
# deb http://commented.example/debian bookworm main
SRC
APT_ETC=$tmp/etc "$top/scripts/apt-sources.sh" bookworm >"$tmp/out"
check "deb822 main suite kept" "deb http://mirror.example/debian bookworm main"
check "deb822 second suite kept" "deb http://mirror.example/debian bookworm-updates main"
check "security entry kept with its components" "deb http://mirror.example/debian-security bookworm-security main contrib"
check "one-line entry with options kept" "deb http://other.example/debian bookworm-backports main"
absent "deb-src dropped" "deb-src"
absent "third-party deb822 repository dropped" "vendor.example"
absent "suite that only contains the family name dropped" "cloud-sdk-bookworm"
absent "commented entry dropped" "commented.example"
APT_ETC=$tmp/etc "$top/scripts/apt-sources.sh" trixie >"$tmp/out"
n=$((n + 1))
if [ -s "$tmp/out" ]; then echo "not ok $n - other family finds nothing"; fails=$((fails + 1)); else echo "ok $n - other family finds nothing"; fi
echo "1..$n"
[ $fails -eq 0 ]
