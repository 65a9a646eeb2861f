# Job for tests/yield/smt-yield.sh: a guest that keeps vCPU 0 busy (and
# its sibling idle) until it is killed.
taskset -c 0 sh -c 'while :; do :; done'
