#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Public-key operations against `openssl speed`, same machine, in turn:
#   openssl speed -mr -seconds S rsa2048 rsa3072 rsa4096 ecdsap256 \
#                 ecdsap384 ecdhp256 ecdhx25519 ed25519
# beside the same rows through hostbench's openssl backend (pk targets,
# one worker), with libgcrypt's figures in the same table.
#
# Figures are operations per CPU second: openssl speed without -elapsed
# divides its counts by user CPU time; hostbench's JSON gives each
# sample's operations and CPU seconds (workers' user + system), summed
# over the kept samples. A neighbour's load on a shared machine moves
# neither much. ratio = hostbench openssl / openssl speed (1.00: the
# framework adds nothing).
#
# Usage: bench/pk.sh [BUILD_DIR] [SECONDS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
secs=${2:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

openssl speed -mr -seconds "$secs" rsa2048 rsa3072 rsa4096 ecdsap256 \
	ecdsap384 ecdhp256 ecdhx25519 ed25519 >"$tmp/speed.txt" 2>/dev/null

cat >"$tmp/pk.ini" <<INI
[global]
duration = 1s
repetitions = $secs
warmup = 1
unit = ops/s
backend = openssl, gcrypt

[rsa sign]
target = pk/rsa-sign
bits = 2048, 3072, 4096

[rsa verify]
target = pk/rsa-verify
bits = 2048, 3072, 4096

[ecdsa sign]
target = pk/ecdsa-sign
curve = p256, p384

[ecdsa verify]
target = pk/ecdsa-verify
curve = p256, p384

[ecdh]
target = pk/ecdh
curve = p256, x25519

[eddsa sign]
target = pk/eddsa-sign
curve = ed25519

[eddsa verify]
target = pk/eddsa-verify
curve = ed25519
INI
"$build/hostbench" run "$tmp/pk.ini" --format json >"$tmp/hb.json" \
	2>/dev/null

python3 - "$tmp/speed.txt" "$tmp/hb.json" <<'PY'
import json, sys

# openssl speed -mr: +F2 rsa, +F4 ecdsa, +F5 ecdh, +F6 eddsa (ops/s).
ref = {}
ecdsa = {"256": "p256", "384": "p384"}
ecdh = {"256": "p256", "253": "x25519"}
for line in open(sys.argv[1]):
    f = line.strip().split(":")
    if f[0] == "+F2":
        ref[("rsa-sign", f[2])] = float(f[3])
        ref[("rsa-verify", f[2])] = float(f[4])
    elif f[0] == "+F4":
        ref[("ecdsa-sign", ecdsa[f[2]])] = float(f[3])
        ref[("ecdsa-verify", ecdsa[f[2]])] = float(f[4])
    elif f[0] == "+F5":
        ref[("ecdh", ecdh[f[2]])] = float(f[3])
    elif f[0] == "+F6":
        ref[("eddsa-sign", "ed25519")] = float(f[4])
        ref[("eddsa-verify", "ed25519")] = float(f[5])

hb = {}
for r in json.load(open(sys.argv[2]))["results"]:
    p = r["params"]
    key = (r["target"][3:], str(p.get("bits", p.get("curve"))))
    s = r["sample_details"]
    cpu = sum(x["cpu_seconds"] for x in s)
    ok = r["status"] == "ok" and cpu > 0
    hb[(key, r["backend"])] = sum(x["ops"] for x in s) / cpu if ok else 0

print("| row | openssl speed ops/CPU-s | hostbench openssl | ratio "
      "| hostbench gcrypt |")
print("|---|---|---|---|---|")
for key, v in ref.items():
    o, g = hb.get((key, "openssl"), 0), hb.get((key, "gcrypt"), 0)
    print(f"| {key[0]} {key[1]} | {v:.1f} | {o:.1f} | {o / v:.3f} "
          f"| {g:.1f} |")
PY
