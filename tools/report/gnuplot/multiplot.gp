set multiplot layout @ROWS@,@COLS@ title '@TITLE@'
