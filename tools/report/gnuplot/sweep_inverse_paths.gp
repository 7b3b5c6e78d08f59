set title '@TITLE@'
set xrange [@XRANGE@]
set yrange [@YRANGE@]
plot '@START_CSV@' every ::1 using 2:3 with lines lw 1.5 lc rgb '#999999' title sprintf('map start (%.1f, %.1f) rad/s', @START_A@, @START_B@), \
     '@BEST_CSV@' every ::1 using 2:3 with lines lw 2 lc rgb '#1f5fbf' title sprintf('refined (%.2f, %.2f) rad/s', @BEST_A@, @BEST_B@), \
     '-' using 1:2 with points pt 6 ps 2.5 lw 2 lc rgb '#d62728' title 'target'
@TARGET@
e
