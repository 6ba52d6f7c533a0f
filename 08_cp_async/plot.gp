# Chapter 08: GFLOP/s against N for N^3 products (cuBLAS in black, chapter 06's best in grey, the
# cp.async kernels); GFLOP/s against the number of stages at the largest cube; the stencil's
# GB/s against n (from the _stencil.csv next to the CSV); the tensor-core GEMM's TFLOP/s (from
# the _hgemm.csv), with cuBLAS and the mma.sync ceiling; each kernel's share of cuBLAS on the sweep
# of shapes (from the _shapes.csv); the wgmma kernel in each descriptor mode (from the _hgemm.csv,
# where it ran).
# Usage: gnuplot -e "csv='results/h200.csv'; outdir='.'" plot.gp
set datafile separator ','
set datafile commentschars '#'
set terminal pngcairo size 1100,620 font ',11' noenhanced

kernels = "cublas ch06_best async_3 async_3_swizzled wide_3 wide_3_swizzled tma_4 tma_wide_3 tma_wide_256"
colours = "#000000 #999999 #e41a1c #ff7f00 #a65628 #f781bf #4daf4a #377eb8 #984ea3"
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
# One series per kernel, each copied into a data block of its own (index i - 1): gnuplot draws
# no line through filtered-out rows.
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

# Stages: three families at 2, 3, 4 stages, at the largest cube: chapter 06's geometry with A
# row-major, cuBLAS's geometry with A swizzled, the TMA (chapter 06's geometry).
set output outdir.'/stages.png'
unset logscale x
stats csv using (cube(column('M')) ? column('M') : 0) nooutput
largest = STATS_max
fam(f) = strcol('family') eq f && cube(largest) && !is('async_exercise')
set title sprintf("GFLOP/s against the number of stages, %d^3 (cuBLAS dashed)", largest)
set xlabel 'stages'
set xrange [1.5:4.5]
set xtics 1
plot csv using 'stages':(fam('async') ? column('gflops') : NaN) with points pt 7 ps 1.5 \
         lc rgb '#e41a1c' title 'cp.async, 256 threads, 8 x 8 a lane, A row-major', \
     csv using 'stages':(fam('wide_swizzled') ? column('gflops') : NaN) with points pt 5 \
         ps 1.5 lc rgb '#f781bf' title 'cp.async, 128 threads, 8 x 16 a lane, A swizzled', \
     csv using 'stages':(fam('tma') ? column('gflops') : NaN) with points pt 9 ps 1.5 \
         lc rgb '#4daf4a' title 'TMA, 256 threads, 8 x 8 a lane', \
     csv using (1.5):(cube(largest) && is('cublas') ? column('gflops') : NaN):(3):(0) \
         with vectors nohead dt 2 lw 2 lc rgb '#000000' title 'cuBLAS'

# The stencil.
stencil = csv[1:strlen(csv) - 4].'_stencil.csv'
set output outdir.'/stencil.png'
set logscale x 2
set format x "2^%L"
set xrange [*:*]
set xtics auto
set title "17-point stencil, one block per SM: GB/s (read + written) against n"
set xlabel 'n (floats)'
set ylabel 'GB/s'
plot for [v in "memcpy stencil_sync stencil_async stencil_double"] stencil using 'n':(is(v) ? \
    column('gbps') : NaN) with linespoints lw 2 pt 7 title v

# The tensor cores: TFLOP/s of each variant at each cube, the mma.sync ceiling as a line.
hgemm = csv[1:strlen(csv) - 4].'_hgemm.csv'
set output outdir.'/tensor_cores.png'
unset logscale x
set format x "%g"
stats hgemm using (is('mma_ceiling') ? column('tflops') : NaN) nooutput
ceiling = STATS_max
hg = "hgemm_cublas hgemm_plain hgemm_padded hgemm_swizzled hgemm_128x128x32_s4 hgemm_128x128x64_s3 hgemm_128x256x64_s3 hgemm_256x128x64_s3 hgemm_tma hgemm_tma_persistent"
set title sprintf("FP16 GEMM on the tensor cores, TFLOP/s (mma.sync ceiling %.0f, dashed)", ceiling)
set xlabel ''
set ylabel 'TFLOP/s'
set yrange [0:*]
set xrange [0.3:words(hg) + 0.7]
set style fill solid 0.8 border -1
set boxwidth 0.38
set xtics rotate by -30 font ',9'
set xtics ()
do for [i = 1:words(hg)] { set xtics add (word(hg, i)[7:] i) }
set key top right
plot for [i = 1:words(hg)] hgemm using (i - 0.2):(is(word(hg, i)) && cube(4096) ? \
         column('tflops') : NaN) with boxes lc rgb '#377eb8' title (i == 1 ? '4096^3' : ''), \
     for [i = 1:words(hg)] hgemm using (i + 0.2):(is(word(hg, i)) && cube(8192) ? \
         column('tflops') : NaN) with boxes lc rgb '#ff7f00' title (i == 1 ? '8192^3' : ''), \
     ceiling with lines dt 2 lw 2 lc rgb '#000000' notitle

