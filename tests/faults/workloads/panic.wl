# A guest kernel panic mid-cell (sysrq crash): the cell must be marked
# guest-failed with the console log's path, and the run must go on.
name        panic
description crashes the guest kernel through sysrq
requires    sh

profile smoke duration=1
profile quick duration=1
profile full  duration=1

tenant crash
threads 1
command echo c >/proc/sysrq-trigger; sleep 30
metric  never s lower after "never printed:"
