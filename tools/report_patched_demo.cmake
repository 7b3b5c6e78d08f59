# The report target of the default build (Debian's ODE) runs this first: it configures and builds
# pf-demo of this same source tree against ODE 0.16.2 built from Debian's source with patches/
# (the `patched` preset, into build-patched/), so that pf-report can fill the in-solver coupling's
# cells (--demo-patched). A failure (offline, no dpkg-dev, a patch that does not apply) does not
# stop the report: STATUS gets the reason, pf-report states it in the README and leaves those
# cells "not run". The first build of ODE takes one to two minutes on two cores; afterwards only
# what changed is rebuilt.
# cmake -DSRC=<source dir> -DSTATUS=<file> -DJOBS=2 -P report_patched_demo.cmake
file(REMOVE ${STATUS})
set(log ${STATUS}.log)
message(STATUS "Report: building pf-demo against the patched ODE (preset patched, build-patched/; log ${log})")
# run outside the outer make's jobserver
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env --unset=MAKEFLAGS --unset=MFLAGS --unset=MAKELEVEL
          ${CMAKE_COMMAND} --preset patched
  WORKING_DIRECTORY ${SRC} RESULT_VARIABLE rc OUTPUT_FILE ${log} ERROR_FILE ${log})
if(rc EQUAL 0)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env --unset=MAKEFLAGS --unset=MFLAGS --unset=MAKELEVEL
            ${CMAKE_COMMAND} --build --preset patched -j${JOBS} --target pf-demo
    WORKING_DIRECTORY ${SRC} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  file(APPEND ${log} "${out}")
  set(what "cmake --build --preset patched --target pf-demo")
else()
  set(what "cmake --preset patched")
endif()
if(rc EQUAL 0)
  file(WRITE ${STATUS} "ok\n")
  message(STATUS "Report: pf-demo against the patched ODE is up to date")
else()
  # the last error line of the log, for the README
  file(STRINGS ${log} lines REGEX "[Ee]rror|failed|FATAL")
  list(LENGTH lines n)
  set(last "")
  if(n GREATER 0)
    math(EXPR i "${n} - 1")
    list(GET lines ${i} last)
  endif()
  file(WRITE ${STATUS} "failed\n'${what}' failed (${rc}; log ${log}): ${last}\n")
  message(WARNING "Report: '${what}' failed (${rc}); the in-solver cells will say so. Log: ${log}")
endif()
