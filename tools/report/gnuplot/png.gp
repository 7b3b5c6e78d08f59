reset
set terminal pngcairo size @WIDTH@,@HEIGHT@ font ',10' noenhanced
set output '@OUTPUT@'
