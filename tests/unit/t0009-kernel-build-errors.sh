#!/bin/sh
# scripts/kernel-build.sh stops with one line naming the cause, and never
# leaves a cache entry behind, for: a missing tarball, an unknown flavor, a
# series naming a missing patch, and a patch that does not apply (against a
# tiny fake tarball, so no kernel is extracted or built).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/tap.sh"
expect_fail() {	# expect_fail DESC PATTERN ENV... (runs kernel-build.sh)
	desc=$1 pattern=$2
	shift 2
	if env CSBENCH_CACHE="$tmp/cache" "$@" "$top/scripts/kernel-build.sh" \
		>"$tmp/out" 2>"$tmp/err"; then
		tap_ok "$desc (it succeeded)" false
	else
		tap_grep "$desc" "$pattern" "$tmp/err"
	fi
}

mkdir -p "$tmp/src/linux-source-6.1" "$tmp/ps-missing" "$tmp/ps-bad"
echo "hello" >"$tmp/src/linux-source-6.1/Makefile"
tar -C "$tmp/src" -cJf "$tmp/fake.tar.xz" linux-source-6.1
printf '0001-missing.patch\n' >"$tmp/ps-missing/series"
cat >"$tmp/ps-bad/0001-does-not-apply.patch" <<'PATCH'
--- a/Makefile
+++ b/Makefile
@@ -1 +1 @@
-something else
+goodbye
PATCH
printf '# comment\n0001-does-not-apply.patch\n' >"$tmp/ps-bad/series"

expect_fail "missing tarball is named" "kernel source /nonexistent.tar.xz not found" \
	KERNEL_TARBALL=/nonexistent.tar.xz
expect_fail "unknown flavor is named" "FLAVOR=fast: expected bench or debug" \
	KERNEL_TARBALL="$tmp/fake.tar.xz" FLAVOR=fast
expect_fail "series naming a missing patch gives file and line" \
	"ps-missing/series:1: patch 0001-missing.patch not found" \
	KERNEL_TARBALL="$tmp/fake.tar.xz" PATCHSET="$tmp/ps-missing"
expect_fail "a patch that does not apply is named" \
	"patch 0001-does-not-apply.patch does not apply" \
	KERNEL_TARBALL="$tmp/fake.tar.xz" PATCHSET="$tmp/ps-bad"

nothing_left() {
	[ -z "$(ls "$tmp/cache/kernel" 2>/dev/null | grep -v '\.log$')" ] &&
		[ -z "$(ls "$tmp/cache/tree" 2>/dev/null)" ]
}
tap_ok "no cache entry or tree left behind by the failures" nothing_left
tap_done
