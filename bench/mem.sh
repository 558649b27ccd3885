#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# mem/memcpy against a plain memcpy loop, same buffer size, same machine,
# one after the other, three rounds; prints each figure and the ratio
# hostbench / plain (1.00 = the framework adds nothing).
# Usage: bench/mem.sh [BUILD_DIR] [SIZE_MIB] [SECONDS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
mib=${2:-256}
secs=${3:-5}
bytes=$((mib * 1048576))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cc -O2 -o "$tmp/memcpy_loop" "$here/memcpy_loop.c"
cat >"$tmp/mem.ini" <<INI
[memcpy]
target = mem/memcpy
size = ${mib}M
duration = 1s
repetitions = $secs
warmup = 1
INI

printf '%-6s %14s %14s %7s\n' round "hostbench B/s" "plain B/s" ratio
for round in 1 2 3; do
	hb=$("$build/hostbench" run "$tmp/mem.ini" --format json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["results"][0]["stats"]["median"])')
	plain=$("$tmp/memcpy_loop" "$bytes" "$secs")
	python3 -c "print('%-6s %14.4g %14.4g %7.3f' % ($round, $hb, $plain, $hb / $plain))"
done
