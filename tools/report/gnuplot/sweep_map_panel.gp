set title '@MODE@: @WHAT@'
plot '@DAT@' using 1:2:@COL@ with image notitle
