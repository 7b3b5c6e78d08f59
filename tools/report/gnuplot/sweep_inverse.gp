set datafile separator ','
set grid
set multiplot layout 1,3 title 'Inverse search (Pade): vibration that brings the ball to (@TARGET_X@, @TARGET_Y@) m at t = 1 s'
set xlabel 'x (down-slope) [m]'
set ylabel 'y [m]'
set key left top
