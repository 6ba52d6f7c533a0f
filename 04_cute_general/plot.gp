# Chapter 04: for each worked case, the speedup of its swizzled and padded tiles over the plain
# one for column reads, measured (bars) and predicted by the model (points); and the bank of
# every access unit of four cases, plain beside swizzled.
# Usage: gnuplot -e "csv='results/h200.csv'; outdir='.'" plot.gp  (reads results/h200_banks.csv)
set datafile separator ','
set datafile commentschars '#'
set terminal pngcairo size 1200,620 font ',11' noenhanced
banks = csv[1:strlen(csv)-4].'_banks.csv'

# Rows come in threes per case: _plain, _pad, _swz.
is(s) = strstrt(strcol('variant'), s) > 0
case(s) = is(s) ? int(column(0) / 3) : NaN
cut(s) = strcol('variant')[1:strstrt(strcol('variant'), s) - 1]
label(x) = is('_plain') ? cut('_plain') : is('_pad') ? cut('_pad') : cut('_swz')

set output outdir.'/speedup.png'
set title "Column reads: speedup over the plain tile, swizzled and padded, measured (bars) vs model (points)"
set ylabel 'speedup over plain (log2)'
set logscale y 2
set yrange [0.5:64]
set style fill solid 0.7 border -1
set boxwidth 0.35
set grid ytics
set key top right
set xtics rotate by -30 font ',10'
stats csv using 0 nooutput
set xrange [-0.6:STATS_records / 3 - 0.4]
plot csv using (int(column(0) / 3)):(NaN):xtic(label(0)) notitle, \
     '' using (case('_swz') - 0.18):'speedup' with boxes lc rgb '#377eb8' title 'swizzled, measured', \
     '' using (case('_pad') + 0.18):'speedup' with boxes lc rgb '#bbbbbb' title 'padded, measured', \
     '' using (case('_swz') - 0.18):'model_speedup' with points pt 7 ps 1.6 lc rgb '#e41a1c' title 'model (both)'

unset logscale
set output outdir.'/banks.png'
set terminal pngcairo size 1800,900 font ',11' noenhanced
set multiplot layout 2,4 title "Bank of each access unit (its first word), plain beside swizzled: one colour per bank"
set palette defined (0 '#e41a1c', 8 '#ffd92f', 16 '#4daf4a', 24 '#377eb8', 31 '#984ea3')
set cbrange [0:31]
set xlabel 'unit (column)'
set ylabel 'row'
set size ratio -1
unset key
unset grid
unset colorbox
titles = "'int[32][8] plain: 8-way' 'int[32][8] Swizzle<3,0,5>' 'float4[32][64] plain' 'float4[32][64] Swizzle<3,0,6>' 'TMA 128B tile plain' 'Swizzle<3,4,3>' 'char[64][128] in 4s plain' 'Swizzle<5,2,5>'"
do for [k = 0:7] {
    set title word(titles, k + 1) font ',10'
    set xrange [*:*]
    set autoscale xfix
    set autoscale yfix
    set yrange [*:*] reverse
    set xtics font ',8' norotate
    set ytics font ',8'
    plot banks index k using 3:2:4 with image
}
unset multiplot
