# Run a peer program (PROGRAM, with ARGS, writing OUT) and check its JSON with CHECK (CHECK_ARGS):
# cmake -DPROGRAM=... -DCHECK=... -DOUT=file.json [-DARGS=--quick] [-DCHECK_ARGS=...] -P run_check.cmake
separate_arguments(args UNIX_COMMAND "${ARGS}")
separate_arguments(check_args UNIX_COMMAND "${CHECK_ARGS}")
file(REMOVE ${OUT})
execute_process(COMMAND ${PROGRAM} --out ${OUT} ${args} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} --out ${OUT} ${ARGS} failed: ${rc}")
endif()
execute_process(COMMAND ${CHECK} ${OUT} ${check_args} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${CHECK} ${OUT} ${CHECK_ARGS} failed: ${rc}")
endif()
