#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""False regressions from busy neighbours in a month of nightly runs.

Usage: bench/starved_history.py [build/hostbench]

One real run of a small suite (AES-256-GCM on OpenSSL, memcpy) is copied
into 32 nightly runs of one host, each scaled by a few tenths of a percent
of noise, and imported into a fresh SQLite store:
- runs 1-32: the copies;
- from run 12: an OpenSSL upgrade (a new context, never a regression);
- from run 20: AES-NI off for AES-256-GCM (-90% wall and per CPU-second:
  the one real regression);
- runs 30-32: two busy loops beside every case (wall figures -55% to -70%,
  the workers got a third of their CPU; per CPU-second flat, flagged
  starved).
Then `regressions --format json` and `regressions --fail`: the table says
how many regressions were found, how many of them are real, and the exit
status of the gate (1: one real regression is open).
"""
import copy
import datetime
import json
import os
import random
import subprocess
import sys
import tempfile
import uuid

HB = sys.argv[1] if len(sys.argv) > 1 else "build/hostbench"
SUITE = """[global]
duration = 50ms
repetitions = 5
warmup = 1
[GCM]
target = crypto/aes-256-gcm
backend = openssl
size = 16K
[memcpy]
target = mem/memcpy
size = 1M
"""


def scale(r, wall, cpu):
    """Result r with its wall figures times wall, per CPU-second times cpu
    (a neighbour moves the first alone, AES-NI off both)."""
    r = copy.deepcopy(r)
    r["samples"] = [s * wall for s in r["samples"]]
    for k in ("median", "min", "max", "mean", "stddev", "p25", "p75",
              "ci95_low", "ci95_high"):
        if r["stats"].get(k) is not None:
            r["stats"][k] *= wall
    for d in r.get("sample_details", []):
        d["seconds"] /= wall
        d["cpu_seconds"] /= cpu
    if r.get("bytes_per_cpu_second"):
        r["bytes_per_cpu_second"] *= cpu
    r["cpu_ratio"] = r.get("cpu_ratio", 1) * wall / cpu
    return r


def starve(r, wall):
    r = scale(r, wall, 1.0)
    r["flags"]["starved"] = True
    r["cpu_ratio"] = min(r["cpu_ratio"], 0.35)
    return r


def night(base, i, rng):
    """Run i (1-based) of the month."""
    d = copy.deepcopy(base)
    d["run"]["uuid"] = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    t = datetime.datetime(2026, 11, 1, 2, tzinfo=datetime.timezone.utc)
    t += datetime.timedelta(days=i - 1)
    d["run"]["started"] = t.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    if "ended" in d["run"]:
        d["run"]["ended"] = d["run"]["started"]
    if i >= 12:
        d["libraries"]["openssl"]["OpenSSL"] = "OpenSSL 3.0.19 27 Jan 2026 (+1)"
    out = []
    for r in d["results"]:
        noise = 1 + rng.gauss(0, 0.004)
        r = scale(r, noise, noise)
        if r["target"] == "crypto/aes-256-gcm" and i >= 20:
            r = scale(r, 0.1, 0.1)
        if i >= 30:
            r = starve(r, rng.uniform(0.30, 0.45))
        out.append(r)
    d["results"] = out
    return d


def main():
    rng = random.Random(20261101)
    with tempfile.TemporaryDirectory() as tmp:
        suite = os.path.join(tmp, "s.ini")
        with open(suite, "w") as f:
            f.write(SUITE)
        base_path = os.path.join(tmp, "base.json")
        subprocess.run([HB, "run", suite, "-f", "json", "-o", base_path,
                        "--no-store"], check=True, stderr=subprocess.DEVNULL)
        base = json.load(open(base_path))
        for r in base["results"]:
            r["flags"] = dict(r.get("flags", {}), starved=False, noisy=False,
                              imprecise=False)
            r["cpu_ratio"] = 1.0
        files = []
        for i in range(1, 33):
            p = os.path.join(tmp, "night-%02d.json" % i)
            with open(p, "w") as f:
                json.dump(night(base, i, rng), f)
            files.append(p)
        store = "sqlite:" + os.path.join(tmp, "results.db")
        subprocess.run([HB, "store", "import", "--store", store] + files,
                       check=True, stderr=subprocess.DEVNULL)
        p = subprocess.run([HB, "regressions", "--store", store, "-f",
                            "json"], capture_output=True, text=True,
                           check=True)
        doc = json.loads(p.stdout)
        gate = subprocess.run([HB, "regressions", "--store", store,
                               "--fail"], capture_output=True, text=True)
    found = []
    for s in doc["series"]:
        for c in s.get("changes", []):
            if c.get("kind") == "regression":
                found.append((s["case"]["target"], s["figure"], c["index"],
                              c["change"]))
    real = [f for f in found if f[0] == "crypto/aes-256-gcm" and
            f[2] == 19]
    false = [f for f in found if f not in real]
    print("| what | count |")
    print("|---|---|")
    print("| regressions found | %d |" % len(found))
    print("| real (AES-NI off from run 20) | %d |" % len(real))
    print("| false (starved runs 30-32, the upgrade at run 12, noise) | %d |"
          % len(false))
    print("| `regressions --fail` exit status | %d |" % gate.returncode)
    for f in false:
        print("false: %s %s at run %d, %+.1f%%" % (f[0], f[1], f[2] + 1,
                                                   f[3] * 100))


if __name__ == "__main__":
    main()
