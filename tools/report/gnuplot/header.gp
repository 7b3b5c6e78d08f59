set datafile separator ','
set grid
set key outside right top vertical
set xtics rotate by -25
