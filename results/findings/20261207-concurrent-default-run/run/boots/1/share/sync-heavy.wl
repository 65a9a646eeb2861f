# Synchronisation-heavy tenants: lots of short runs and wakeups.
name        sync-heavy
description sysbench threads (yield and lock) against sysbench mutex
requires    sysbench

# No warm-up in quick: these tools run a fixed amount of work, so a
# warm-up run would cost as much as the measured one.
profile smoke duration=3
profile quick duration=5
profile full  duration=30 warmup=2

tenant threads
threads cpus
command sysbench threads --threads={threads} --time={duration} run
metric  events events higher after "total number of events:"

tenant mutex
threads cpus
command sysbench mutex --threads={threads} --time={duration} run
metric  total_time s lower after "total time:"
