# CTest physics check of a peer program's JSON: the h = 0 breakaway force of every configuration
# within TOL of mu_s m g (a push through the mass centre of a block on a plane).
# cmake -DJSON=file.json -DMU_S=0.55 -DMASS=0.0081 -DTOL=0.05 -P peer_breakaway.cmake
file(READ ${JSON} js)
string(JSON n LENGTH "${js}")
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  string(JSON cfg GET "${js}" ${i} config)
  string(JSON t TYPE "${js}" ${i} push_breakaway_N 0)
  if(NOT t STREQUAL "NUMBER")
    message(FATAL_ERROR "${cfg}: no h = 0 breakaway force (${t})")
  endif()
  string(JSON f GET "${js}" ${i} push_breakaway_N 0)
  execute_process(COMMAND awk "BEGIN{f=${f}; r=${MU_S}*${MASS}*9.81; e=(f-r)/r; if(e<0)e=-e;
                               printf \"%.4f %.6g\", e, r; exit (e <= ${TOL} ? 0 : 1)}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${cfg}: h = 0 breakaway ${f} N is off mu_s m g by more than ${TOL} "
                        "(relative error, mu_s m g: ${out})")
  endif()
  message(STATUS "${cfg}: h = 0 breakaway ${f} N (relative error, mu_s m g: ${out})")
endforeach()
