# csbench sweep plot; redraw with: gnuplot gain-vs-yield.gp
set terminal svg size 900,840 dynamic enhanced font 'sans,11'
set output 'gain-vs-yield.svg'
set multiplot layout 2,1
set key outside right noenhanced
set grid
set xlabel 'measured SMT yield'
set ylabel 'throughput gain (%)'
set xrange [0.960:1.494]
set title 'coresched vs smt-off' noenhanced
plot 0 with lines lc rgb '#888888' notitle, \
  'gain-vs-yield.dat' index 0 using 1:2:3:4 with yerrorlines lc 1 title 'cpu-vs-cache', \
  'gain-vs-yield.dat' index 1 using 1:2:3:4 with yerrorlines lc 2 title 'cpu-vs-cpu', \
  'gain-vs-yield.dat' index 2 using 1:2:3:4 with yerrorlines lc 3 title 'io-randrw', \
  'gain-vs-yield.dat' index 3 using 1:2:3:4 with yerrorlines lc 4 title 'latency-noisy', \
  'gain-vs-yield.dat' index 4 using 1:2:3:4 with yerrorlines lc 5 title 'sched-messaging', \
  'gain-vs-yield.dat' index 5 using 1:2:3:4 with yerrorlines lc 6 title 'sync-heavy', \
  'gain-vs-yield.dat' index 6 using 1:2:3:4 with yerrorlines lc 7 title 'undersubscribed', \
  'gain-vs-yield.dat' index 14 using 1:2 with points pt 7 ps 1.5 lc rgb '#000000' title 'crossover'
set title 'smt-on vs smt-off' noenhanced
plot 0 with lines lc rgb '#888888' notitle, \
  'gain-vs-yield.dat' index 7 using 1:2:3:4 with yerrorlines lc 1 title 'cpu-vs-cache', \
  'gain-vs-yield.dat' index 8 using 1:2:3:4 with yerrorlines lc 2 title 'cpu-vs-cpu', \
  'gain-vs-yield.dat' index 9 using 1:2:3:4 with yerrorlines lc 3 title 'io-randrw', \
  'gain-vs-yield.dat' index 10 using 1:2:3:4 with yerrorlines lc 4 title 'latency-noisy', \
  'gain-vs-yield.dat' index 11 using 1:2:3:4 with yerrorlines lc 5 title 'sched-messaging', \
  'gain-vs-yield.dat' index 12 using 1:2:3:4 with yerrorlines lc 6 title 'sync-heavy', \
  'gain-vs-yield.dat' index 13 using 1:2:3:4 with yerrorlines lc 7 title 'undersubscribed', \
  'gain-vs-yield.dat' index 15 using 1:2 with points pt 7 ps 1.5 lc rgb '#000000' title 'crossover'
unset multiplot
