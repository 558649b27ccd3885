#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The change-point detector on synthetic series: precision and recall of
# steps of 5, 10 and 20% under 1, 2 and 5% CV noise, false alarms on
# step-free series, and the time of 1,000 series of 200 points.
# Usage: bench/regressions.sh [TRIALS] [ALPHA] [MIN_CHANGE]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top="$here/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -I"$top/core" -o "$tmp/regressions" "$here/regressions.c" \
	"$top/core/history/changepoint.c" "$top/core/history/changepoint_ttest.c" \
	"$top/core/history/robust.c" "$top/core/history/segfit.c" \
	"$top/core/history/cpsearch.c" "$top/core/history/regress.c" \
	"$top/core/base/siphash.c" -ljansson -lm
"$tmp/regressions" "$@"
