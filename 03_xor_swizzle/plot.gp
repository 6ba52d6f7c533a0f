# Chapter 03: speedup of each layout over the plain 32x32 tile for column reads, measured
# (bars) and predicted by the model (points); and the bank of every element in the plain,
# padded and XOR layouts and the two 16-word-wide layouts.
# Usage: gnuplot -e "csv='results/h200.csv'; outdir='.'" plot.gp  (reads results/h200_banks.csv)
set datafile separator ','
set datafile commentschars '#'
set terminal pngcairo size 1000,600 font ',11' noenhanced
banks = csv[1:strlen(csv)-4].'_banks.csv'

set output outdir.'/speedup.png'
set title "Column reads: speedup over the plain 32x32 layout, measured (bars) vs model (points)"
set ylabel 'speedup (log2)'
set logscale y 2
set yrange [0.5:64]
set style fill solid 0.6 border -1
set boxwidth 0.6
set grid ytics
set key top right
set xtics rotate by -30 font ',10'
plot csv using 0:'speedup':xtic(1) with boxes lc rgb '#377eb8' title 'measured', \
     '' using 0:'model_speedup' with points pt 7 ps 1.8 lc rgb '#e41a1c' title 'model: wavefront ratio'

unset logscale
set output outdir.'/banks.png'
set terminal pngcairo size 1800,480 font ',11' noenhanced
set multiplot layout 1,5 title "Bank of each element (one colour per bank; a column read = one column)"
set palette defined (0 '#e41a1c', 8 '#ffd92f', 16 '#4daf4a', 24 '#377eb8', 31 '#984ea3')
set cbrange [0:31]
set xtics 0,4,31 font ',9' norotate
set ytics 0,4,31 font ',9'
set yrange [31.5:-0.5]
set xlabel 'column'
set ylabel 'row'
set size ratio -1
unset key
unset grid
unset colorbox
titles = "'plain: 32-way' 'padded (stride 33)' 'XOR: col ^ row' '16 wide, col ^ (row%16): 2-way' '16 wide, col ^ (row/2%16)'"
do for [k = 0:4] {
    set xrange [-0.5:(k < 3 ? 31.5 : 15.5)]
    set title word(titles, k + 1) font ',10'
    plot banks index k using 3:2:4 with image
}
unset multiplot
