#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write two hostbench JSON reports of CASES cases x SAMPLES samples each,
for timing `hostbench compare` and `merge` on large reports (bench/compare.sh
and the integration.hardening tests use it).

Usage: big_reports.py BASE.json NEW.json [CASES] [SAMPLES]
The samples are random around 1 GB/s (new 3% slower), so the rank-sum test
sees ties rarely and both reports are valid hostbench reports.
"""
import json
import random
import sys


def report(path, cases, samples, scale, seed):
    rnd = random.Random(seed)
    results = []
    for c in range(cases):
        details = [{"seconds": 0.01, "bytes": scale * 1e7 * rnd.uniform(0.9, 1.1),
                    "ops": 1, "cpu_seconds": 0.01} for _ in range(samples)]
        results.append({
            "job": "case%d" % c, "title": "case%d" % c, "section": "Memory",
            "target": "mem/memset", "backend": "mem", "unit": "GB/s",
            "params": {"size": 4096, "parallel": 1}, "status": "ok",
            "reason": None, "stats": None, "ops_stats": None,
            "samples": [d["bytes"] / d["seconds"] for d in details],
            "sample_details": details, "cpu_ratio": 1.0,
            "flags": {"noisy": False, "starved": False}, "warnings": [],
            "info": {}, "parts": []})
    doc = {"schema_version": 1, "hostbench": {"version": "bench"},
           "system": {}, "libraries": {}, "results": results}
    with open(path, "w") as f:
        json.dump(doc, f)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__.strip())
    cases = int(argv[3]) if len(argv) > 3 else 3
    samples = int(argv[4]) if len(argv) > 4 else 100000
    report(argv[1], cases, samples, 1.0, 1)
    report(argv[2], cases, samples, 0.97, 2)


if __name__ == "__main__":
    main(sys.argv)
