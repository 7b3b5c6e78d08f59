# Find Steven G. Johnson's cubature library (Debian: libcubature-dev; ships no .pc / CMake file).
# Defines Cubature::Cubature.
find_path(Cubature_INCLUDE_DIR cubature.h)
find_library(Cubature_LIBRARY cubature)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Cubature REQUIRED_VARS Cubature_LIBRARY Cubature_INCLUDE_DIR)
if(Cubature_FOUND AND NOT TARGET Cubature::Cubature)
  add_library(Cubature::Cubature UNKNOWN IMPORTED)
  set_target_properties(Cubature::Cubature PROPERTIES
    IMPORTED_LOCATION "${Cubature_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Cubature_INCLUDE_DIR}")
endif()
mark_as_advanced(Cubature_INCLUDE_DIR Cubature_LIBRARY)
