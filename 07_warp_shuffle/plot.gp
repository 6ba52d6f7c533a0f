# Chapter 07: GB/s read against n for every reduction, CUB in black; the share of CUB's speed at
# 2^20 and 2^28 floats.
# Usage: gnuplot -e "csv='results/h200.csv'; outdir='.'" plot.gp
set datafile separator ','
set datafile commentschars '#'
set terminal pngcairo size 1100,620 font ',11' noenhanced

variants = "cub divergent strided sequential first_add last_warp shuffle shuffle_exercise butterfly one_pass"
colours = "#000000 #e41a1c #ff7f00 #a65628 #984ea3 #f781bf #4daf4a #b2df8a #999999 #377eb8"
is(v) = strcol('variant') eq v

set output outdir.'/gbps.png'
set title "Sum of n floats, GB/s read, inputs rotated past the L2"
set logscale x 2
set format x "2^%L"
set xlabel 'n (floats)'
set ylabel 'GB/s'
set yrange [0:*]
set grid
set key top left font ',9'
set print $series
unset print
do for [i = 1:words(variants)] {
    set table $series append
    plot csv using 'n':'gbps' with table if (is(word(variants, i)))
    unset table
    set print $series append
    print ""
    print ""
    unset print
}
set datafile separator whitespace
plot for [i = 1:words(variants)] $series index (i - 1) using 1:2 with linespoints \
    lw (i == 1 ? 3 : 2) pt 7 lc rgb word(colours, i) title word(variants, i)
set datafile separator ','

set output outdir.'/of_cub.png'
set terminal pngcairo size 1100,520 font ',11' noenhanced
unset logscale x
set format x "% g"
set title "Share of CUB's speed, same run"
set xlabel ''
set ylabel '% of cub::DeviceReduce::Sum'
set yrange [0:*]
set xrange [0.4:words(variants) - 0.4]
set style fill solid 0.8 border -1
set boxwidth 0.35
set key outside top center horizontal
set xtics () rotate by -25 font ',10'
set for [i = 2:words(variants)] xtics add (word(variants, i) i - 1)
plot for [i = 2:words(variants)] csv using (i - 1 - 0.18):(is(word(variants, i)) && \
        column('n') == 2**20 ? 100 * column('of_cub') : NaN) with boxes lc rgb '#9ecae1' \
        title (i == 2 ? 'n = 2^20' : ''), \
     for [i = 2:words(variants)] csv using (i - 1 + 0.18):(is(word(variants, i)) && \
        column('n') == 2**28 ? 100 * column('of_cub') : NaN) with boxes lc rgb '#3182bd' \
        title (i == 2 ? 'n = 2^28' : '')
