set title '@TITLE@'
set xlabel 'time t [s]'
set ylabel ''
set yrange [-0.5:4.3]
set ytics ('@L0@' 0.4, '@L1@' 1.4, '@L2@' 2.4, '@L3@' 3.4)
unset key
plot @PLOTS@
