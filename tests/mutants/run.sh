#!/bin/sh
# The kernel tests must be able to fail. Each tests/mutants/NAME.patch puts
# one bug back into the series (applied after it, never part of
# patchset/); its "Expect:" header lines name test descriptions that must
# then fail, and "Flavor: debug" asks for the kmemleak and lockdep kernel
# (default: bench). For each mutant: build that kernel with it, run
# tests/guest/kernel-tests.sh in a guest, and check that every expected
# test printed "not ok". Prints one TAP line per mutant.
#   tests/mutants/run.sh [NAME...]     (default: every mutant)
# Results stay in build/mutants/NAME.tap and build/mutants/NAME/.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
out=$top/build/mutants
mkdir -p "$out"
names=${*:-$(cd "$top/tests/mutants" && ls ./*.patch | sed 's|^\./||; s|\.patch$||')}

for name in $names; do
	patch=$top/tests/mutants/$name.patch
	if [ ! -r "$patch" ]; then
		tap_ok "mutant $name: no such patch ($patch)" false
		continue
	fi
	series=$(mktemp -d)
	cp -r "$top/patchset/." "$series/"
	cp "$patch" "$series/9999-mutant-$name.patch"
	echo "9999-mutant-$name.patch" >>"$series/series"
	echo "$(cat "$top/patchset/REVISION")+mutant-$name" >"$series/REVISION"
	flavor=$(sed -n 's/^Flavor: //p' "$patch")
	if ! k=$(FLAVOR=${flavor:-bench} PATCHSET=$series "$top/scripts/kernel-build.sh"); then
		tap_ok "mutant $name: the kernel builds" false
		rm -rf "$series"
		continue
	fi
	rm -rf "$series"
	i=$("$top/scripts/image-build.sh") || { tap_ok "mutant $name: image" false; continue; }
	rm -rf "${out:?}/$name"
	"$top/build/csbench" boot --kernel "$k/bzImage" --initrd "$top/build/initramfs.cpio" \
		--image "$i" --job "$top/tests/guest/kernel-tests.sh" --bin "$top/build/guest" \
		--emulation time-shared --cores 2 \
		--out "$out/$name" --timeout 1800 --show-log >"$out/$name.tap" 2>"$out/$name.err"
	missed=
	while IFS= read -r want; do
		grep -F "not ok" "$out/$name.tap" | grep -qF -- "$want" || missed="$missed [$want]"
	done <<-LIST
	$(sed -n 's/^Expect: //p' "$patch")
	LIST
	if [ -z "$missed" ]; then
		tap_ok "mutant $name: caught ($(grep -c '^[# ]*not ok' "$out/$name.tap") failing lines)" true
	else
		tap_ok "mutant $name: not caught:$missed (see $out/$name.tap)" false
	fi
done
tap_done
