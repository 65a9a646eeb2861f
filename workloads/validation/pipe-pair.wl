# Validation against published hardware figures (docs/emulation.md,
# "Against real SMT machines"): two tenants each ping-ponging through a
# pipe (perf bench sched pipe, two threads each), the published "pipe
# context switches" case.
name        pipe-pair
description two tenants of perf bench sched pipe
requires    perf

# Fixed work: a warm-up would cost as much as the measured run.
profile smoke duration=3
profile quick duration=5
profile full  duration=30 warmup=2

tenant a
threads 1
command perf bench sched pipe -l 8000
metric  total_time s lower after "Total time:"

tenant b
threads 1
command perf bench sched pipe -l 8000
metric  total_time s lower after "Total time:"
