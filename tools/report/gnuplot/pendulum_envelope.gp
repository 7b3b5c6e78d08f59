set title "Dahl wire pendulum: decay envelope (per-cycle amplitude, units of x_c) vs P24a"
set xlabel 'cycle N'
set ylabel 'amplitude u = theta_max / x_c [-]'
set logscale y
set key bottom left
set arrow from graph 0, first 4 to graph 1, first 4 nohead dt 3 lc rgb '#888888'
set arrow from graph 0, first 0.7 to graph 1, first 0.7 nohead dt 3 lc rgb '#888888'
set label 'Coulomb region (linear)' at graph 0.7, first 5.5
set label 'viscous region (exponential)' at graph 0.7, first 1.6
set label 'structural region (hyperbolic)' at graph 0.7, first 0.5
plot '@DATA@/pendulum_envelope.csv' every ::1 using 1:2 with points pt 7 ps 1 lc rgb '#1f5fbf' title 'pf-demo pendulum, law = dahl', \
  '' every ::1 using 1:3 with lines lw 2 dt 2 lc rgb '#d62728' title 'P24a Coulomb', \
  '' every ::1 using 1:4 with lines lw 2 dt 2 lc rgb '#2ca02c' title 'P24a viscous', \
  '' every ::1 using 1:5 with lines lw 2 dt 2 lc rgb '#000000' title 'P24a structural'
