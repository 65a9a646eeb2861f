# Scheduler messaging and context-switch cost.
name        sched-messaging
description hackbench groups against perf bench sched pipe
requires    hackbench perf

# No warm-up in quick: these tools run a fixed amount of work, so a
# warm-up run would cost as much as the measured one.
profile smoke duration=3
profile quick duration=5
profile full  duration=30 warmup=2

tenant hackbench
threads cores
command hackbench -g {threads} -l 40
metric  time s lower after "Time:"

tenant pipe
threads 1
command perf bench sched pipe -l 8000
metric  total_time s lower after "Total time:"
