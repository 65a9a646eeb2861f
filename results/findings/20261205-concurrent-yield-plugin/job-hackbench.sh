#!/bin/sh
mkdir -p out
nproc; cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list
csbench-yield > out/yield.json 2>out/yield.err; cat out/yield.json out/yield.err
csbench-fidelity > out/fidelity.json 2>out/fidelity.err; cat out/fidelity.json out/fidelity.err
hb() { s=$(date +%s.%N); hackbench -g 2 -l 100 >/dev/null; e=$(date +%s.%N); echo "hb-$1 $(awk -v s=$s -v e=$e "BEGIN{print e-s}")"; }
for i in 1 2; do hb on; done
echo 0 > /sys/devices/system/cpu/cpu1/online
for i in 1 2; do hb off; done
