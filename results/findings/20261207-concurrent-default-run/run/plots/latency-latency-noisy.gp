# csbench report plot; redraw with: gnuplot latency-latency-noisy.gp
set terminal svg size 900,500 dynamic enhanced font 'sans,11'
set output 'latency-latency-noisy.svg'
set title 'Latency survival: latency-noisy; beyond 20000 us: smt-on 3' noenhanced
set key noenhanced
set grid ytics
set logscale xy
set format y '10^{%L}'
set yrange [*:1.5]
set xlabel 'latency (us)'
set ylabel 'fraction of samples >= x (1 - CDF)'
set key top right
plot 'latency-latency-noisy.dat' index 0 using 1:2 with steps lw 1.5 lc rgb '#7f7f7f' dt 1 title 'smt-off', \
     'latency-latency-noisy.dat' index 1 using 1:2 with steps lw 1.5 lc rgb '#d62728' dt 1 title 'smt-on', \
     'latency-latency-noisy.dat' index 2 using 1:2 with steps lw 1.5 lc rgb '#1f77b4' dt 1 title 'coresched', \
     'latency-latency-noisy.dat' index 3 using 1:2 with steps lw 1.5 lc rgb '#2ca02c' dt 1 title 'coresched-prctl'
set terminal pngcairo size 900,500 font 'sans,10'
set output 'latency-latency-noisy.png'
replot
