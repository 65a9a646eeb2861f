mkdir -p out
csbench-yield >out/yield.json 2>out/yield.err || true
csbench-fidelity >out/fidelity.json 2>out/fidelity.err || true
csbench-agent cells.txt . out
