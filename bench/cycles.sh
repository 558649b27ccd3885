#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# hostbench's cycles per byte against a reference measured beside it, for
# aes-256-gcm, aes-256-ctr and sha256 at 16 KiB through OpenSSL and
# libgcrypt (mode = stream, one worker).
#
# The reference is libgcrypt's own bench-slope where a `bench-slope`
# binary is on PATH (libgcrypt's tests/; Debian ships none). Otherwise it
# is `openssl speed -evp ALG -bytes 16384 -seconds S`:
#   perf    where `perf stat -e cycles` counts (bare metal): the cycles of
#           the whole openssl process over the bytes it processed (its
#           rate with -elapsed times S);
#   MHz     where it cannot (most virtual machines): the "cpu MHz" of
#           /proc/cpuinfo over openssl's bytes per user CPU second.
# The gcrypt rows are set against the same OpenSSL reference: the ratio
# then also holds the difference between the two libraries.
# Prints hostbench's figure with its cycles_method, the reference with its
# method, and the ratio hostbench / reference (1.00 = the same count).
# The clock columns say what each side took a cycle to be: hostbench's
# cycles over its CPU seconds (the calibrated clock, or the counted one),
# and the reference's MHz. Where the reference uses the nominal "cpu MHz"
# of a virtual machine and the CPU runs faster (turbo), the ratio is the
# ratio of the clocks, not a disagreement about the work: the last column,
# the ratio at one clock (hostbench's figure rescaled to the reference's
# clock), is then the one to read.
#
# Usage: bench/cycles.sh [BUILD_DIR] [SECONDS]     (defaults: build 2)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
secs=${2:-2}
size=16384
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v openssl >/dev/null || { echo "cycles.sh: openssl not found" >&2; exit 2; }

# hostbench_cpb TARGET BACKEND: "CYCLES_PER_BYTE METHOD MHZ" (0 - 0 when
# not ok).
hostbench_cpb() {
	cat >"$tmp/cycles.ini" <<INI
[cycles]
target = $1
backend = $2
size = $size
mode = stream
duration = 1s
repetitions = $secs
warmup = 1
INI
	"$build/hostbench" run "$tmp/cycles.ini" --format json 2>/dev/null |
		python3 -c 'import json,sys
r = json.load(sys.stdin)["results"][0]
ok = r["status"] == "ok" and r["cycles_per_byte"]
mhz = r["cycles_per_byte"] * r["bytes_per_cpu_second"] / 1e6 if ok else 0
print(r["cycles_per_byte"] if ok else 0, r["cycles_method"] if ok else "-",
      round(mhz))'
}

# perf_counts: nonzero when `perf stat -e cycles` counts on this host.
perf_counts() {
	command -v perf >/dev/null &&
		perf stat -x, -e cycles true 2>&1 | grep -q '^[0-9]'
}

# openssl_rate ALG [-elapsed]: openssl speed's bytes per second.
openssl_rate() {
	alg=$1
	shift
	openssl speed -evp "$alg" -bytes $size -seconds "$secs" "$@" \
		2>/dev/null | tail -1 | awk '{ v = $NF; sub(/k$/, "", v);
		print v * 1000 }'
}

# reference_cpb ALG: "CYCLES_PER_BYTE METHOD MHZ" from openssl speed.
reference_cpb() {
	if perf_counts; then
		perf stat -x, -e cycles -o "$tmp/perf" openssl speed -evp "$1" \
			-bytes $size -seconds "$secs" -elapsed \
			>"$tmp/speed" 2>/dev/null
		cycles=$(awk -F, '$3 == "cycles" { print $1 }' "$tmp/perf")
		rate=$(tail -1 "$tmp/speed" | awk '{ v = $NF; sub(/k$/, "", v);
			print v * 1000 }')
		python3 -c "print($cycles / ($rate * $secs), 'perf', '-')"
	else
		mhz=$(awk -F: '/^cpu MHz/ { print $2; exit }' /proc/cpuinfo)
		rate=$(openssl_rate "$1")
		python3 -c "print($mhz * 1e6 / $rate, 'MHz', round($mhz))"
	fi
}

if command -v bench-slope >/dev/null; then
	echo "bench-slope found: compare with 'bench-slope --cpu-mhz auto" \
		"cipher aes256' and 'hash sha256' by hand (its table is per" \
		"mode and operation)"
fi

printf '%-12s %-8s %10s %-11s %6s %10s %-7s %6s %6s %6s\n' algorithm \
	backend hostbench method clock reference method clock ratio \
	1clock
for row in aes-256-gcm:crypto/aes-256-gcm aes-256-ctr:crypto/aes-256-ctr \
	sha256:hash/sha256; do
	alg=${row%%:*}
	target=${row#*:}
	# shellcheck disable=SC2046 # three words: figure, method, clock
	set -- $(reference_cpb "$alg")
	ref=$1
	refm=$2
	refc=$3
	for backend in openssl gcrypt; do
		# shellcheck disable=SC2046
		set -- $(hostbench_cpb "$target" "$backend")
		python3 -c "
hb, ref, hbc, refc = $1, $ref, '$3', '$refc'
ratio = f'{hb / ref:.2f}' if hb and ref else '-'
one = f'{hb * int(refc) / int(hbc) / ref:.2f}' \\
    if hb and ref and refc.isdigit() and hbc.isdigit() and int(hbc) else '-'
print('%-12s %-8s %10.3f %-11s %6s %10.3f %-7s %6s %6s %6s' % ('$alg',
      '$backend', hb, '$2', hbc, ref, '$refm', refc, ratio, one))"
	done
done
