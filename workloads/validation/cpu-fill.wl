# Validation against published hardware figures (docs/emulation.md,
# "Against real SMT machines"): sysbench cpu beside sysbench cpu, each
# tenant with a thread per CPU, so core scheduling can fill a core with
# one tenant's two threads, as the published runs on 192 CPUs could.
name        cpu-fill
description two compute tenants, each with a thread per CPU (sysbench cpu)
requires    sysbench

profile smoke duration=3
profile quick duration=5 warmup=1
profile full  duration=30 warmup=2

tenant a
threads cpus
command sysbench cpu --threads={threads} --time={duration} run
metric  events_per_s events/s higher after "events per second:"

tenant b
threads cpus
command sysbench cpu --threads={threads} --time={duration} run
metric  events_per_s events/s higher after "events per second:"
