# A guest that stops making progress: the tenant stops the agent itself
# (its parent), so nothing is logged until the host's watchdog kills the
# guest. The cell must be marked guest-failed and the run must go on.
name        hang
description stops the guest agent so the job makes no progress
requires    sh

profile smoke duration=1
profile quick duration=1
profile full  duration=1

tenant stop
threads 1
command kill -STOP $PPID; sleep 600
metric  never s lower after "never printed:"
