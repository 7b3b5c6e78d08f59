set title 'Eccentric push: breakaway force vs offset h of the push (exact patch friction under two stick criteria, stock ODE friction, reference)'
set xlabel 'offset h of the push from the mass centre [mm]'
set ylabel 'breakaway force [N]'
set key bottom left
set offsets 0.5,0.5,0,0
set yrange [0:*]
plot '@DATA@/eccentric_push_criteria.csv' every ::1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 lc rgb '#1f5fbf'  title 'exact, CA criterion', \
     '@DATA@/eccentric_push_criteria.csv' every ::1 using 1:3 with linespoints lw 2 pt 7 ps 1.3 lc rgb '#ff7f0e'  title 'exact, limit-surface criterion', \
     '@DATA@/eccentric_push_criteria.csv' every ::1 using 1:4 with linespoints lw 2 pt 9 ps 1.3 lc rgb '#d62728'  title 'stock ODE friction', \
     '@DATA@/eccentric_push_criteria.csv' every ::1 using 1:5 with linespoints lw 2 pt 11 ps 1.3 lc rgb '#000000' dt 2 title 'reference, CA', \
     '@DATA@/eccentric_push_criteria.csv' every ::1 using 1:6 with linespoints lw 2 pt 13 ps 1.3 lc rgb '#7f7f7f' dt 3 title 'reference, limit surface'
