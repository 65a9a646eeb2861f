# csbench sweep plot; redraw with: gnuplot gain-vs-yield.gp
set key outside right noenhanced title 'workload'
set grid
set xlabel 'measured SMT yield'
set ylabel 'throughput gain (%)'
set xrange [0.960:1.494]
set terminal svg size 900,840 dynamic enhanced font 'sans,11'
set output 'gain-vs-yield.svg'
set multiplot layout 2,1
set title 'coresched vs smt-off' noenhanced
set label 1 'cpu-vs-cpu 1.04' at 1.0433,0 offset 0.5,1.0 rotate by 30 noenhanced font ',9' textcolor lt 2
set label 2 'io-randrw 1.21' at 1.2058,0 offset 0.5,2.2 rotate by 30 noenhanced font ',9' textcolor lt 3
set label 3 'undersubscribed 1.08' at 1.0834,0 offset 0.5,3.4 rotate by 30 noenhanced font ',9' textcolor lt 7
plot 0 with lines lc rgb '#888888' notitle, \
  'gain-vs-yield.dat' index 0 using 1:2:3:4 with yerrorlines lc 1 title 'cpu-vs-cache', \
  'gain-vs-yield.dat' index 1 using 1:2:3:4 with yerrorlines lc 2 title 'cpu-vs-cpu', \
  'gain-vs-yield.dat' index 2 using 1:2:3:4 with yerrorlines lc 3 title 'io-randrw', \
  'gain-vs-yield.dat' index 3 using 1:2:3:4 with yerrorlines lc 4 title 'latency-noisy', \
  'gain-vs-yield.dat' index 4 using 1:2:3:4 with yerrorlines lc 5 title 'sched-messaging', \
  'gain-vs-yield.dat' index 5 using 1:2:3:4 with yerrorlines lc 6 title 'sync-heavy', \
  'gain-vs-yield.dat' index 6 using 1:2:3:4 with yerrorlines lc 7 title 'undersubscribed', \
  'gain-vs-yield.dat' index 14 using 1:2 with points pt 7 ps 1.5 lc rgb '#000000' title 'crossover (gain 0)'
unset label
set title 'smt-on vs smt-off' noenhanced
set label 1 'cpu-vs-cpu 1.05' at 1.0488,0 offset 0.5,1.0 rotate by 30 noenhanced font ',9' textcolor lt 2
set label 2 'sched-messaging 1.30' at 1.3004,0 offset 0.5,2.2 rotate by 30 noenhanced font ',9' textcolor lt 5
set label 3 'undersubscribed 1.03' at 1.0293,0 offset 0.5,3.4 rotate by 30 noenhanced font ',9' textcolor lt 7
plot 0 with lines lc rgb '#888888' notitle, \
  'gain-vs-yield.dat' index 7 using 1:2:3:4 with yerrorlines lc 1 title 'cpu-vs-cache', \
  'gain-vs-yield.dat' index 8 using 1:2:3:4 with yerrorlines lc 2 title 'cpu-vs-cpu', \
  'gain-vs-yield.dat' index 9 using 1:2:3:4 with yerrorlines lc 3 title 'io-randrw', \
  'gain-vs-yield.dat' index 10 using 1:2:3:4 with yerrorlines lc 4 title 'latency-noisy', \
  'gain-vs-yield.dat' index 11 using 1:2:3:4 with yerrorlines lc 5 title 'sched-messaging', \
  'gain-vs-yield.dat' index 12 using 1:2:3:4 with yerrorlines lc 6 title 'sync-heavy', \
  'gain-vs-yield.dat' index 13 using 1:2:3:4 with yerrorlines lc 7 title 'undersubscribed', \
  'gain-vs-yield.dat' index 15 using 1:2 with points pt 7 ps 1.5 lc rgb '#000000' title 'crossover (gain 0)'
unset label
unset multiplot
set terminal pngcairo size 900,840 font 'sans,10'
set output 'gain-vs-yield.png'
set multiplot layout 2,1
set title 'coresched vs smt-off' noenhanced
set label 1 'cpu-vs-cpu 1.04' at 1.0433,0 offset 0.5,1.0 rotate by 30 noenhanced font ',9' textcolor lt 2
set label 2 'io-randrw 1.21' at 1.2058,0 offset 0.5,2.2 rotate by 30 noenhanced font ',9' textcolor lt 3
set label 3 'undersubscribed 1.08' at 1.0834,0 offset 0.5,3.4 rotate by 30 noenhanced font ',9' textcolor lt 7
plot 0 with lines lc rgb '#888888' notitle, \
  'gain-vs-yield.dat' index 0 using 1:2:3:4 with yerrorlines lc 1 title 'cpu-vs-cache', \
  'gain-vs-yield.dat' index 1 using 1:2:3:4 with yerrorlines lc 2 title 'cpu-vs-cpu', \
  'gain-vs-yield.dat' index 2 using 1:2:3:4 with yerrorlines lc 3 title 'io-randrw', \
  'gain-vs-yield.dat' index 3 using 1:2:3:4 with yerrorlines lc 4 title 'latency-noisy', \
  'gain-vs-yield.dat' index 4 using 1:2:3:4 with yerrorlines lc 5 title 'sched-messaging', \
  'gain-vs-yield.dat' index 5 using 1:2:3:4 with yerrorlines lc 6 title 'sync-heavy', \
  'gain-vs-yield.dat' index 6 using 1:2:3:4 with yerrorlines lc 7 title 'undersubscribed', \
  'gain-vs-yield.dat' index 14 using 1:2 with points pt 7 ps 1.5 lc rgb '#000000' title 'crossover (gain 0)'
unset label
set title 'smt-on vs smt-off' noenhanced
set label 1 'cpu-vs-cpu 1.05' at 1.0488,0 offset 0.5,1.0 rotate by 30 noenhanced font ',9' textcolor lt 2
set label 2 'sched-messaging 1.30' at 1.3004,0 offset 0.5,2.2 rotate by 30 noenhanced font ',9' textcolor lt 5
set label 3 'undersubscribed 1.03' at 1.0293,0 offset 0.5,3.4 rotate by 30 noenhanced font ',9' textcolor lt 7
plot 0 with lines lc rgb '#888888' notitle, \
  'gain-vs-yield.dat' index 7 using 1:2:3:4 with yerrorlines lc 1 title 'cpu-vs-cache', \
  'gain-vs-yield.dat' index 8 using 1:2:3:4 with yerrorlines lc 2 title 'cpu-vs-cpu', \
  'gain-vs-yield.dat' index 9 using 1:2:3:4 with yerrorlines lc 3 title 'io-randrw', \
  'gain-vs-yield.dat' index 10 using 1:2:3:4 with yerrorlines lc 4 title 'latency-noisy', \
  'gain-vs-yield.dat' index 11 using 1:2:3:4 with yerrorlines lc 5 title 'sched-messaging', \
  'gain-vs-yield.dat' index 12 using 1:2:3:4 with yerrorlines lc 6 title 'sync-heavy', \
  'gain-vs-yield.dat' index 13 using 1:2:3:4 with yerrorlines lc 7 title 'undersubscribed', \
  'gain-vs-yield.dat' index 15 using 1:2 with points pt 7 ps 1.5 lc rgb '#000000' title 'crossover (gain 0)'
unset label
unset multiplot
