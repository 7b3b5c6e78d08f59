set datafile separator ','
set grid
set multiplot layout 1,2 title 'Across the ridge: omega_a = 1100 rad/s, omega_b from 1080 to 1120 rad/s (1 s)'
set xlabel 'omega_b - omega_a [rad/s]'
set ylabel 'distance [m]'
plot @DISTANCE@
set ylabel 'direction [deg]'
plot @DIRECTION@
unset multiplot
