#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The three crypto backends side by side on the targets an IPsec or TLS
# stack cares about: ipsec-mb (Intel's multi-buffer library) at queue
# depth 1 and 16, openssl and gcrypt (one message at a time; openssl at a
# depth above 1 is bench/openssl_async.sh's), on crypto/aes-256-gcm and
# crypto/aes-256-cbc, 16 KiB messages, encrypt, mode = message, one worker.
#
# Two figures per line, both from hostbench's JSON:
#   MB/cs  bytes per CPU second (user + system of the whole process); a
#          neighbour's load on a shared machine does not move it, so it is
#          the figure to compare backends and depths by;
#   MB/s   bytes per wall-clock second (the median sample), what a user
#          waits for; on a busy machine it is lower and noisier.
# and each one's ratio to openssl (depth 1) on the same target.
# The suite runs ROUNDS times; the best of each line is kept.
#
# Usage: bench/ipsecmb.sh [BUILD_DIR] [SECONDS] [ROUNDS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
secs=${2:-3}
rounds=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! "$build/hostbench" list 2>/dev/null | grep -q "^ *ipsec-mb "; then
	echo "ipsecmb.sh: the ipsec-mb plugin is not built (libipsec-mb-dev)" >&2
	exit 1
fi

cat >"$tmp/bench.ini" <<INI
[global]
size = 16K
mode = message
duration = 1s
repetitions = $secs
warmup = 1

[gcm mb]
target = crypto/aes-256-gcm
backend = ipsec-mb
queue_depth = 1, 16

[gcm]
target = crypto/aes-256-gcm
backend = openssl, gcrypt

[cbc mb]
target = crypto/aes-256-cbc
backend = ipsec-mb
queue_depth = 1, 16

[cbc]
target = crypto/aes-256-cbc
backend = openssl, gcrypt
INI

i=0
while [ $i -lt "$rounds" ]; do
	"$build/hostbench" run "$tmp/bench.ini" --format json \
		>"$tmp/round$i.json" 2>/dev/null || true
	i=$((i + 1))
done

python3 - "$tmp" "$rounds" <<'PY'
import json, sys

tmp, rounds = sys.argv[1], int(sys.argv[2])
best = {}  # (target, backend, depth) -> [cpu rate, wall rate]
for i in range(rounds):
    try:
        results = json.load(open(f"{tmp}/round{i}.json"))["results"]
    except (OSError, ValueError):
        continue
    for r in results:
        if r["status"] != "ok":
            continue
        key = (r["target"], r["backend"], r["params"].get("queue_depth", 1))
        cpu, wall = r["bytes_per_cpu_second"], r["stats"]["median"]
        old = best.get(key, [0, 0])
        best[key] = [max(old[0], cpu), max(old[1], wall)]

print("%-20s %-9s %5s %10s %10s %8s %8s" %
      ("target (16 KiB)", "backend", "depth", "MB/cs", "MB/s",
       "cpu/ossl", "wall/ossl"))
for target in ("crypto/aes-256-gcm", "crypto/aes-256-cbc"):
    ref = best.get((target, "openssl", 1))
    for backend, depth in (("ipsec-mb", 1), ("ipsec-mb", 16),
                           ("openssl", 1), ("gcrypt", 1)):
        got = best.get((target, backend, depth))
        if not got:
            print("%-20s %-9s %5d %10s" % (target, backend, depth,
                                           "failed"))
            continue
        ratio = ("%8.2f %8.2f" % (got[0] / ref[0], got[1] / ref[1])
                 if ref else "")
        print("%-20s %-9s %5d %10.1f %10.1f %s" %
              (target, backend, depth, got[0] / 1e6, got[1] / 1e6, ratio))
    mb1 = best.get((target, "ipsec-mb", 1))
    mb16 = best.get((target, "ipsec-mb", 16))
    if mb1 and mb16:
        print("%-20s ipsec-mb depth 16 / depth 1: %.1fx per CPU-second, "
              "%.1fx wall" % (target, mb16[0] / mb1[0], mb16[1] / mb1[1]))
PY
