set datafile separator ','
set grid
set multiplot layout 1,2 title 'Eccentric push, Monte Carlo breakaway (exact, CA criterion): mu_s, h and mass uncertain'
w = 0.5
bin(x) = w * floor(x / w) + w / 2
set style fill solid 0.5
unset xlabel
set ylabel 'runs per 0.5 mN'
set key below
