# Install rules, exported CMake package (find_package(patchfriction) ->
# patchfriction::patchfriction, patchfriction::core, patchfriction::laws) and patchfriction.pc.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(PF_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/patchfriction)
# pf_warnings is linked as $<BUILD_INTERFACE:pf_warnings> (plugin/CMakeLists.txt), so the export
# does not name it and it is not installed.
install(TARGETS patchfriction_core patchfriction_laws patchfriction EXPORT patchfrictionTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/patchfriction
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(EXPORT patchfrictionTargets NAMESPACE patchfriction:: FILE patchfrictionTargets.cmake
  DESTINATION ${PF_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/patchfrictionConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/patchfrictionConfig.cmake
  INSTALL_DESTINATION ${PF_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/patchfrictionConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/patchfrictionConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/patchfrictionConfigVersion.cmake
  DESTINATION ${PF_INSTALL_CMAKEDIR})

# pkg-config: the three libraries in link order, Requires: ode
set(PF_PC_LIBS "-lpatchfriction -lpatchfriction_laws -lpatchfriction_core -lm")
# relative path from the .pc file's directory up to the prefix (relocatable package)
file(RELATIVE_PATH PF_PC_UP "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" PF_PC_UP "${PF_PC_UP}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/patchfriction.pc.in
  ${CMAKE_CURRENT_BINARY_DIR}/patchfriction.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/patchfriction.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
