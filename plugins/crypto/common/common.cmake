# SPDX-License-Identifier: Apache-2.0
# The sources every crypto backend compiles in (the engine, the known
# answers, the target table, the transform slot), listed once for the plugins and the tests:
# include() this file, then use HB_CRYPTO_COMMON.
set(HB_CRYPTO_COMMON
    "${CMAKE_CURRENT_LIST_DIR}/engine.c"
    "${CMAKE_CURRENT_LIST_DIR}/jobs.c"
    "${CMAKE_CURRENT_LIST_DIR}/kat.c"
    "${CMAKE_CURRENT_LIST_DIR}/targets.c"
    "${CMAKE_CURRENT_LIST_DIR}/transform.c")

# The pk group's shared sources (targets, vectors, run loop); a backend
# adds its own pk calls.
set(HB_CRYPTO_PK
    "${CMAKE_CURRENT_LIST_DIR}/pk.c"
    "${CMAKE_CURRENT_LIST_DIR}/pk_kat.c"
    "${CMAKE_CURRENT_LIST_DIR}/pk_vectors.c")
