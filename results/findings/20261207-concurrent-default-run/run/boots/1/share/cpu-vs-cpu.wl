# Two compute tenants side by side: the case SMT helps least and core
# scheduling can pair compatible tasks best.
name        cpu-vs-cpu
description two compute tenants, sysbench cpu each
requires    sysbench

profile smoke duration=3
profile quick duration=5 warmup=1
profile full  duration=30 warmup=2

tenant a
threads cores
command sysbench cpu --threads={threads} --time={duration} run
metric  events_per_s events/s higher after "events per second:"

tenant b
threads cores
command sysbench cpu --threads={threads} --time={duration} run
metric  events_per_s events/s higher after "events per second:"
