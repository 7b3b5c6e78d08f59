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
                        pf_peer_json m pf_warnings)

  if(PF_BUILD_TESTS)
    include(${CMAKE_CURRENT_LIST_DIR}/check.cmake)
    # physics: patchfriction's h = 5 mm breakaway within 1 % of the limit-set breakaway from
    # cubature (tests/support/pf_ref_quad.c), its direction spread < 0.5 %
    pf_peer_check_tests(ode)
  endif()
else()
  message(STATUS "pf-peer-ode: not built (the scene module pf_scenes is not built)")
endif()
