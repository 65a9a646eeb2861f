# A compute tenant next to a cache- and memory-heavy one.
name        cpu-vs-cache
description sysbench cpu against the stress-ng cache stressor
requires    sysbench stress-ng

profile smoke duration=3
profile quick duration=5 warmup=1
profile full  duration=30 warmup=2

tenant compute
threads cores
command sysbench cpu --threads={threads} --time={duration} run
metric  events_per_s events/s higher after "events per second:"

tenant memory
threads cores
command stress-ng --cache {threads} -t {duration} --metrics-brief --yaml /tmp/csb-sng-$$.yaml && cat /tmp/csb-sng-$$.yaml
metric  bogo_ops_per_s bogo-ops/s higher after "bogo-ops-per-second-real-time:"
