# Chapter 05: GB/s against size for every variant, float and double, cudaMemcpy in black; the
# share of cudaMemcpy's speed at 8192^2; and the tile sweep of kernel 7.
# Usage: gnuplot -e "csv='results/h200.csv'; outdir='.'" plot.gp
set datafile separator ','
set datafile commentschars '#'
set terminal pngcairo size 1400,560 font ',11' noenhanced

variants = "memcpy copy naive_rows naive_cols tile_plain tile_padded tile_xor vec_unswizzled vec_read_order vec"
sweeps = "vec vec_32x32_t64 vec_32x64_t128 vec_64x32_t128 vec_64x64_t128 vec_32x128_t256 vec_128x32_t256 vec_64x128_t256 vec_128x64_t256 vec_64x128_t512"
colours = "#000000 #999999 #e41a1c #ff7f00 #984ea3 #a65628 #4daf4a #f781bf #17becf #377eb8"
is(v, t) = strcol('variant') eq v && strcol('type') eq t
square(v, t) = is(v, t) && column('rows') == column('cols')

set output outdir.'/gbps.png'
set multiplot layout 1,2 title "Transpose, GB/s (bytes read + written) against N, N x N matrices"
set logscale x 2
set xlabel 'N'
set ylabel 'GB/s'
set yrange [0:*]
set grid
set key bottom right font ',9'
# One series per variant: gnuplot draws no line through filtered-out rows, so the rows of each
# variant are first copied into a data block of their own (index i - 1).
do for [t in "float double"] {
    set print $series
    unset print
    do for [i = 1:words(variants)] {
        set table $series append
        plot csv using 'rows':'gbps' with table if (square(word(variants, i), t))
        unset table
        set print $series append
        print ""
        print ""
        unset print
    }
    set title t
    set datafile separator whitespace
    plot for [i = 1:words(variants)] $series index (i - 1) using 1:2 with linespoints \
        lw (i == 1 ? 3 : 2) pt 7 lc rgb word(colours, i) title word(variants, i)
    set datafile separator ','
}
unset multiplot

set output outdir.'/of_memcpy.png'
set terminal pngcairo size 1100,520 font ',11' noenhanced
unset logscale x
set title "Share of cudaMemcpy's speed at 8192 x 8192, same run"
set xlabel ''
set ylabel '% of cudaMemcpy'
set yrange [0:110]
set xrange [0.4:words(variants) + 0.6]
set style fill solid 0.8 border -1
set boxwidth 0.38
set key outside top center horizontal
set xtics () rotate by -25 font ',10'
set for [i = 1:words(variants)] xtics add (word(variants, i) i)
at(v, t) = is(v, t) && column('rows') == 8192 && column('cols') == 8192
plot for [i = 1:words(variants)] csv using (i - 0.2):(at(word(variants, i), 'float') ? \
        100 * column('of_memcpy') : NaN) with boxes lc rgb '#377eb8' title (i == 1 ? 'float' : ''), \
     for [i = 1:words(variants)] csv using (i + 0.2):(at(word(variants, i), 'double') ? \
        100 * column('of_memcpy') : NaN) with boxes lc rgb '#ff7f00' title (i == 1 ? 'double' : '')

set output outdir.'/sweep.png'
set terminal pngcairo size 1200,560 font ',11' noenhanced
# vec's own tile, from its rows: "64x64_t256".
vec_tile = ''
stats csv using (strcol('variant') eq 'vec' ? (vec_tile = sprintf('%dx%d_t%d', \
    column('tile_rows'), column('tile_cols'), column('threads')), 0) : 0) nooutput
set title "Kernel 7's sweep: tile (input rows x columns) and threads per block, GB/s"
set ylabel 'GB/s'
set yrange [0:*]
set xrange [0.4:words(sweeps) + 0.6]
set boxwidth 0.2
set key outside top center horizontal
set xtics () rotate by -25 font ',10'
set for [i = 1:words(sweeps)] xtics add ((i == 1 ? 'vec: '.vec_tile : word(sweeps, i)[5:]) i)
sw(i, t, n) = is(word(sweeps, i), t) && column('rows') == n && column('cols') == n
plot for [i = 1:words(sweeps)] csv using (i - 0.3):(sw(i, 'float', 8192) ? column('gbps') : NaN) \
        with boxes lc rgb '#9ecae1' title (i == 1 ? 'float 8192^2' : ''), \
     for [i = 1:words(sweeps)] csv using (i - 0.1):(sw(i, 'float', 16384) ? column('gbps') : NaN) \
        with boxes lc rgb '#3182bd' title (i == 1 ? 'float 16384^2' : ''), \
     for [i = 1:words(sweeps)] csv using (i + 0.1):(sw(i, 'double', 8192) ? column('gbps') : NaN) \
        with boxes lc rgb '#fdae6b' title (i == 1 ? 'double 8192^2' : ''), \
     for [i = 1:words(sweeps)] csv using (i + 0.3):(sw(i, 'double', 16384) ? column('gbps') : NaN) \
        with boxes lc rgb '#e6550d' title (i == 1 ? 'double 16384^2' : '')
