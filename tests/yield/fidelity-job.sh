# Job for tests/yield/smt-yield.sh: nothing of its own. csbench boot runs
# the fidelity probe before every job, as csbench run does before cells,
# and records it in boot.info.
true
