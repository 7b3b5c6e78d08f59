set title 'h = @H@ mm: breakaway force [mN]'
unset arrow
set arrow 1 from @PAPER@, graph 0 to @PAPER@, graph 1 nohead front lw 2.5 lc rgb '#d62728'
set arrow 2 from @MEAN@, graph 0 to @MEAN@, graph 1 nohead front lw 1.5 dt 2 lc rgb '#000000'
plot '@CSV@' every ::1 using (strcol(@STATUS_COL@) eq 'ok' ? bin(1000 * $@FORCE_COL@) : NaN):(1.0) smooth frequency with boxes lc rgb '#1f5fbf' title sprintf('%.0f runs', @RUNS@), NaN with lines lw 2.5 lc rgb '#d62728' title 'measured (paper) @PAPER_MN@ mN', NaN with lines lw 1.5 dt 2 lc rgb '#000000' title 'mean @MEAN_MN@ mN'
