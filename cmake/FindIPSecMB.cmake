# SPDX-License-Identifier: Apache-2.0
# FindIPSecMB: Intel's multi-buffer crypto library (intel-ipsec-mb, Debian's
# libipsec-mb-dev), which ships no pkg-config file. Reads the version from
# IMB_VERSION_STR in its header. Sets IPSecMB_FOUND, IPSecMB_VERSION,
# IPSecMB_INCLUDE_DIR, IPSecMB_LIBRARY and the imported target
# IPSecMB::IPSecMB (global: the backend's library links it, and tests in
# other directories link that). Honours QUIET and a minimum version.
find_path(IPSecMB_INCLUDE_DIR intel-ipsec-mb.h)
find_library(IPSecMB_LIBRARY NAMES IPSec_MB)

if(IPSecMB_INCLUDE_DIR AND EXISTS "${IPSecMB_INCLUDE_DIR}/intel-ipsec-mb.h")
  file(STRINGS "${IPSecMB_INCLUDE_DIR}/intel-ipsec-mb.h" _ipsecmb_line
       REGEX "^#define[ \t]+IMB_VERSION_STR[ \t]+\"[0-9.]+\"")
  string(REGEX REPLACE ".*\"([0-9.]+)\".*" "\\1" IPSecMB_VERSION
         "${_ipsecmb_line}")
  unset(_ipsecmb_line)
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(IPSecMB
  REQUIRED_VARS IPSecMB_LIBRARY IPSecMB_INCLUDE_DIR
  VERSION_VAR IPSecMB_VERSION)

if(IPSecMB_FOUND AND NOT TARGET IPSecMB::IPSecMB)
  add_library(IPSecMB::IPSecMB UNKNOWN IMPORTED GLOBAL)
  set_target_properties(IPSecMB::IPSecMB PROPERTIES
    IMPORTED_LOCATION "${IPSecMB_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${IPSecMB_INCLUDE_DIR}")
endif()
mark_as_advanced(IPSecMB_INCLUDE_DIR IPSecMB_LIBRARY)
