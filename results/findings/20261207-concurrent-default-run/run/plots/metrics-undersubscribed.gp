# csbench report plot; redraw with: gnuplot metrics-undersubscribed.gp
set terminal svg size 900,500 dynamic enhanced font 'sans,11'
set output 'metrics-undersubscribed.svg'
set title 'Metrics: undersubscribed, mean per mode, 95% CI' noenhanced
set key noenhanced
set grid ytics
set ylabel 'mean relative to smt-off (= 1); units differ per row'
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#999999'
set key outside bottom center horizontal
set bmargin 5
set xrange [-0.6:1.6]
set xtics noenhanced ('a.events_per_s' . "\n" . '(events/s, higher better)' 0, 'b.events_per_s' . "\n" . '(events/s, higher better)' 1)
plot 'metrics-undersubscribed.dat' index 0 using 1:2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc rgb '#7f7f7f' title 'smt-off', \
     'metrics-undersubscribed.dat' index 1 using 1:2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc rgb '#d62728' title 'smt-on', \
     'metrics-undersubscribed.dat' index 2 using 1:2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc rgb '#1f77b4' title 'coresched', \
     'metrics-undersubscribed.dat' index 3 using 1:2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc rgb '#2ca02c' title 'coresched-prctl'
set terminal pngcairo size 900,500 font 'sans,10'
set output 'metrics-undersubscribed.png'
replot
