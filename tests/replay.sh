#!/bin/sh
# The qemu-cmd a boot leaves behind boots the same guest when a person
# runs it: DIR is a csbench boot --out directory whose job succeeded.
# The job runs again on the same share and must succeed again. TAP.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/tap.sh"
dir=$(cd "$1" && pwd)
cmd=$dir/qemu-cmd

tap_ok "$cmd exists" [ -s "$cmd" ]
tap_grep "it starts running (no -S) and needs no QMP socket" "^exec .*mon:stdio" "$cmd"
tap_ok "it names no QMP socket" sh -c "! grep -q -- -qmp '$cmd'"
rm -f "$dir/share/job.status"
# From another directory: the paths in it are absolute.
(cd / && timeout 600 sh "$cmd" </dev/null >"$dir/replay.console" 2>&1)
code=$?
tap_ok "the replay powers off by itself (exit $code)" [ $code -eq 0 ]
tap_grep "and its job ran again and succeeded" "^exit 0$" "$dir/share/job.status"
tap_done
