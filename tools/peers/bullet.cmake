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
                        pf_peer_json m)

  if(PF_BUILD_TESTS)
    include(${CMAKE_CURRENT_LIST_DIR}/check.cmake)
    # physics: Bullet's h = 0 breakaway within 5 % of mu_s m g in both configs
    pf_peer_check_tests(bullet)
  endif()
else()
  message(STATUS "pf-peer-bullet: not built (pkg-config finds no bullet; cmake/install-deps.sh "
                 "installs libbullet-dev)")
endif()
