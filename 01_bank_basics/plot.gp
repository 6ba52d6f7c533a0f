# Chapter 01: measured slowdown against stride for each access width, with the model's
# prediction (wavefronts / ideal wavefronts) overlaid; and bytes per clock per SM.
# Usage: gnuplot -e "csv='results/h200.csv'; outdir='.'" plot.gp
set datafile separator ','
set datafile commentschars '#'
set terminal pngcairo size 1100,650 font ',11' noenhanced
set key top left
set grid
set xlabel 'stride (elements of the access width)'
set xrange [0.5:32.5]
set xtics 1,1,32 font ',9'
set logscale y 2

set output outdir.'/slowdown.png'
set title "Strided shared-memory loads: measured slowdown (points) vs the model (lines)"
set ylabel 'time / time at stride 1 (log2)'
sel(w, col) = (column('width') == w ? column(col) : NaN)
plot csv using 'stride':(sel(4, 'model_ratio')) with lines lw 2 lc rgb '#1f77b4' title '4 B model', \
     '' using 'stride':(sel(4, 'slowdown')) with points pt 7 ps 1.2 lc rgb '#1f77b4' title '4 B measured', \
     '' using 'stride':(sel(8, 'model_ratio')) with lines lw 2 lc rgb '#d62728' title '8 B model', \
     '' using 'stride':(sel(8, 'slowdown')) with points pt 5 ps 1.1 lc rgb '#d62728' title '8 B measured', \
     '' using 'stride':(sel(16, 'model_ratio')) with lines lw 2 lc rgb '#2ca02c' title '16 B model', \
     '' using 'stride':(sel(16, 'slowdown')) with points pt 9 ps 1.3 lc rgb '#2ca02c' title '16 B measured'

set output outdir.'/bandwidth.png'
set title "Bytes per clock per SM delivered to the warps (limit 128)"
set ylabel 'bytes / clock / SM (log2)'
set yrange [2:256]
set key bottom left
plot csv using 'stride':(sel(4, 'bytes_per_clk_sm')) with linespoints pt 7 lc rgb '#1f77b4' title '4 B', \
     '' using 'stride':(sel(8, 'bytes_per_clk_sm')) with linespoints pt 5 lc rgb '#d62728' title '8 B', \
     '' using 'stride':(sel(16, 'bytes_per_clk_sm')) with linespoints pt 9 lc rgb '#2ca02c' title '16 B', \
     128 with lines dt 2 lc rgb 'black' title 'limit: 32 banks x 4 B'
