reset
set terminal pngcairo size @WIDTH@,@HEIGHT@ font ',10' noenhanced
set output '@OUTPUT@'
set datafile separator ','
set grid
set key outside right top vertical
set xtics rotate by -25