# Part 4: each kernel's share of cuBLAS at each shape of the sweep (from the _shapes.csv), the
# shapes in the sweep's order (cubes, odd cubes, tall, wide, long K, short K), 7 rows a shape.
shapes = csv[1:strlen(csv) - 4].'_shapes.csv'
set output outdir.'/shapes.png'
set terminal pngcairo size 1300,640 font ',11' noenhanced
sk = "auto tma_wide_3 tma_wide_256 tma_3 wide_3_swizzled ch06_best"
sc = "#e41a1c #377eb8 #984ea3 #4daf4a #f781bf #999999"
set title "FP32 GEMM on every shape: share of cuBLAS's speed in the same run (%)"
set xlabel ''
set ylabel '% of cuBLAS'
set yrange [0:110]
set xrange [-0.5:27.5]
set xtics () rotate by -45 font ',8'
set style fill empty
set key bottom left font ',9'
set bmargin 7
plot shapes every 7 using (column(0) - 1):(NaN):xticlabels(strcol('shape')) notitle, \
     for [i = 1:words(sk)] shapes using (int(column(0) / 7)):(is(word(sk, i)) ? \
         100 * column('of_cublas') : NaN) with points ps (i == 1 ? 1.6 : 1) \
         pt (i == 1 ? 7 : 6) lc rgb word(sc, i) title word(sk, i)

# The wgmma kernel (hgemm_wgmma_tma_c) in each descriptor mode, the TMA's boxes one atom wide,
# beside cuBLAS, at 4096^3 and 8192^3 (from the _hgemm.csv), the wgmma ceiling dashed: only
# where the GPU ran them (sm_90), else no picture.
set xrange [*:*]
set yrange [*:*]
stats hgemm using (is('wgmma_ceiling') ? column('tflops') : 0) nooutput
if (STATS_max > 0) {
    wgmma_ceiling = STATS_max
    wm = "hgemm_cublas hgemm_wgmma_tma_c hgemm_wgmma_tma_c_64B hgemm_wgmma_tma_c_32B hgemm_wgmma_tma_c_none"
    wl = "cuBLAS 128B 64B 32B none"
    set output outdir.'/wgmma_modes.png'
    set terminal pngcairo size 900,560 font ',11' noenhanced
    set title sprintf("wgmma GEMM by descriptor mode, TFLOP/s (wgmma ceiling %.0f, dashed)", \
                      wgmma_ceiling)
    set xlabel "the TMA's boxes and the descriptors' mode (cuBLAS: its own kernel)"
    set ylabel 'TFLOP/s'
    set yrange [0:*]
    set xrange [0.3:words(wm) + 0.7]
    set style fill solid 0.8 border -1
    set boxwidth 0.38
    unset logscale x
    set xtics () norotate font ',10'
    do for [i = 1:words(wm)] { set xtics add (word(wl, i) i) }
    set bmargin 4
    set key top right
    plot for [i = 1:words(wm)] hgemm using (i - 0.2):(is(word(wm, i)) && cube(4096) ? \
             column('tflops') : NaN) with boxes lc rgb '#377eb8' title (i == 1 ? '4096^3' : ''), \
         for [i = 1:words(wm)] hgemm using (i + 0.2):(is(word(wm, i)) && cube(8192) ? \
             column('tflops') : NaN) with boxes lc rgb '#ff7f00' title (i == 1 ? '8192^3' : ''), \
         wgmma_ceiling with lines dt 2 lw 2 lc rgb '#000000' notitle
}
