# One second of sysbench cpu: the cell that must survive the faults.
name        short
description one second of sysbench cpu
requires    sysbench

profile smoke duration=1
profile quick duration=1
profile full  duration=1

tenant a
threads 1
command sysbench cpu --threads={threads} --time={duration} run
metric  events_per_s events/s higher after "events per second:"
