/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hb_fixture() builds fixture.c of the directory that calls it: the fleet
 * variants (tests/integration/fleet/CMakeLists.txt) are the one fixture
 * source of tests/fixtures, nothing of their own.
 */
#include "../../fixtures/fixture.c"
