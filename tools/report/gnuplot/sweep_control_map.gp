set multiplot layout 2,@COLS@ title 'Shaking table: displacement after @DURATION@ over the vibration frequencies (A_x = A_y = 1 m/s)'
set xlabel 'omega_a [rad/s]'
set ylabel 'omega_b [rad/s]'
set size ratio -1
set xtics 600
set ytics 600
set format cb '%.6g'
set autoscale xfix
set autoscale yfix
set palette rgbformulae 33,13,10
