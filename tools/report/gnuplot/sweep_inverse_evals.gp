set autoscale
set title 'refinement'
set xlabel 'evaluation'
set ylabel 'miss [m]'
set logscale y
set key right top
plot '@EVALS_CSV@' every ::1 using 1:6 with linespoints pt 7 ps 0.6 lc rgb '#1f5fbf' title 'Nelder-Mead (GSL nmsimplex2)'
unset multiplot
