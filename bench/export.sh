#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# export of a store of 100,000 results (docs/interop.md, "Export"):
# HOSTS hosts x NIGHTS nightly runs x CASES cases, made by year_reports.py
# from one real short run and imported into SQLite; then `hostbench
# export` of the whole store to OpenMetrics and to BMF (the newest point
# of each of its HOSTS x CASES series), best of 3, wall and CPU ms of the
# command alone (timed.py). Goal: under 2 s of CPU for OpenMetrics.
#
#   bench/export.sh [build/hostbench] [HOSTS] [NIGHTS] [CASES]
set -eu
HB=$(realpath "${1:-build/hostbench}")
HOSTS=${2:-10}
NIGHTS=${3:-100}
CASES=${4:-100}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
store="sqlite:$work/db/lab.db"

cat >"$work/base.ini" <<'INI'
[global]
duration = 5ms
repetitions = 3
warmup = 0
[fill]
target = mem/memset
size = 64K
[copy]
target = mem/memcpy
size = 64K
[gcm]
target = crypto/aes-256-gcm
size = 16K
INI
"$HB" run "$work/base.ini" -f json -o "$work/base.json" --no-store 2>/dev/null
mkdir -m 700 "$work/db" "$work/g"
python3 "$here/year_reports.py" "$work/base.json" "$work/g" 0 "$HOSTS" \
	"$NIGHTS" "$CASES"
set -- $(python3 "$here/timed.py" sh -c \
	'find "$1" -name "*.json" | sort | xargs "$2" store import --store "$3"' \
	- "$work/g" "$HB" "$store")
echo "import of $((HOSTS * NIGHTS * CASES)) results: wall $1 ms, CPU $2 ms"
rm -rf "$work/g"
for f in openmetrics bmf; do
	bw=999999 bc=999999
	for _ in 1 2 3; do
		set -- $(python3 "$here/timed.py" "$HB" export --store "$store" \
			-f "$f" -o "$work/out")
		[ "$1" -lt $bw ] && bw=$1
		[ "$2" -lt $bc ] && bc=$2
	done
	echo "export $f of $((HOSTS * NIGHTS * CASES)) results," \
		"$(grep -c '^hostbench_throughput_bytes' "$work/out" || true)" \
		"series lines: wall $bw ms, CPU $bc ms (best of 3)"
done
