# SPDX-License-Identifier: Apache-2.0
# `cpack -G DEB` in a build directory: one hostbench .deb with the binary,
# every plugin this build made, hostbench-serve, the suites, the SDK, the
# man page and bash completion, installed under /usr. The package's
# dependencies come from dpkg-shlibdeps over the binary and the plugins, so
# they name exactly the libraries this build links (libssl3, libgcrypt20,
# libxxhash0, libinih1, libjansson4, ...), with their minimal versions.
# Needs dpkg-dev and file (see docs/packaging.md).

set(CPACK_PACKAGE_NAME "hostbench")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "hostbench")
# dpkg needs a Maintainer; a distributor sets their own.
set(HOSTBENCH_DEB_MAINTAINER "hostbench developers"
    CACHE STRING "Maintainer field of the .deb cpack builds")
set(CPACK_PACKAGE_CONTACT "${HOSTBENCH_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "host benchmark for secure, high-speed data movement")
set(CPACK_PACKAGE_DESCRIPTION
    "hostbench measures what a host can do for secure, high-speed data
movement: cipher and MAC throughput (OpenSSL and libgcrypt side by
side), integrity hashing, memory bandwidth, file I/O and network
transfer. Benchmark kernels are plugins; an INI suite says what to run;
reports come as text, JSON, CSV or Markdown. The package also holds the
plugin SDK (hostbench/plugin.h, hostbench-plugin.pc, a CMake package).")
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "utils")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# fio and iperf3 are what the bench/ comparisons run against.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "fio, iperf3")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

include(CPack)
