#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The openssl backend with messages in flight (queue_depth, each message
# in its own OpenSSL ASYNC_JOB) beside the tool users trust for the same:
# `openssl speed -elapsed -async_jobs N -evp ALG -bytes 16384`, for
# aes-256-gcm and aes-256-cbc at depth 1 and DEPTH (default 8), one
# worker, 16 KiB messages (hostbench: mode = message, encrypt).
#
# Figures per CPU-second (user + system time of the whole process, as
# bench/crypto.sh counts them), so a neighbour's load does not move them;
# the ratio hostbench / openssl speed (1.00 = the framework adds nothing),
# and each tool's depth DEPTH / depth 1. With OpenSSL's default provider no
# job ever pauses, so depth buys nothing on the CPU: what the depth-DEPTH
# rows show is what a job costs each message (openssl speed runs its whole
# timing loop inside one job per slot, hostbench one job per message).
# Each pair runs ROUNDS times, alternating, and the best of each is kept.
#
# Usage: bench/openssl_async.sh [BUILD_DIR] [SECONDS] [ROUNDS] [DEPTH]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
secs=${2:-3}
rounds=${3:-3}
depth=${4:-8}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# hostbench_cpu ALG DEPTH: bytes per CPU second.
hostbench_cpu() {
	cat >"$tmp/bench.ini" <<INI
[bench]
target = crypto/$1
backend = openssl
size = 16K
mode = message
queue_depth = $2
duration = 1s
repetitions = $secs
warmup = 1
INI
	"$build/hostbench" run "$tmp/bench.ini" --format json 2>/dev/null |
		python3 -c 'import json,sys
r = json.load(sys.stdin)["results"][0]
print(r["bytes_per_cpu_second"] if r["status"] == "ok" else 0)'
}

# openssl_cpu ALG DEPTH: bytes per CPU second of openssl speed, from its
# "N ALG's in T s" count and the process's user + system time.
openssl_cpu() {
	python3 - "$1" "$2" "$secs" <<'PY'
import re, resource, subprocess, sys
alg, jobs, secs = sys.argv[1], sys.argv[2], sys.argv[3]
before = resource.getrusage(resource.RUSAGE_CHILDREN)
run = subprocess.run(["openssl", "speed", "-elapsed", "-async_jobs", jobs,
                      "-evp", alg, "-bytes", "16384", "-seconds", secs],
                     capture_output=True, text=True)
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
m = re.search(r"size blocks: (\d+) ", run.stdout + run.stderr)
print(int(m.group(1)) * 16384 / cpu if m and cpu > 0 else 0)
PY
}

max() {
	python3 -c "print(max(float('$1'), float('$2')))"
}

printf '%-24s %12s %12s %7s\n' "case (16 KiB)" "ossl MB/cs" "hb MB/cs" "hb/ossl"
for alg in aes-256-gcm aes-256-cbc; do
	for d in 1 "$depth"; do
		ref=0
		hb=0
		i=0
		while [ $i -lt "$rounds" ]; do
			ref=$(max "$ref" "$(openssl_cpu "$alg" "$d")")
			hb=$(max "$hb" "$(hostbench_cpu "$alg" "$d")")
			i=$((i + 1))
		done
		echo "$alg $d $ref $hb" >>"$tmp/rows"
	done
done
python3 - "$tmp/rows" "$depth" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1])]
best = {(a, int(d)): (float(r), float(h)) for a, d, r, h in rows}
q = lambda a, b: "%7.3f" % (a / b) if b else "      -"
for (alg, d), (ref, hb) in best.items():
    print("%-24s %12.1f %12.1f %s" % (f"{alg} depth {d}", ref / 1e6,
                                      hb / 1e6, q(hb, ref)))
for alg in sorted({a for a, _ in best}):
    one, n = best[(alg, 1)], best[(alg, int(sys.argv[2]))]
    print("%-24s depth %s / depth 1: openssl speed %s, hostbench %s" %
          (alg, sys.argv[2], q(n[0], one[0]).strip(), q(n[1], one[1]).strip()))
PY
