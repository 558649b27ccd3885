#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Crypto targets against the tools users trust, same machine, in turn:
# `openssl speed -evp ALG -bytes N -seconds S` against hostbench's OpenSSL
# backend with the same algorithm, size and mode = stream, for aes-256-gcm,
# aes-256-ctr, aes-256-cbc, chacha20-poly1305 and sha256 at 16 KiB and
# 1 MiB; hostbench XXH3-64 against `xxhsum -b` (its 100 KB sample, one-shot
# hashes, so mode = message); and AES-256-CTR with two workers against one.
#
# Two ratios hostbench / reference (1.00 = the framework adds nothing):
#   cpu   bytes per CPU second (user + system time of the whole process,
#         workers and core together for hostbench; xxhsum's own figure,
#         which divides by clock()); a neighbour's load on a shared machine
#         does not move it;
#   wall  bytes per wall-clock second: openssl speed's count over its
#         S-second alarm, hostbench's median figure.
# Each pair runs ROUNDS times, alternating, and the best of each side is
# kept.
#
# Usage: bench/crypto.sh [BUILD_DIR] [SECONDS] [ROUNDS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
secs=${2:-3}
rounds=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# hostbench_rates TARGET BACKEND SIZE MODE PARALLEL: "WALL CPU" bytes/s.
hostbench_rates() {
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
s = r["sample_details"]
ok = r["status"] == "ok"
cpu = sum(x["bytes"] for x in s) / sum(x["cpu_seconds"]for x in s)
print(r["stats"]["median"] if ok else 0, cpu if ok else 0)'
}

# openssl_rates ALG BYTES: "WALL CPU" bytes/s. The count comes from its
# "N ALG's in T s" line; CPU time is the process's user + system time, as
# hostbench counts it (openssl speed itself divides by user time only).
openssl_rates() {
	python3 - "$1" "$2" "$secs" <<'PY'
import re, resource, subprocess, sys
alg, size, secs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
before = resource.getrusage(resource.RUSAGE_CHILDREN)
run = subprocess.run(["openssl", "speed", "-evp", alg, "-bytes", str(size),
                      "-seconds", str(secs)], capture_output=True,
                     text=True)
out = run.stdout + run.stderr
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
n = int(re.search(r"size blocks: (\d+) ", out).group(1)) * size
print(n / secs, n / cpu)
PY
}

# xxhsum_rates: XXH3_64b (variant 5) on xxhsum's 100 KB sample; xxhsum
# times with clock(), CPU time, so only the CPU figure exists.
xxhsum_rates() {
	xxhsum -b5 -i"$secs" 2>&1 | tr '\r' '\n' | grep '#' | tail -n 1 |
		python3 -c 'import re,sys
m = re.search(r"\(([0-9.]+) MB/s\)", sys.stdin.read())
print(0, float(m.group(1)) * 1048576)'
}

# best "W1 C1" "W2 C2": the larger wall and the larger CPU figure.
best() {
	python3 -c "a = '$1'.split(); b = '$2'.split()
print(max(float(a[0]), float(b[0])), max(float(a[1]), float(b[1])))"
}

# row LABEL "REF_WALL REF_CPU" "HB_WALL HB_CPU": one line of the table.
row() {
	python3 -c "r = [float(x) for x in '$2'.split()]
h = [float(x) for x in '$3'.split()]
q = lambda a, b: '%7.3f' % (a / b) if b else '      -'
print('%-34s %10.1f %10.1f %s %s' % ('$1', r[1] / 1e6, h[1] / 1e6,
      q(h[1], r[1]), q(h[0], r[0])))"
}

# pair LABEL REF_CMD HB_CMD: ROUNDS alternating runs, best of each.
pair() {
	ref="0 0"
	hb="0 0"
	i=0
	while [ $i -lt "$rounds" ]; do
		ref=$(best "$ref" "$(eval "$2")")
		hb=$(best "$hb" "$(eval "$3")")
		i=$((i + 1))
	done
	row "$1" "$ref" "$hb"
}

printf '%-34s %10s %10s %7s %7s\n' case "ref MB/cs" "hb MB/cs" cpu wall
for alg in aes-256-gcm aes-256-ctr aes-256-cbc chacha20-poly1305 sha256; do
	case $alg in
	sha256) target=hash/sha256 ;;
	*) target=crypto/$alg ;;
	esac
	for bytes in 16384 1048576; do
		pair "$alg $bytes / openssl speed" \
			"openssl_rates $alg $bytes" \
			"hostbench_rates $target openssl $bytes stream 1"
	done
done
pair "xxh3-64 102400 / xxhsum -b" xxhsum_rates \
	"hostbench_rates hash/xxh3-64 xxhash 102400 message 1"

# Scaling, two workers against one: wall = the speed-up (1.9 wanted on two
# idle cores); cpu = bytes per CPU second of two against one, how well each
# worker keeps its pace beside another (1.00 = perfect), which still reads
# true when a neighbour holds one of the cores.
pair "aes-256-ctr 1M: 2 workers / 1" \
	"hostbench_rates crypto/aes-256-ctr openssl 1M message 1" \
	"hostbench_rates crypto/aes-256-ctr openssl 1M message 2"
