#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The time `hostbench compare` and `merge` take on two large reports: CASES
# cases of SAMPLES samples each (bench/big_reports.py writes them). The
# rank-sum test sorts the samples (O(n log n)); cases are paired through an
# index (compare/match.h), so many cases cost no more than many samples:
# `bench/compare.sh build 20000 5` times 20,000 results a side.
#
# Usage: bench/compare.sh [BUILD_DIR] [CASES] [SAMPLES]   (build 3 100000)
set -eu
build=${1:-build}
cases=${2:-3}
samples=${3:-100000}
here=$(dirname "$0")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

python3 "$here/big_reports.py" "$dir/base.json" "$dir/new.json" \
	"$cases" "$samples"
echo "reports: $(du -h "$dir/base.json" | cut -f1) each," \
	"$cases cases x $samples samples"
for round in 1 2 3; do
	/usr/bin/time -f "round $round: compare %e s wall, %U s user, %S s system" \
		"$build/hostbench" compare "$dir/base.json" "$dir/new.json" \
		>/dev/null
	/usr/bin/time -f "round $round: merge %e s wall, %U s user, %S s system" \
		"$build/hostbench" merge "$dir/base.json" "$dir/new.json" \
		>/dev/null
done
