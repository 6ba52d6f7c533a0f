# Chapter 02: time per column load against row padding, per element width, with the model's
# prediction; and the bank of every element of the 32x32 tile for row strides 32, 33 and 34.
# Usage: gnuplot -e "csv='results/h200.csv'; outdir='.'" plot.gp  (reads results/h200_banks.csv)
set datafile separator ','
set datafile commentschars '#'
set terminal pngcairo size 1000,600 font ',11' noenhanced
banks = csv[1:strlen(csv)-4].'_banks.csv'

set output outdir.'/padding.png'
set title "Column reads of a 32x32 tile: time relative to no padding (points) vs model (lines)"
set xlabel 'padding (elements per row)'
set ylabel 'time / time without padding (log2)'
set logscale y 2
set xrange [-0.5:16.5]
set yrange [1/64.:2]
set xtics (0, 1, 2, 3, 4, 8, 16)
set grid
set key bottom right
pad(c) = column('smem_bytes') / column('elem_bytes') / 32 - 32
sel(w, v) = (column('elem_bytes') == w ? v : NaN)
plot csv using (pad(0)):(sel(4, 1 / column('model_speedup'))) with lines lw 2 lc rgb '#1f77b4' title '4 B model', \
     '' using (pad(0)):(sel(4, 1 / column('speedup'))) with points pt 7 ps 1.4 lc rgb '#1f77b4' title '4 B measured', \
     '' using (pad(0)):(sel(8, 1 / column('model_speedup'))) with lines lw 2 lc rgb '#d62728' title '8 B model', \
     '' using (pad(0)):(sel(8, 1 / column('speedup'))) with points pt 5 ps 1.3 lc rgb '#d62728' title '8 B measured', \
     '' using (pad(0)):(sel(16, 1 / column('model_speedup'))) with lines lw 2 lc rgb '#2ca02c' title '16 B model', \
     '' using (pad(0)):(sel(16, 1 / column('speedup'))) with points pt 9 ps 1.5 lc rgb '#2ca02c' title '16 B measured'

# Bank maps: one colour per bank. Same colour down a column = every lane of a column read in
# one bank. The banks file holds one block per picture.
unset logscale
set output outdir.'/banks.png'
set terminal pngcairo size 1500,560 font ',11' noenhanced
set multiplot layout 1,3 title "Bank of each element of a 32x32 tile of 4-byte words (a column read = one column)"
set palette defined (0 '#e41a1c', 8 '#ffd92f', 16 '#4daf4a', 24 '#377eb8', 31 '#984ea3')
set cbrange [0:31]
set xrange [-0.5:31.5]
set yrange [31.5:-0.5]
set xtics 0,4,31 font ',9'
set ytics 0,4,31 font ',9'
set xlabel 'column'
set ylabel 'row'
set size ratio -1
unset key
unset grid
do for [k = 0:2] {
    set title (k == 0 ? 'row stride 32: 32-way' : k == 1 ? 'row stride 33: conflict-free' : 'row stride 34: 2-way')
    if (k < 2) { unset colorbox } else { set colorbox; set cblabel 'bank' }
    plot banks index k using 3:2:4 with image
}
unset multiplot
