#!/bin/sh
# Crypto targets against the tools users trust, same machine, in turn:
# `openssl speed -evp ALG -bytes N -seconds S -elapsed` against hostbench's
# OpenSSL backend with the same algorithm, size and mode = stream, for
# aes-256-gcm, aes-256-ctr, aes-256-cbc, chacha20-poly1305 and sha256 at
# 16 KiB and 1 MiB; hostbench XXH3-64 against `xxhsum -b` (its 100 KB
# sample, one-shot hashes, so mode = message); and AES-256-CTR with two
# workers against one. Each pair runs ROUNDS times, alternating, and the
# best figure of each side is kept, so a neighbour's burst of load on a
# shared machine cannot decide the ratio. 1.00 = the framework adds nothing.
#
# Usage: bench/crypto.sh [BUILD_DIR] [SECONDS] [ROUNDS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
secs=${2:-3}
rounds=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# hostbench_rate TARGET BACKEND SIZE MODE PARALLEL: median bytes/s.
hostbench_rate() {
	cat >"$tmp/bench.ini" <<INI
[bench]
target = $1
backend = $2
size = $3
mode = $4
parallel = $5
duration = 1s
repetitions = $secs
warmup = 1
INI
	"$build/hostbench" run "$tmp/bench.ini" --format json 2>/dev/null |
		python3 -c 'import json,sys
r = json.load(sys.stdin)["results"][0]
print(r["stats"]["median"] if r["status"] == "ok" else 0)'
}

# openssl_rate ALG BYTES: bytes/s from the last line ("ALG 123.45k").
openssl_rate() {
	openssl speed -evp "$1" -bytes "$2" -seconds "$secs" -elapsed \
		2>/dev/null | tail -n 1 |
		python3 -c 'import sys
print(float(sys.stdin.read().split()[-1].rstrip("k")) * 1000)'
}

# xxhsum_rate: bytes/s of XXH3_64b (variant 5) on xxhsum's 100 KB sample.
xxhsum_rate() {
	xxhsum -b5 -i"$secs" 2>&1 | tr '\r' '\n' | grep '#' | tail -n 1 |
		python3 -c 'import re,sys
m = re.search(r"\(([0-9.]+) MB/s\)", sys.stdin.read())
print(float(m.group(1)) * 1048576)'
}

# best A B: the larger of two rates.
best() {
	python3 -c "print(max($1, $2))"
}

# row LABEL REF HB: one line of the table.
row() {
	python3 -c "r = $3 / $2 if $2 else 0
print('%-34s %12.1f %12.1f %7.3f' % ('$1', $2 / 1e6, $3 / 1e6, r))"
}

printf '%-34s %12s %12s %7s\n' case "ref MB/s" "hb MB/s" ratio
for alg in aes-256-gcm aes-256-ctr aes-256-cbc chacha20-poly1305 sha256; do
	case $alg in
	sha256) target=hash/sha256 ;;
	*) target=crypto/$alg ;;
	esac
	for bytes in 16384 1048576; do
		ref=0
		hb=0
		i=0
		while [ $i -lt "$rounds" ]; do
			ref=$(best "$ref" "$(openssl_rate "$alg" "$bytes")")
			hb=$(best "$hb" "$(hostbench_rate "$target" openssl \
				"$bytes" stream 1)")
			i=$((i + 1))
		done
		row "$alg $bytes vs openssl speed" "$ref" "$hb"
	done
done

ref=0
hb=0
i=0
while [ $i -lt "$rounds" ]; do
	ref=$(best "$ref" "$(xxhsum_rate)")
	hb=$(best "$hb" "$(hostbench_rate hash/xxh3-64 xxhash 102400 message 1)")
	i=$((i + 1))
done
row "xxh3-64 102400 vs xxhsum -b" "$ref" "$hb"

one=0
two=0
i=0
while [ $i -lt "$rounds" ]; do
	one=$(best "$one" "$(hostbench_rate crypto/aes-256-ctr openssl 1M \
		message 1)")
	two=$(best "$two" "$(hostbench_rate crypto/aes-256-ctr openssl 1M \
		message 2)")
	i=$((i + 1))
done
row "aes-256-ctr 1M, 2 workers vs 1" "$one" "$two"
