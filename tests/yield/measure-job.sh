# Job for tests/yield/smt-yield.sh: the guest's SMT yield as csbench
# run measures it before every boot's cells.
csbench-yield >yield.json
