# csbench report plot; redraw with: gnuplot gains.gp
set terminal svg size 900,500 dynamic enhanced font 'sans,11'
set output 'gains.svg'
set title 'Gain per workload (+ is better for the first mode), 95% CI' noenhanced
set key noenhanced
set grid ytics
set ylabel 'gain (%)'
set xzeroaxis lt -1 lw 1.5
set style fill solid 0.8 border -1
set key outside bottom center horizontal
set arrow from 6.5, graph 0 to 6.5, graph 1 nohead dt 2 lc rgb '#999999'
set xrange [-0.6:7.6]
set xtics noenhanced rotate by -30 ('cpu-vs-cache' 0, 'cpu-vs-cpu' 1, 'io-randrw' 2, 'latency-noisy' 3, 'sched-messaging' 4, 'sync-heavy' 5, 'undersubscribed' 6, 'all' 7)
plot 'gains.dat' index 0 using 1:2:3:4:5 with boxerrorbars lc rgb '#1f77b4' title 'coresched vs smt-off', \
     'gains.dat' index 1 using 1:2:3:4:5 with boxerrorbars lc rgb '#ff7f0e' title 'coresched vs smt-on', \
     'gains.dat' index 2 using 1:2:3:4:5 with boxerrorbars lc rgb '#9467bd' title 'coresched vs coresched-prctl', \
     'gains.dat' index 3 using 1:2:3:4:5 with boxerrorbars lc rgb '#d62728' title 'smt-on vs smt-off'
set terminal pngcairo size 900,500 font 'sans,10'
set output 'gains.png'
replot
