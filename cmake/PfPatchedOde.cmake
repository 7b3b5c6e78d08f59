# PF_WITH_PATCHED_ODE=ON: build ODE 0.16.2 from Debian 12's source package with patches/*.patch
# applied, at configure time, into ${PROJECT_BINARY_DIR}/ode-patched/prefix, and make
# pkg_check_modules(ODE IMPORTED_TARGET ode) (plugin/CMakeLists.txt) find it there instead of
# Debian's libode-dev. One mechanism for both builds: PkgConfig::ODE from an ode.pc.
#
# Steps (each logged to ode-patched/logs/):
#   1. ode_0.16.2-1.dsc, .orig.tar.gz, .debian.tar.xz from deb.debian.org (or
#      PF_ODE_SOURCE_ARCHIVE_DIR), SHA256-checked, unpacked with `dpkg-source --no-check -x` as
#      `apt-get source ode` does (apt checks the hashes itself; so do we, for all three files);
#   2. ${PF_ODE_PATCH_DIR}/*.patch in lexical order, `patch -p1 --forward --batch`;
#   3. autoreconf -fi, configure and make as debian/rules (dh, compat 13) does: dh_autoreconf,
#      the hardening=+all dpkg-buildflags, --enable-double-precision --with-libccd=system
#      --enable-libccd --enable-static; plus --disable-shared --with-pic (only libode.a exists, so
#      nothing can pick up /usr/lib/*/libode.so.8 at link or run time) and --disable-demos
#      --with-drawstuff=none (not part of libode);
#   4. make -j${PF_ODE_BUILD_JOBS} && make install, then ode.pc is rewritten: relocatable, and
#      libode.a's dependencies (libtool's dependency_libs + Libs.private) in Libs, because a
#      static-only ODE has no shared library to carry them.
#
# Rebuilds: the patch files, the patch directory's listing (CONFIGURE_DEPENDS glob) and this file
# are configure dependencies, so editing, adding or removing a patch re-runs CMake at the next
# `cmake --build`. ODE is rebuilt only when the recipe stamp (source hashes, patch names and
# SHA256s, configure arguments, build flags) differs from the one of the last successful build;
# the new libode.a and headers then relink and recompile their users through the normal
# dependencies of PkgConfig::ODE (full path to libode.a, header depfiles).

set(PF_ODE_SOURCE_ARCHIVE_DIR "" CACHE PATH
  "Directory holding ode_0.16.2-1.dsc, ode_0.16.2.orig.tar.gz and ode_0.16.2-1.debian.tar.xz (offline build); empty: download from deb.debian.org")
set(PF_ODE_PATCH_DIR "${PROJECT_SOURCE_DIR}/patches" CACHE PATH
  "Directory of the numbered *.patch files applied to ODE 0.16.2 in lexical order")
set(PF_ODE_BUILD_JOBS 2 CACHE STRING "Parallel jobs of the patched ODE's make")
set(PF_ODE_URL "http://deb.debian.org/debian/pool/main/o/ode" CACHE STRING
  "Debian pool directory of the ode source package")

set(_pfo_dir ${PROJECT_BINARY_DIR}/ode-patched)
set(_pfo_prefix ${_pfo_dir}/prefix)
set(_pfo_src ${_pfo_dir}/src/ode-0.16.2)
set(_pfo_logs ${_pfo_dir}/logs)
set(_pfo_stamp_file ${_pfo_dir}/ode-patched.stamp)
# Bump when the recipe changes in a way the stamp below does not capture.
set(_pfo_recipe 1)

set(_pfo_files ode_0.16.2-1.dsc ode_0.16.2.orig.tar.gz ode_0.16.2-1.debian.tar.xz)
set(_pfo_sha_ode_0.16.2-1.dsc 5bd430b3006cf7db17a772b098e78540a03fb39e1f249c7a39659cc421253ee8)
set(_pfo_sha_ode_0.16.2.orig.tar.gz b26aebdcb015e2d89720ef48e0cb2e8a3ca77915f89d853893e7cc861f810f22)
set(_pfo_sha_ode_0.16.2-1.debian.tar.xz f5ca5ff6f66ada4ceec77fc7f6bb048dc3d751555c644aa3d52043259ea3c1fd)

