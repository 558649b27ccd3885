#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Public-key operations against `openssl speed`, same machine, in turn:
# every row of
#   openssl speed -mr rsa2048 rsa3072 rsa4096 ecdsap256 ecdsap384 \
#                 ecdhp256 ecdhx25519 ed25519
# beside the same operation through hostbench's openssl backend (pk
# targets, one worker), with libgcrypt's figure in the same table.
#
# Figures are operations per CPU second: openssl speed without -elapsed
# divides its counts by user CPU time; hostbench's JSON gives each
# sample's operations and CPU seconds (workers' user + system), summed
# over the kept samples. ratio = hostbench openssl / openssl speed (1.00:
# the framework adds nothing). Each algorithm runs on both sides in turn,
# ROUNDS times, and the best figure of each side is kept, so a
# neighbour's load that comes and goes moves both alike.
#
# Usage: bench/pk.sh [BUILD_DIR] [SECONDS] [ROUNDS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
secs=${2:-3}
rounds=${3:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# openssl_rows ALG: "ref TARGET PARAM OPS/S" lines from openssl speed -mr
# (+F2 rsa, +F4 ecdsa, +F5 ecdh, +F6 eddsa: operations per user CPU s).
openssl_rows() {
	openssl speed -mr -seconds "$secs" "$1" 2>/dev/null | awk -F: '
	$1 == "+F2" { print "ref rsa-sign", $3, $4; print "ref rsa-verify", $3, $5 }
	$1 == "+F4" { c = "p" $3; print "ref ecdsa-sign", c, $4
		      print "ref ecdsa-verify", c, $5 }
	$1 == "+F5" { c = ($3 == 253) ? "x25519" : "p" $3
		      print "ref ecdh", c, $4 }
	$1 == "+F6" { print "ref eddsa-sign ed25519", $5
		      print "ref eddsa-verify ed25519", $6 }'
}

# hostbench_rows TARGETS KEY VALUE: "BACKEND TARGET VALUE OPS/CPU-S" for
# each target (pk/NAME) on both backends with KEY = VALUE.
hostbench_rows() {
	{
		printf '[global]\nduration = 1s\nrepetitions = %s\n' "$secs"
		printf 'warmup = 1\nunit = ops/s\nbackend = openssl, gcrypt\n'
		for t in $1; do
			printf '\n[%s]\ntarget = pk/%s\n%s = %s\n' "$t" "$t" \
				"$2" "$3"
		done
	} >"$tmp/pk.ini"
	"$build/hostbench" run "$tmp/pk.ini" --format json 2>/dev/null |
		python3 -c 'import json, sys
for r in json.load(sys.stdin)["results"]:
    s = r["sample_details"]
    cpu = sum(x["cpu_seconds"] for x in s)
    ops = sum(x["ops"] for x in s) / cpu if r["status"] == "ok" and cpu else 0
    p = r["params"]
    print(r["backend"], r["target"][3:], p.get("bits", p.get("curve")), ops)'
}

one_round() {
	for b in 2048 3072 4096; do
		openssl_rows "rsa$b"
		hostbench_rows "rsa-sign rsa-verify" bits "$b"
	done
	for c in 256 384; do
		openssl_rows "ecdsap$c"
		hostbench_rows "ecdsa-sign ecdsa-verify" curve "p$c"
	done
	openssl_rows ecdhp256
	hostbench_rows ecdh curve p256
	openssl_rows ecdhx25519
	hostbench_rows ecdh curve x25519
	openssl_rows ed25519
	hostbench_rows "eddsa-sign eddsa-verify" curve ed25519
}

i=0
while [ "$i" -lt "$rounds" ]; do
	one_round >>"$tmp/rows.txt"
	i=$((i + 1))
done

python3 - "$tmp/rows.txt" <<'PY'
import sys

best, order = {}, []
for line in open(sys.argv[1]):
    side, target, param, value = line.split()
    row = (target, param)
    if row not in order:
        order.append(row)
    best[(side, row)] = max(best.get((side, row), 0), float(value))

print("| row | openssl speed ops/CPU-s | hostbench openssl | ratio "
      "| hostbench gcrypt |")
print("|---|---|---|---|---|")
for row in order:
    ref = best.get(("ref", row), 0)
    o, g = best.get(("openssl", row), 0), best.get(("gcrypt", row), 0)
    ratio = f"{o / ref:.3f}" if ref else "-"
    print(f"| {row[0]} {row[1]} | {ref:.1f} | {o:.1f} | {ratio} | {g:.1f} |")
PY
