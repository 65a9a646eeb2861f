#!/bin/sh
mkdir -p out
csbench-yield > out/yield.json 2>out/yield.err; cat out/yield.json | cut -c1-90
csbench-fidelity 500 1000 > out/fidelity.json 2>out/fidelity.err; grep -v period out/fidelity.json
