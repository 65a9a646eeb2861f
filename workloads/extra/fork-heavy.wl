# Fork and exit as fast as possible in two tenants at once: the cost that
# cpu.tag adds to fork (a cookie per child, refreshed after the fork
# callback) against prctl cookies, which are only inherited. Not in the
# default matrix (it says little about SMT throughput); used to compare
# series revisions:
#   make ab OLD=... NEW=... AB_ARGS="--workload-dir workloads/extra
#        --workloads fork-heavy --modes coresched,coresched-prctl"
name        fork-heavy
description two tenants of stress-ng fork stressors
requires    stress-ng

profile smoke duration=3
profile quick duration=5
profile full  duration=30 warmup=2

tenant a
threads 2
command stress-ng --fork {threads} -t {duration} --metrics-brief --yaml /tmp/csb-fka-$$.yaml && cat /tmp/csb-fka-$$.yaml
metric  forks_per_s bogo-ops/s higher after "bogo-ops-per-second-real-time:"

tenant b
threads 2
command stress-ng --fork {threads} -t {duration} --metrics-brief --yaml /tmp/csb-fkb-$$.yaml && cat /tmp/csb-fkb-$$.yaml
metric  forks_per_s bogo-ops/s higher after "bogo-ops-per-second-real-time:"
