set format x '%.3g'
set format y '%.3g'
set xtics rotate by -35
set title '@TITLE@'
set xlabel '@XLABEL@'
set ylabel '@YLABEL@'
plot '@CSV@' every ::1 using ($1 >= @FROM@ ? $@XCOL@ : NaN):@YCOL@ with lines lw 1.5 lc rgb '#1f5fbf'
