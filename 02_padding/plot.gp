# Chapter 02: time per column load against row padding, per element width, with the model's
# prediction, for 32-wide tiles of 4-, 8- and 16-byte elements, a 64-wide tile of 16-bit
# elements, and float tiles whose rows are stored as float4; and the bank of every element for
# row strides 32, 33 and 34 (words) and 65 and 66 (halves).
# Usage: gnuplot -e "csv='results/h200.csv'; outdir='.'" plot.gp  (reads results/h200_banks.csv)
set datafile separator ','
set datafile commentschars '#'
set terminal pngcairo size 1000,600 font ',11' noenhanced
banks = csv[1:strlen(csv)-4].'_banks.csv'

set output outdir.'/padding.png'
set title "Column reads: time relative to no padding (points) vs model (lines)"
set xlabel 'padding (elements per row)'
set ylabel 'time / time without padding (log2)'
set logscale y 2
set xrange [-0.5:16.5]
set yrange [1/64.:2]
set xtics (0, 1, 2, 3, 4, 8, 16)
set grid
set key bottom right
# The tile's slots end at its last element: (rows - 1) * stride + cols.
pad(c) = (column('smem_bytes') / column('elem_bytes') - column('cols')) / (column('rows') - 1) - column('cols')
# A series: elements of w bytes, rows stored s bytes at a time.
sel(w, s, v) = (column('elem_bytes') == w && column('store_bytes') == s ? v : NaN)
array W[5] = [4, 8, 16, 2, 4]
array S[5] = [4, 8, 16, 2, 16]
array C[5] = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd']
array P[5] = [7, 5, 9, 13, 11]
array T[5] = ['4 B', '8 B', '16 B', '2 B, 64 wide', '4 B, float4 rows']
plot for [i = 1:5] csv using (pad(0)):(sel(W[i], S[i], 1 / column('model_speedup'))) \
         with lines lw 2 lc rgb C[i] title T[i].' model', \
     for [i = 1:5] csv using (pad(0)):(sel(W[i], S[i], 1 / column('speedup'))) \
         with points pt P[i] ps 1.4 lc rgb C[i] title T[i].' measured'

# Bank maps: one colour per bank. Same colour down a column = every lane of a column read in
# one bank. The banks file holds one block per picture.
unset logscale
set palette defined (0 '#e41a1c', 8 '#ffd92f', 16 '#4daf4a', 24 '#377eb8', 31 '#984ea3')
set cbrange [0:31]
set yrange [31.5:-0.5]
set ytics 0,4,31 font ',9'
set xlabel 'column'
set ylabel 'row'
set size ratio -1
unset key
unset grid

set output outdir.'/banks.png'
set terminal pngcairo size 1500,560 font ',11' noenhanced
set multiplot layout 1,3 title "Bank of each element of a 32x32 tile of 4-byte words (a column read = one column)"
set xrange [-0.5:31.5]
set xtics 0,4,31 font ',9'
do for [k = 0:2] {
    set title (k == 0 ? 'row stride 32: 32-way' : k == 1 ? 'row stride 33: conflict-free' : 'row stride 34: 2-way')
    if (k < 2) { unset colorbox } else { set colorbox; set cblabel 'bank' }
    plot banks index k using 3:2:4 with image
}
unset multiplot

set output outdir.'/banks_half.png'
set terminal pngcairo size 1500,520 font ',11' noenhanced
set multiplot layout 1,2 title "Bank of each 16-bit element of a 32x64 tile (two elements share a word)"
set xrange [-0.5:63.5]
set xtics 0,8,63 font ',9'
do for [k = 3:4] {
    set title (k == 3 ? 'row stride 65: 2-way (lanes 2i, 2i+1 in one bank)' : 'row stride 66: conflict-free')
    if (k == 3) { unset colorbox } else { set colorbox; set cblabel 'bank' }
    plot banks index k using 3:2:4 with image
}
unset multiplot
