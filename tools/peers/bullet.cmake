# pf-peer-bullet: the peer-comparison cases in Bullet 3.24 (Debian's libbullet-dev, pkg-config
# `bullet`), without and with spinning friction (pf_peer_bullet.cpp). Built only when Bullet is
# installed (cmake/install-deps.sh installs it).
pkg_check_modules(BULLET IMPORTED_TARGET bullet)
if(BULLET_FOUND)
  enable_language(CXX)
  add_executable(pf-peer-bullet ${CMAKE_CURRENT_LIST_DIR}/pf_peer_bullet.cpp)
  set_target_properties(pf-peer-bullet PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON
                        CXX_EXTENSIONS OFF)
  target_include_directories(pf-peer-bullet PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  target_compile_definitions(pf-peer-bullet PRIVATE PF_PEER_BULLET_VERSION="${BULLET_VERSION}")
  # pf_warnings carries C-only flags (-Wmissing-prototypes, -Wstrict-prototypes): the C++ set here
  target_compile_options(pf-peer-bullet PRIVATE -Wall -Wextra -Wpedantic -Wshadow)
  if(PF_WERROR)
    target_compile_options(pf-peer-bullet PRIVATE -Werror)
  endif()
  # the core only for the pinch's closed-form limit d* (the normaliser of its ratio)
  target_link_libraries(pf-peer-bullet PRIVATE PkgConfig::BULLET patchfriction::core
                        PkgConfig::JANSSON m)

  if(PF_BUILD_TESTS)
    include(${CMAKE_CURRENT_LIST_DIR}/check.cmake)
    add_test(NAME peer_bullet_smoke
      COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:pf-peer-bullet>
              -DCHECK=$<TARGET_FILE:pf-peer-check>
              -DOUT=${CMAKE_CURRENT_BINARY_DIR}/peer-bullet-quick.json
              -DARGS=--quick -P ${CMAKE_CURRENT_LIST_DIR}/run_check.cmake)
    # physics: a full run; Bullet's h = 0 breakaway within 5 % of mu_s m g in both configs
    add_test(NAME peer_bullet_physics
      COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:pf-peer-bullet>
              -DCHECK=$<TARGET_FILE:pf-peer-check>
              -DOUT=${CMAKE_CURRENT_BINARY_DIR}/peer-bullet.json
              "-DCHECK_ARGS=--bullet-physics"
              -P ${CMAKE_CURRENT_LIST_DIR}/run_check.cmake)
    set_tests_properties(peer_bullet_smoke PROPERTIES LABELS peer)
    set_tests_properties(peer_bullet_physics PROPERTIES LABELS "peer;long" TIMEOUT 900)
  endif()
else()
  message(STATUS "pf-peer-bullet: not built (pkg-config finds no bullet; cmake/install-deps.sh "
                 "installs libbullet-dev)")
endif()
