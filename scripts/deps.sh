#!/bin/sh
# Install the Debian packages listed in scripts/packages.txt that are missing.
# Idempotent: present packages are left alone and `apt-get update` runs only
# when something has to be installed.
set -eu
list=${1:-$(dirname "$0")/packages.txt}

missing=
for pkg in $(sed -e 's/#.*//' "$list"); do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	case "$status" in
	*" installed") ;;
	*) missing="$missing $pkg" ;;
	esac
done

if [ -z "$missing" ]; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		SUDO=sudo
	else
		echo "deps: missing packages:$missing; run: sudo apt-get install -y$missing" >&2
		exit 1
	fi
else
	SUDO=
fi

echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
