# ctest driver: install the build tree into a temporary prefix, then configure, build and run
# demos/example_installed against it, as a user's project would.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -P install_test.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
# EXTRA_FLAGS: compiler/linker flags the installed libraries need from their users (the
# sanitizer runtimes when the build under test is sanitised); empty otherwise.
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/demos/example_installed -B ${WORK_DIR}/build
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS=${EXTRA_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${EXTRA_FLAGS}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/pf_example)
# the pkg-config file must describe the same library
find_program(PKG_CONFIG_EXECUTABLE pkg-config)
if(PKG_CONFIG_EXECUTABLE)
  set(ENV{PKG_CONFIG_PATH} "${prefix}/lib/pkgconfig:${prefix}/lib/x86_64-linux-gnu/pkgconfig:$ENV{PKG_CONFIG_PATH}")
  run(${PKG_CONFIG_EXECUTABLE} --exists --print-errors patchfriction)
  execute_process(COMMAND ${PKG_CONFIG_EXECUTABLE} --cflags --libs patchfriction
    OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE)
  separate_arguments(flags)
  find_program(CC NAMES cc gcc clang)
  separate_arguments(extra UNIX_COMMAND "${EXTRA_FLAGS}")
  run(${CC} -std=c11 ${extra} ${SOURCE_DIR}/demos/example_installed/example.c -o ${WORK_DIR}/pf_example_pc ${flags})
  run(${WORK_DIR}/pf_example_pc)
endif()
