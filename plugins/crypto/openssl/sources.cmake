# SPDX-License-Identifier: Apache-2.0
# The OpenSSL backend's sources, listed once for the plugin, the test
# builds and the fixtures: include() this file, then use
# HB_CRYPTO_OPENSSL_OPS (the primitives, job calls and their fibers) or
# HB_CRYPTO_OPENSSL (the whole plugin).
set(HB_CRYPTO_OPENSSL_OPS
    "${CMAKE_CURRENT_LIST_DIR}/ossl_ops.c"
    "${CMAKE_CURRENT_LIST_DIR}/ossl_jobs.c"
    "${CMAKE_CURRENT_LIST_DIR}/ossl_async.c")
set(HB_CRYPTO_OPENSSL
    "${CMAKE_CURRENT_LIST_DIR}/plugin.c"
    ${HB_CRYPTO_OPENSSL_OPS})
