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

array W[5] = [1, 2, 4, 8, 16]
array C[5] = ['#9467bd', '#ff7f0e', '#1f77b4', '#d62728', '#2ca02c']
array P[5] = [11, 13, 7, 5, 9]
sel(w, col) = (column('width') == w ? column(col) : NaN)

set output outdir.'/slowdown.png'
set title "Strided shared-memory loads: measured slowdown (points) vs the model (lines)"
set ylabel 'time / time at stride 1 (log2)'
plot for [i = 1:5] csv using 'stride':(sel(W[i], 'model_ratio')) with lines lw 2 lc rgb C[i] \
         title sprintf('%d B model', W[i]), \
     for [i = 1:5] csv using 'stride':(sel(W[i], 'slowdown')) with points pt P[i] ps 1.2 \
         lc rgb C[i] title sprintf('%d B measured', W[i])

set output outdir.'/bandwidth.png'
set title "Bytes per clock per SM delivered to the warps (limit: 128, or 32 lanes x width below 4 B)"
set ylabel 'bytes / clock / SM (log2)'
set yrange [2:256]
set key bottom left
plot for [i = 1:5] csv using 'stride':(sel(W[i], 'bytes_per_clk_sm')) with linespoints \
         pt P[i] lc rgb C[i] title sprintf('%d B', W[i]), \
     128 with lines dt 2 lc rgb 'black' title 'limit: 32 banks x 4 B', \
     64 with lines dt 3 lc rgb C[2] title 'limit at 2 B', \
     32 with lines dt 3 lc rgb C[1] title 'limit at 1 B'
