# Chapter 06: GFLOP/s against N for N^3 products, every kernel with cuBLAS in black; the share of
# cuBLAS's speed at 4096^3 (and 4097^3, 8192^3); and kernel 8's sweep.
# Usage: gnuplot -e "csv='results/h200.csv'; outdir='.'" plot.gp
set datafile separator ','
set datafile commentschars '#'
set terminal pngcairo size 1100,620 font ',11' noenhanced

kernels = "cublas naive coalesced smem blocktile_1d blocktile_2d vec_plain vec_pad_a warptile double_buffer"
colours = "#000000 #e41a1c #ff7f00 #a65628 #984ea3 #f781bf #999999 #4daf4a #377eb8 #08306b"
bars = "naive coalesced smem blocktile_1d blocktile_2d vec_plain vec_pad_b vec_swizzle vec_pad_a warptile double_buffer"
sweeps = "double_buffer db_bk8_swizzle db_bk8_lanes8x4 db_bk16_1block db_bk16_swizzle db_bk16_2blocks db_128x64_bk16 db_64x128_bk16"
is(v) = strcol('variant') eq v
cube(n) = column('M') == n && column('N') == n && column('K') == n

set output outdir.'/gflops.png'
set title "FP32 GEMM, GFLOP/s (2 N^3 / time) against N, N x N matrices (multiples of 256)"
set logscale x 2
set xlabel 'N'
set ylabel 'GFLOP/s'
set yrange [0:*]
set grid
set key top left font ',9'
# One series per kernel: gnuplot draws no line through filtered-out rows, so each kernel's rows
# are first copied into a data block of their own (index i - 1).
set print $series
unset print
do for [i = 1:words(kernels)] {
    set table $series append
    plot csv using 'M':'gflops' with table if (is(word(kernels, i)) && \
        cube(column('M')) && int(column('M')) % 256 == 0)
    unset table
    set print $series append
    print ""
    print ""
    unset print
}
set datafile separator whitespace
plot for [i = 1:words(kernels)] $series index (i - 1) using 1:2 with linespoints \
    lw (i == 1 ? 3 : 2) pt 7 lc rgb word(colours, i) title word(kernels, i)
set datafile separator ','

set output outdir.'/of_cublas.png'
set terminal pngcairo size 1200,560 font ',11' noenhanced
unset logscale x
set title "Share of cuBLAS's speed (same run, fp32, TF32 off)"
set xlabel ''
set ylabel '% of cuBLAS'
set yrange [0:110]
set xrange [0.4:words(bars) + 0.6]
set style fill solid 0.8 border -1
set boxwidth 0.25
set key outside top center horizontal
set xtics () rotate by -25 font ',10'
set for [i = 1:words(bars)] xtics add (word(bars, i) i)
plot for [i = 1:words(bars)] csv using (i - 0.27):(is(word(bars, i)) && cube(4096) ? \
        100 * column('of_cublas') : NaN) with boxes lc rgb '#377eb8' title (i == 1 ? '4096^3' : ''), \
     for [i = 1:words(bars)] csv using (i):(is(word(bars, i)) && cube(4097) ? \
        100 * column('of_cublas') : NaN) with boxes lc rgb '#ff7f00' title (i == 1 ? '4097^3' : ''), \
     for [i = 1:words(bars)] csv using (i + 0.27):(is(word(bars, i)) && cube(8192) ? \
        100 * column('of_cublas') : NaN) with boxes lc rgb '#4daf4a' title (i == 1 ? '8192^3' : '')

set output outdir.'/sweep.png'
set title "Kernel 8's sweep: % of cuBLAS"
set xrange [0.4:words(sweeps) + 0.6]
set yrange [0:110]
set boxwidth 0.35
set xtics () rotate by -25 font ',10'
set for [i = 1:words(sweeps)] xtics add (word(sweeps, i) i)
plot for [i = 1:words(sweeps)] csv using (i - 0.18):(is(word(sweeps, i)) && cube(4096) ? \
        100 * column('of_cublas') : NaN) with boxes lc rgb '#9ecae1' title (i == 1 ? '4096^3' : ''), \
     for [i = 1:words(sweeps)] csv using (i + 0.18):(is(word(sweeps, i)) && cube(8192) ? \
        100 * column('of_cublas') : NaN) with boxes lc rgb '#3182bd' title (i == 1 ? '8192^3' : '')
