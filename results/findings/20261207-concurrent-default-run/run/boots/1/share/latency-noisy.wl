# Latency under a noisy neighbour: cyclictest in one tenant, a CPU hog in
# the other. Percentiles come from the histogram, overflows counted.
name        latency-noisy
description cyclictest next to a CPU hog
requires    cyclictest stress-ng

profile smoke duration=3
profile quick duration=5 warmup=1
profile full  duration=30 warmup=2

tenant rt
threads cores
command cyclictest -t{threads} -m -q -D {duration} -h 20000 -i 1000
metric  p50 us lower hist p50
metric  p99 us lower hist p99
metric  p99.9 us lower hist p99.9
metric  max us lower hist max

tenant hog
threads cpus
command stress-ng --cpu {threads} -t {duration} --metrics-brief --yaml /tmp/csb-sng-$$.yaml && cat /tmp/csb-sng-$$.yaml
metric  bogo_ops_per_s bogo-ops/s higher after "bogo-ops-per-second-real-time:"
