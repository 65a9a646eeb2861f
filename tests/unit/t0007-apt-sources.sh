#!/bin/sh
# scripts/apt-sources.sh keeps the host's Debian entries for the suite
# family and drops third-party repositories, in both apt formats.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/tap.sh"
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
tap_line "deb822 main suite kept" "deb http://mirror.example/debian bookworm main" "$tmp/out"
tap_line "deb822 second suite kept" "deb http://mirror.example/debian bookworm-updates main" "$tmp/out"
tap_line "security entry kept with its components" "deb http://mirror.example/debian-security bookworm-security main contrib" "$tmp/out"
tap_line "one-line entry with options kept" "deb http://other.example/debian bookworm-backports main" "$tmp/out"
tap_nogrep "deb-src dropped" "deb-src" "$tmp/out"
tap_nogrep "third-party deb822 repository dropped" "vendor.example" "$tmp/out"
tap_nogrep "suite that only contains the family name dropped" "cloud-sdk-bookworm" "$tmp/out"
tap_nogrep "commented entry dropped" "commented.example" "$tmp/out"
APT_ETC=$tmp/etc "$top/scripts/apt-sources.sh" trixie >"$tmp/out"
tap_ok "other family finds nothing" [ ! -s "$tmp/out" ]
tap_done
