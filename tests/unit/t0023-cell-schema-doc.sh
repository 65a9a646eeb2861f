#!/bin/sh
# docs/cell-schema.md is what csbench schema prints: the written schema and
# the table the agent and the report use cannot drift apart.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"${CSBENCH_BUILD:-$top/build}/csbench" schema >"$out"
tap_ok "csbench schema exits 0" [ $? -eq 0 ]
tap_ok "docs/cell-schema.md is csbench schema's output (rebuild it with: build/csbench schema >docs/cell-schema.md)" \
	diff -u "$top/docs/cell-schema.md" "$out"
tap_grep "it names its version" "^# Cell schema, version [0-9]" "$out"
"${CSBENCH_BUILD:-$top/build}/csbench" schema extra >/dev/null 2>&1
code=$?
tap_ok "an extra argument is a usage error (got $code)" [ $code -eq 2 ]
tap_done
