set title '@TITLE@'
set xlabel '@XLABEL@'
set ylabel '@YLABEL@'
plot @PLOTS@