function(_pfo_fail what log)
  set(tail "")
  if(log AND EXISTS ${log})
    file(STRINGS ${log} lines)
    list(LENGTH lines n)
    if(n GREATER 40)
      math(EXPR first "${n} - 40")
      list(SUBLIST lines ${first} 40 lines)
    endif()
    list(JOIN lines "\n" tail)
    set(tail "\n--- last lines of ${log} ---\n${tail}\n")
  endif()
  message(FATAL_ERROR "Patched ODE: ${what}${tail}")
endfunction()

# Runs a step with its output in logs/<name>.log (or on the terminal if name is "-").
function(_pfo_run name)
  if(name STREQUAL "-")
    execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${_pfo_src} RESULT_VARIABLE rc)
    set(log "")
  else()
    set(log ${_pfo_logs}/${name}.log)
    execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${_pfo_src} RESULT_VARIABLE rc
      OUTPUT_FILE ${log} ERROR_FILE ${log})
  endif()
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    _pfo_fail("step '${name}' failed (${rc}): ${cmd}" "${log}")
  endif()
endfunction()

# --- 1. the Debian source package ----------------------------------------------------------------
set(_pfo_archives "")
foreach(f ${_pfo_files})
  set(sha ${_pfo_sha_${f}})
  if(PF_ODE_SOURCE_ARCHIVE_DIR)
    set(path ${PF_ODE_SOURCE_ARCHIVE_DIR}/${f})
    if(NOT EXISTS ${path})
      message(FATAL_ERROR "Patched ODE: PF_ODE_SOURCE_ARCHIVE_DIR=${PF_ODE_SOURCE_ARCHIVE_DIR} has no ${f}")
    endif()
  else()
    set(path ${_pfo_dir}/download/${f})
  endif()
  set(have "")
  if(EXISTS ${path})
    file(SHA256 ${path} have)
  endif()
  if(NOT have STREQUAL sha)
    if(PF_ODE_SOURCE_ARCHIVE_DIR)
      message(FATAL_ERROR "Patched ODE: ${path} has SHA256 ${have}, expected ${sha}")
    endif()
    message(STATUS "Patched ODE: downloading ${PF_ODE_URL}/${f}")
    file(DOWNLOAD ${PF_ODE_URL}/${f} ${path} EXPECTED_HASH SHA256=${sha} STATUS st)
    list(GET st 0 code)
    if(NOT code EQUAL 0)
      file(REMOVE ${path})
      message(FATAL_ERROR "Patched ODE: downloading ${PF_ODE_URL}/${f} failed: ${st}\n"
        "Offline: -DPF_ODE_SOURCE_ARCHIVE_DIR=<dir with ${_pfo_files}>")
    endif()
  endif()
  list(APPEND _pfo_archives ${path})
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${path})
endforeach()
list(GET _pfo_archives 0 _pfo_dsc)

