# IO with interrupts: fio random read/write on the guest's virtio disk.
name        io-randrw
description fio random read/write against a CPU tenant
requires    fio sysbench

profile smoke duration=3
profile quick duration=5 warmup=1
profile full  duration=30 warmup=2

tenant io
threads cores
command fio --name=rr --rw=randrw --size=64M --runtime={duration} --time_based --numjobs={threads} --group_reporting --filename=/var/tmp/csbench-fio --ioengine=psync --output-format=json
metric  read_iops IOPS higher json /jobs/0/read/iops
metric  write_iops IOPS higher json /jobs/0/write/iops
metric  read_clat_p99 ns lower json /jobs/0/read/clat_ns/percentile/99.000000

tenant compute
threads cores
command sysbench cpu --threads={threads} --time={duration} run
metric  events_per_s events/s higher after "events per second:"
