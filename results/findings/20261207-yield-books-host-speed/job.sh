#!/bin/sh
mkdir -p out
csbench-yield > out/yield.json 2>out/yield.err
csbench-fidelity 500 1000 > out/fidelity.json 2>out/fidelity.err
