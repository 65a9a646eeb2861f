# Shared helpers for csbench's shell stages; sourced, not run.

CSBENCH_CACHE=${CSBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/csbench}
TOP=$(cd "$(dirname "$0")/.." && pwd)

die() {
	echo "$STAGE: error: $*" >&2
	exit 1
}

note() {
	echo "$STAGE: $*" >&2
}

# sha256 of everything on stdin, first 16 hex digits: short enough for a
# directory name, long enough never to collide across a handful of builds.
short_hash() {
	sha256sum | cut -c1-16
}

# Print "name<TAB>sha256" of each file given, so a key changes with any
# input's name or content.
hash_files() {
	for f in "$@"; do
		printf '%s\t%s\n' "$(basename "$f")" "$(sha256sum <"$f" | cut -d' ' -f1)"
	done
}
