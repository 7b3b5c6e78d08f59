# pf-peer-ode: the peer-comparison cases in ODE, stock point friction and patchfriction
# (pf_peer_ode.c). ODE is always there (the plugin needs it); the pinch cell uses the scene module.
if(TARGET pf_scenes)
  add_executable(pf-peer-ode ${CMAKE_CURRENT_LIST_DIR}/pf_peer_ode.c)
  target_include_directories(pf-peer-ode PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  if(NOT ODE_VERSION)
    set(ODE_VERSION "0.16")
  endif()
  target_compile_definitions(pf-peer-ode PRIVATE _POSIX_C_SOURCE=200809L
                             PF_PEER_ODE_VERSION="${ODE_VERSION}")
  target_link_libraries(pf-peer-ode PRIVATE pf_scenes patchfriction::patchfriction
                        PkgConfig::JANSSON m pf_warnings)

  if(PF_BUILD_TESTS)
    include(${CMAKE_CURRENT_LIST_DIR}/check.cmake)
    # smoke: --quick runs, the JSON parses and every number is finite or null
    add_test(NAME peer_ode_smoke
      COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:pf-peer-ode>
              -DCHECK=$<TARGET_FILE:pf-peer-check> -DOUT=${CMAKE_CURRENT_BINARY_DIR}/peer-ode-quick.json
              -DARGS=--quick -P ${CMAKE_CURRENT_LIST_DIR}/run_check.cmake)
    # physics: a full run; patchfriction's h = 5 mm breakaway within 1 % of the limit-set
    # breakaway from cubature (tests/support/pf_ref_quad.c), its direction spread < 0.5 %
    add_test(NAME peer_ode_physics
      COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:pf-peer-ode>
              -DCHECK=$<TARGET_FILE:pf-peer-check> -DOUT=${CMAKE_CURRENT_BINARY_DIR}/peer-ode.json
              "-DCHECK_ARGS=--ode-physics"
              -P ${CMAKE_CURRENT_LIST_DIR}/run_check.cmake)
    set_tests_properties(peer_ode_smoke PROPERTIES LABELS peer)
    set_tests_properties(peer_ode_physics PROPERTIES LABELS "peer;long" TIMEOUT 900)
  endif()
else()
  message(STATUS "pf-peer-ode: not built (the scene module pf_scenes is not built)")
endif()
