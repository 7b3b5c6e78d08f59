# pf-peer-check: the peer programs' tests' checker (pf_peer_check.c), shared by ode.cmake and
# bullet.cmake; its limit-set reference is the cubature of tests/support (pf_test_core).
if(NOT TARGET pf-peer-check)
  add_executable(pf-peer-check ${CMAKE_CURRENT_LIST_DIR}/pf_peer_check.c)
  target_include_directories(pf-peer-check PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  target_link_libraries(pf-peer-check PRIVATE pf_test_core PkgConfig::JANSSON m pf_warnings)
endif()

# The two checked tests of the peer program pf-peer-ENGINE: peer_ENGINE_smoke (--quick runs, the
# JSON parses and every number is finite or null) and peer_ENGINE_physics (a full run, checked
# with pf-peer-check --ENGINE-physics).
set(PF_PEER_RUN_CHECK ${CMAKE_CURRENT_LIST_DIR}/run_check.cmake)
function(pf_peer_check_tests engine)
  add_test(NAME peer_${engine}_smoke
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:pf-peer-${engine}>
            -DCHECK=$<TARGET_FILE:pf-peer-check>
            -DOUT=${CMAKE_CURRENT_BINARY_DIR}/peer-${engine}-quick.json
            -DARGS=--quick -P ${PF_PEER_RUN_CHECK})
  add_test(NAME peer_${engine}_physics
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:pf-peer-${engine}>
            -DCHECK=$<TARGET_FILE:pf-peer-check>
            -DOUT=${CMAKE_CURRENT_BINARY_DIR}/peer-${engine}.json
            "-DCHECK_ARGS=--${engine}-physics"
            -P ${PF_PEER_RUN_CHECK})
  set_tests_properties(peer_${engine}_smoke PROPERTIES LABELS peer)
  set_tests_properties(peer_${engine}_physics PROPERTIES LABELS "peer;long" TIMEOUT 900)
endfunction()
