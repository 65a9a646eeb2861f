# csbench sweep plot; redraw with: gnuplot gain-vs-yield.gp
set key outside right noenhanced title 'workload'
set grid
set xlabel 'measured SMT yield'
set ylabel 'throughput gain (%)'
set xrange [1.091:1.756]
set terminal svg size 900,840 dynamic enhanced font 'sans,11'
set output 'gain-vs-yield.svg'
set multiplot layout 2,1
set title 'coresched vs smt-off' noenhanced
plot 0 with lines lc rgb '#888888' notitle, \
  'gain-vs-yield.dat' index 0 using 1:2:3:4 with yerrorlines lc 1 title 'cpu-fill', \
  'gain-vs-yield.dat' index 1 using 1:2:3:4 with yerrorlines lc 2 title 'pipe-pair', \
  'gain-vs-yield.dat' index 4 using 1:2 with points pt 7 ps 1.5 lc rgb '#000000' title 'crossover (gain 0)'
unset label
set title 'smt-on vs smt-off' noenhanced
plot 0 with lines lc rgb '#888888' notitle, \
  'gain-vs-yield.dat' index 2 using 1:2:3:4 with yerrorlines lc 1 title 'cpu-fill', \
  'gain-vs-yield.dat' index 3 using 1:2:3:4 with yerrorlines lc 2 title 'pipe-pair', \
  'gain-vs-yield.dat' index 5 using 1:2 with points pt 7 ps 1.5 lc rgb '#000000' title 'crossover (gain 0)'
unset label
unset multiplot
set terminal pngcairo size 900,840 font 'sans,10'
set output 'gain-vs-yield.png'
set multiplot layout 2,1
set title 'coresched vs smt-off' noenhanced
plot 0 with lines lc rgb '#888888' notitle, \
  'gain-vs-yield.dat' index 0 using 1:2:3:4 with yerrorlines lc 1 title 'cpu-fill', \
  'gain-vs-yield.dat' index 1 using 1:2:3:4 with yerrorlines lc 2 title 'pipe-pair', \
  'gain-vs-yield.dat' index 4 using 1:2 with points pt 7 ps 1.5 lc rgb '#000000' title 'crossover (gain 0)'
unset label
set title 'smt-on vs smt-off' noenhanced
plot 0 with lines lc rgb '#888888' notitle, \
  'gain-vs-yield.dat' index 2 using 1:2:3:4 with yerrorlines lc 1 title 'cpu-fill', \
  'gain-vs-yield.dat' index 3 using 1:2:3:4 with yerrorlines lc 2 title 'pipe-pair', \
  'gain-vs-yield.dat' index 5 using 1:2 with points pt 7 ps 1.5 lc rgb '#000000' title 'crossover (gain 0)'
unset label
unset multiplot
