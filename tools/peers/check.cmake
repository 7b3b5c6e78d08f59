# pf-peer-check: the peer programs' tests' checker (pf_peer_check.c), shared by ode.cmake and
# bullet.cmake; its limit-set reference is the cubature of tests/support (pf_test_core).
if(NOT TARGET pf-peer-check)
  add_executable(pf-peer-check ${CMAKE_CURRENT_LIST_DIR}/pf_peer_check.c)
  target_include_directories(pf-peer-check PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  target_link_libraries(pf-peer-check PRIVATE pf_test_core PkgConfig::JANSSON m pf_warnings)
endif()
