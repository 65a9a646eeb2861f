# Under-subscribed: total threads <= CPUs/2 (2 of 4), the case the kernel's
# core-scheduling documentation names as its weak spot.
name        undersubscribed
description one thread per tenant (fewer threads than CPUs from two cores up)
requires    sysbench

profile smoke duration=3
profile quick duration=5 warmup=1
profile full  duration=30 warmup=2

tenant a
threads 1
command sysbench cpu --threads={threads} --time={duration} run
metric  events_per_s events/s higher after "events per second:"

tenant b
threads 1
command sysbench cpu --threads={threads} --time={duration} run
metric  events_per_s events/s higher after "events per second:"
