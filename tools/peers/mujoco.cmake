# pf-peer-mujoco: the peer-comparison cases in MuJoCo (Debian's libmujoco-dev, 2.2.2), condim 3
# and condim 4; built only when find_package(mujoco) finds it.
find_package(mujoco CONFIG QUIET)
if(NOT mujoco_FOUND)
  message(STATUS "pf-peer-mujoco: MuJoCo not found (libmujoco-dev), the report's MuJoCo columns "
                 "will say so")
  return()
endif()
message(STATUS "pf-peer-mujoco: MuJoCo ${mujoco_VERSION}")
# Debian's mujocoTargets.cmake (2.2.2) lists /usr/include/libqhull_r/ among the imported target's
# include directories, which libmujoco-dev does not install (MuJoCo's headers do not need it);
# CMake refuses a non-existent path there, so drop the ones that do not exist.
get_target_property(pf_mujoco_incs mujoco::mujoco INTERFACE_INCLUDE_DIRECTORIES)
set(pf_mujoco_incs_ok "")
foreach(dir IN LISTS pf_mujoco_incs)
  if(EXISTS "${dir}")
    list(APPEND pf_mujoco_incs_ok "${dir}")
  endif()
endforeach()
set_target_properties(mujoco::mujoco PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${pf_mujoco_incs_ok}")
add_executable(pf-peer-mujoco ${CMAKE_CURRENT_LIST_DIR}/pf_peer_mujoco.c)
target_include_directories(pf-peer-mujoco PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_compile_definitions(pf-peer-mujoco PRIVATE _POSIX_C_SOURCE=200809L)
target_link_libraries(pf-peer-mujoco PRIVATE mujoco::mujoco pf_peer_json m pf_warnings)

if(PF_BUILD_TESTS)
  # the program runs end to end and writes a JSON array whose numbers are all finite
  add_test(NAME peer_mujoco_smoke
    COMMAND ${CMAKE_COMMAND} -DPEER=$<TARGET_FILE:pf-peer-mujoco>
            -DOUT=${CMAKE_CURRENT_BINARY_DIR}/peer-mujoco-smoke.json
            -P ${CMAKE_CURRENT_LIST_DIR}/peer_smoke.cmake)
  # physics: MuJoCo's h = 0 breakaway within 5 % of mu_s m g (condim 3 and 4)
  add_test(NAME peer_mujoco_breakaway
    COMMAND ${CMAKE_COMMAND} -DJSON=${CMAKE_CURRENT_BINARY_DIR}/peer-mujoco-smoke.json
            -DMU_S=0.55 -DMASS=0.0081 -DTOL=0.05
            -P ${CMAKE_CURRENT_LIST_DIR}/peer_breakaway.cmake)
  set_tests_properties(peer_mujoco_smoke PROPERTIES TIMEOUT 600 FIXTURES_SETUP peer_mujoco_json)
  set_tests_properties(peer_mujoco_breakaway PROPERTIES FIXTURES_REQUIRED peer_mujoco_json)
endif()
