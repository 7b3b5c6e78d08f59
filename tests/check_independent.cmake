# Fails if the static library LIB (an independent reference) leaves a plugin function undefined,
# i.e. calls code of the plugin: every undefined symbol named pf_* must be one of its own pf_ref_*.
# Run as: cmake -DNM=<nm> -DLIB=<library> -P check_independent.cmake
execute_process(COMMAND ${NM} -u ${LIB} OUTPUT_VARIABLE undefined RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -u ${LIB} failed (${rc})")
endif()
string(REGEX MATCHALL "[ \t\n]pf_[A-Za-z0-9_]+" names "${undefined}")
set(bad "")
foreach(n IN LISTS names)
  string(STRIP "${n}" n)
  if(NOT n MATCHES "^pf_ref_")
    list(APPEND bad ${n})
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "the reference calls plugin code: ${bad}")
endif()
message(STATUS "no plugin symbol undefined in ${LIB}")