# --- the patches and the recipe stamp ------------------------------------------------------------
file(GLOB _pfo_patches CONFIGURE_DEPENDS ${PF_ODE_PATCH_DIR}/*.patch)
list(SORT _pfo_patches)
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${_pfo_patches} ${CMAKE_CURRENT_LIST_FILE})

find_program(PF_DPKG_SOURCE dpkg-source)
find_program(PF_DPKG_BUILDFLAGS dpkg-buildflags)
find_program(PF_PATCH patch)
find_program(PF_AUTORECONF autoreconf)
find_program(PF_MAKE NAMES make gmake)
foreach(tool PF_DPKG_SOURCE PF_DPKG_BUILDFLAGS PF_PATCH PF_AUTORECONF PF_MAKE)
  if(NOT ${tool})
    message(FATAL_ERROR "Patched ODE: ${tool} not found; run ./cmake/install-deps.sh "
      "(dpkg-dev, patch, autoconf, automake, libtool, libccd-dev, make)")
  endif()
endforeach()

# Debian's compiler flags for this build (debian/rules: hardening=+all); -ffile-prefix-map
# depends on the source directory, so they are taken in it.
file(MAKE_DIRECTORY ${_pfo_dir})
set(_pfo_flags "")
foreach(v CFLAGS CXXFLAGS CPPFLAGS LDFLAGS)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env DEB_BUILD_MAINT_OPTIONS=hardening=+all
      ${PF_DPKG_BUILDFLAGS} --get ${v}
    WORKING_DIRECTORY ${_pfo_dir} OUTPUT_VARIABLE val OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "Patched ODE: dpkg-buildflags --get ${v} failed")
  endif()
  string(REPLACE "${_pfo_dir}" "${_pfo_src}" val "${val}")
  list(APPEND _pfo_flags "${v}=${val}")
endforeach()
set(_pfo_configure_args --prefix=${_pfo_prefix}
  --enable-double-precision --with-libccd=system --enable-libccd --enable-static
  --disable-shared --with-pic --disable-demos --with-drawstuff=none --enable-silent-rules)

set(_pfo_stamp "recipe ${_pfo_recipe}\n")
foreach(f ${_pfo_files})
  string(APPEND _pfo_stamp "source ${f} ${_pfo_sha_${f}}\n")
endforeach()
set(_pfo_patch_names "")
foreach(p ${_pfo_patches})
  file(SHA256 ${p} h)
  get_filename_component(n ${p} NAME)
  list(APPEND _pfo_patch_names ${n})
  string(APPEND _pfo_stamp "patch ${n} ${h}\n")
endforeach()
string(APPEND _pfo_stamp "configure ${_pfo_configure_args}\nflags ${_pfo_flags}\n")

set(_pfo_old_stamp "")
if(EXISTS ${_pfo_stamp_file})
  file(READ ${_pfo_stamp_file} _pfo_old_stamp)
endif()
list(LENGTH _pfo_patches _pfo_npatches)

if(_pfo_old_stamp STREQUAL _pfo_stamp AND EXISTS ${_pfo_prefix}/lib/libode.a
   AND EXISTS ${_pfo_prefix}/lib/pkgconfig/ode.pc)
  message(STATUS "Patched ODE: up to date (${_pfo_npatches} patches from ${PF_ODE_PATCH_DIR}) in ${_pfo_prefix}")
else()
  string(TIMESTAMP _pfo_t0 "%s")
  message(STATUS "Patched ODE: building ODE 0.16.2 (Debian 0.16.2-1) with ${_pfo_npatches} "
    "patches from ${PF_ODE_PATCH_DIR} (a few minutes; logs in ${_pfo_logs})")
  if(_pfo_npatches EQUAL 0)
    message(WARNING "Patched ODE: no *.patch in ${PF_ODE_PATCH_DIR}: building unpatched ODE")
  endif()
  file(REMOVE ${_pfo_stamp_file})
  file(REMOVE_RECURSE ${_pfo_dir}/src ${_pfo_prefix} ${_pfo_logs})
  file(MAKE_DIRECTORY ${_pfo_dir}/src ${_pfo_logs})

  message(STATUS "Patched ODE: [1/5] dpkg-source -x ${_pfo_dsc}")
  execute_process(COMMAND ${PF_DPKG_SOURCE} --no-check -x ${_pfo_dsc} ${_pfo_src}
    WORKING_DIRECTORY ${_pfo_dir}/src RESULT_VARIABLE rc
    OUTPUT_FILE ${_pfo_logs}/1-dpkg-source.log ERROR_FILE ${_pfo_logs}/1-dpkg-source.log)
  if(NOT rc EQUAL 0)
    _pfo_fail("dpkg-source -x ${_pfo_dsc} failed" ${_pfo_logs}/1-dpkg-source.log)
  endif()

  message(STATUS "Patched ODE: [2/5] applying ${_pfo_npatches} patches")
  foreach(p ${_pfo_patches})
    get_filename_component(n ${p} NAME)
    execute_process(COMMAND ${PF_PATCH} -p1 --forward --batch -i ${p}
      WORKING_DIRECTORY ${_pfo_src} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    file(APPEND ${_pfo_logs}/2-patch.log "== ${p}\n${out}")
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "Patched ODE: patch ${n} did not apply to ODE 0.16.2 (Debian 0.16.2-1)"
        " after the patches before it (patch -p1 --forward --batch -i ${p}; tree left in"
        " ${_pfo_src}):\n${out}")
    endif()
    message(STATUS "Patched ODE:       applied ${n}")
  endforeach()

  message(STATUS "Patched ODE: [3/5] autoreconf -fi (as dh_autoreconf)")
  _pfo_run(3-autoreconf ${PF_AUTORECONF} -f -i)

  list(JOIN _pfo_configure_args " " args)
  message(STATUS "Patched ODE: [4/5] configure ${args}")
  _pfo_run(4-configure ${CMAKE_COMMAND} -E env ${_pfo_flags} ./configure ${_pfo_configure_args})

  message(STATUS "Patched ODE: [5/5] make -j${PF_ODE_BUILD_JOBS} && make install")
  # Isolated from an outer make (re-configure during `cmake --build`): no inherited jobserver.
  _pfo_run(- ${CMAKE_COMMAND} -E env --unset=MAKEFLAGS --unset=MFLAGS --unset=MAKELEVEL
    ${PF_MAKE} -j${PF_ODE_BUILD_JOBS} --no-print-directory)
  _pfo_run(5-install ${CMAKE_COMMAND} -E env --unset=MAKEFLAGS --unset=MFLAGS --unset=MAKELEVEL
    ${PF_MAKE} install)

  # ode.pc: relocatable, and libode.a's own dependencies in Libs (there is no libode.so).
  file(READ ${_pfo_prefix}/lib/pkgconfig/ode.pc pc)
  file(STRINGS ${_pfo_prefix}/lib/libode.la dep REGEX "^dependency_libs=")
  string(REGEX REPLACE "^dependency_libs='(.*)'$" "\\1" dep "${dep}")
  string(REGEX MATCH "\nLibs.private:([^\n]*)" priv "${pc}")
  separate_arguments(deps UNIX_COMMAND "${dep} ${CMAKE_MATCH_1}")
  list(FILTER deps INCLUDE REGEX "^-l|^-pthread$")
  list(REMOVE_DUPLICATES deps)
  list(JOIN deps " " deps)
  string(REGEX REPLACE "(^|\n)prefix=[^\n]*" "\\1prefix=\${pcfiledir}/../.." pc "${pc}")
  string(REGEX REPLACE "\nLibs.private:[^\n]*" "" pc "${pc}")
  string(REGEX REPLACE "\nLibs:([^\n]*)" "\nLibs:\\1 ${deps}" pc "${pc}")
  string(REGEX REPLACE "\nDescription:([^\n]*)"
    "\nDescription:\\1 (Debian 0.16.2-1 + patchfriction patches, static)" pc "${pc}")
  file(WRITE ${_pfo_prefix}/lib/pkgconfig/ode.pc "${pc}")

  file(WRITE ${_pfo_stamp_file} "${_pfo_stamp}")
  string(TIMESTAMP _pfo_t1 "%s")
  math(EXPR _pfo_dt "${_pfo_t1} - ${_pfo_t0}")
  message(STATUS "Patched ODE: built and installed in ${_pfo_prefix} (${_pfo_dt} s)")
endif()

# --- 5. point pkg-config at it ------------------------------------------------------------------
# A cached library path from before the patched ODE existed must not survive.
if(DEFINED CACHE{pkgcfg_lib_ODE_ode} AND NOT pkgcfg_lib_ODE_ode MATCHES "^${_pfo_prefix}/")
  unset(pkgcfg_lib_ODE_ode CACHE)
endif()
set(ENV{PKG_CONFIG_PATH} "${_pfo_prefix}/lib/pkgconfig:$ENV{PKG_CONFIG_PATH}")
set(PF_PATCHED_ODE_PREFIX ${_pfo_prefix})
set(PF_PATCHED_ODE_PATCHES ${_pfo_patch_names})

# --- install: the package of a patched build carries its ODE ---------------------------------
# (headers, libode.a and an ode.pc relative to the install prefix, which the installed
# patchfriction.pc's "Requires: ode" and patchfrictionConfig.cmake's pkg_check_modules find when
# the prefix is on CMAKE_PREFIX_PATH / PKG_CONFIG_PATH). Not into /usr: that is libode-dev's.
include(GNUInstallDirs)
file(READ ${_pfo_prefix}/lib/pkgconfig/ode.pc _pfo_pc)
file(RELATIVE_PATH _pfo_up "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" _pfo_up "${_pfo_up}")
string(REGEX REPLACE "(^|\n)prefix=[^\n]*" "\\1prefix=\${pcfiledir}/${_pfo_up}" _pfo_pc "${_pfo_pc}")
string(REGEX REPLACE "\nlibdir=[^\n]*" "\nlibdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}" _pfo_pc "${_pfo_pc}")
string(REGEX REPLACE "\nincludedir=[^\n]*" "\nincludedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}"
  _pfo_pc "${_pfo_pc}")
file(WRITE ${_pfo_dir}/install/ode.pc "${_pfo_pc}")
install(CODE "
  if(CMAKE_INSTALL_PREFIX MATCHES \"^/usr/?$\")
    message(FATAL_ERROR \"patched-ODE build: installing into /usr would overwrite Debian's libode-dev; use another --prefix\")
  endif()")
install(FILES ${_pfo_prefix}/lib/libode.a DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${_pfo_dir}/install/ode.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(DIRECTORY ${_pfo_prefix}/include/ode DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
