# SPDX-License-Identifier: Apache-2.0
# The install tree beyond the binary and the plugins: the plugin SDK
# (plugin.h, hostbench-plugin.pc, the hostbench CMake package), the man
# page and bash completion. Every path the SDK files name is relative to
# where they are installed, so a moved prefix keeps working.
#
# Included from the top-level CMakeLists.txt after HB_PLUGIN_INSTALL_DIR is
# set and before any install() rule, so the directory permissions below
# apply to every directory the install creates.

include(CMakePackageConfigHelpers)

# The loader refuses plugin directories writable by group or others; an
# install made under umask 002 must still load its own plugins.
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE
    GROUP_READ GROUP_EXECUTE
    WORLD_READ WORLD_EXECUTE)

# The ABI version the installed plugin.h speaks, read from the header so
# the SDK files can never disagree with it.
file(STRINGS "${PROJECT_SOURCE_DIR}/include/hostbench/plugin.h" hb_abi_lines
     REGEX "^#define HB_ABI_(MAJOR|MINOR) [0-9]+$")
foreach(line ${hb_abi_lines})
  string(REGEX MATCH "HB_ABI_(MAJOR|MINOR) ([0-9]+)" _ "${line}")
  set(HB_ABI_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
endforeach()
if(NOT DEFINED HB_ABI_MAJOR OR NOT DEFINED HB_ABI_MINOR)
  message(FATAL_ERROR "include/hostbench/plugin.h: no "
                      "#define HB_ABI_MAJOR/HB_ABI_MINOR lines found")
endif()

set(HB_PKGCONFIG_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
set(HB_CMAKE_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/hostbench")

# hostbench-plugin.pc: the prefix is found from the .pc file's own place
# (pkg-config's pcfiledir), not written in.
file(RELATIVE_PATH HB_PC_TO_PREFIX
     "/prefix/${HB_PKGCONFIG_INSTALL_DIR}" "/prefix")
string(REGEX REPLACE "/$" "" HB_PC_TO_PREFIX "${HB_PC_TO_PREFIX}")
configure_file("${CMAKE_CURRENT_LIST_DIR}/hostbench-plugin.pc.in"
               "${CMAKE_BINARY_DIR}/sdk/hostbench-plugin.pc" @ONLY)
install(FILES "${CMAKE_BINARY_DIR}/sdk/hostbench-plugin.pc"
        DESTINATION "${HB_PKGCONFIG_INSTALL_DIR}")

# hostbench-config.cmake and its version file, for find_package(hostbench).
configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/hostbench-config.cmake.in"
  "${CMAKE_BINARY_DIR}/sdk/hostbench-config.cmake"
  INSTALL_DESTINATION "${HB_CMAKE_INSTALL_DIR}"
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR HB_PLUGIN_INSTALL_DIR)
write_basic_package_version_file(
  "${CMAKE_BINARY_DIR}/sdk/hostbench-config-version.cmake"
  COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES "${CMAKE_BINARY_DIR}/sdk/hostbench-config.cmake"
              "${CMAKE_BINARY_DIR}/sdk/hostbench-config-version.cmake"
        DESTINATION "${HB_CMAKE_INSTALL_DIR}")

# The man page goes in compressed, as Debian policy asks; -n keeps the
# archive free of a time stamp, so builds are reproducible.
find_program(HB_GZIP gzip REQUIRED)
add_custom_command(
  OUTPUT "${CMAKE_BINARY_DIR}/sdk/hostbench.1.gz"
  COMMAND "${HB_GZIP}" -9nc "${PROJECT_SOURCE_DIR}/docs/man/hostbench.1"
          > "${CMAKE_BINARY_DIR}/sdk/hostbench.1.gz"
  DEPENDS "${PROJECT_SOURCE_DIR}/docs/man/hostbench.1"
  COMMENT "Compressing hostbench.1")
add_custom_target(hostbench_man ALL
  DEPENDS "${CMAKE_BINARY_DIR}/sdk/hostbench.1.gz")
install(FILES "${CMAKE_BINARY_DIR}/sdk/hostbench.1.gz"
        DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
install(FILES "${PROJECT_SOURCE_DIR}/docs/completion/hostbench.bash"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions"
        RENAME hostbench)

# The license (Apache-2.0, LICENSE) in the machine-readable form Debian
# policy asks for, where it asks for it (docs/packaging.md).
install(FILES "${CMAKE_CURRENT_LIST_DIR}/copyright"
        DESTINATION "${CMAKE_INSTALL_DOCDIR}")
