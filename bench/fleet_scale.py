#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where a fleet run's time and memory go as ranks are added: each phase
of rank 0 (launch and MPI_Init, the suite compared and checked, contexts,
clocks, each case's gather, the report), rank 0's peak memory and the
JSON report's bytes, at 2, 4, 8, 16 and 32 ranks under mpirun on this
machine, then a straight line fitted to each and read at 500 and 5,000
ranks (docs/fleet.md, "Scale"), with rank 0's CPU time in all and per
rank.

Usage: bench/fleet_scale.py [BUILD_DIR] [RANKS,...] [CASES]
  (defaults: build-mpi 2,4,8,16,32,64 3)
Needs an MPI build (-DHOSTBENCH_MPI=ON). Every rank runs here
(--oversubscribe): above the machine's CPUs the ranks share them, so a
phase that is work on every rank grows with ranks / CPUs as well.
The phases come from HOSTBENCH_FLEET_TRACE (rank 0's own clock).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build-mpi"
RANKS = [int(n) for n in (sys.argv[2] if len(sys.argv) > 2
                          else "2,4,8,16,32,64").split(",")]
CASES = int(sys.argv[3]) if len(sys.argv) > 3 else 3
HB = os.path.join(BUILD, "hostbench")
TARGETS = ["mem/memcpy", "mem/memset"]

SUITE = "[global]\nduration = 20ms\nrepetitions = 5\nwarmup = 0\n" + "".join(
    f"\n[case {i}]\ntarget = {TARGETS[i % len(TARGETS)]}\nsize = 64K\n"
    for i in range(CASES))


def run(ranks, suite):
    """One fleet run of ranks ranks: {phase: seconds}, peak KB, bytes,
    rank 0's CPU seconds."""
    trace = tempfile.mktemp(suffix=".trace")
    out = tempfile.mktemp(suffix=".json")
    cmd = ["mpirun", "--oversubscribe", "-np", str(ranks),
           "-x", "HOSTBENCH_FLEET_TRACE=" + trace, HB, "run", suite,
           "--format", "json", "--output", out, "--no-store"]
    if os.geteuid() == 0:
        cmd.insert(1, "--allow-run-as-root")
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    took = time.time() - t0
    if p.returncode:
        sys.exit(f"{ranks} ranks: exit {p.returncode}: {p.stderr}")
    lines = [line.split() for line in open(trace)]
    at = {(w[0], int(w[1])): float(w[2]) for w in lines}
    peak = max(int(w[3]) for w in lines)
    cpu = max(float(w[4]) for w in lines)
    gathers = [at[("gathered", i)] - at[("case_done", i)]
               for i in range(CASES)]
    phases = {
        "launch": at[("start", -1)] - t0,
        "mpi_init": at[("mpi_init", -1)] - at[("start", -1)],
        "suite": at[("suite_check", -1)] - at[("mpi_init", -1)],
        "contexts": at[("contexts", -1)] - at[("suite_check", -1)],
        "clocks": at[("clocks", -1)] - at[("contexts", -1)],
        **{f"gather case {i + 1}": g for i, g in enumerate(gathers)},
        "report": at[("report", -1)] - at[("gathered", CASES - 1)],
        "total": took,
    }
    size = os.path.getsize(out)
    text = subprocess.run([HB, "report", out], capture_output=True,
                          text=True, timeout=600).stdout
    with open(out) as f:
        doc = json.load(f)
    if len(doc["results"]) != ranks * CASES:
        sys.exit(f"{ranks} ranks: {len(doc['results'])} results, "
                 f"want {ranks * CASES}")
    os.unlink(trace)
    os.unlink(out)
    return phases, peak, size, len(text), cpu


def fit(xs, ys):
    """Least squares y = a + b x: (a, b)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    b = (sum((x - mx) * (y - my) for x, y in zip(xs, ys)) /
         sum((x - mx) ** 2 for x in xs))
    return my - b * mx, b


def main():
    suite = tempfile.mktemp(suffix=".ini")
    with open(suite, "w") as f:
        f.write(SUITE)
    rows = {}
    for n in RANKS:
        rows[n] = run(n, suite)
        print(f"{n} ranks done ({rows[n][0]['total']:.1f} s)",
              file=sys.stderr)
    names = list(rows[RANKS[0]][0]) + ["rank 0 cpu", "rank 0 cpu per rank",
                                        "peak_kb", "json_bytes",
                                        "text_bytes"]

    def value(n, name):
        phases, peak, size, text, cpu = rows[n]
        return {"peak_kb": peak, "json_bytes": size, "text_bytes": text,
                "rank 0 cpu": cpu,
                "rank 0 cpu per rank": cpu / n}.get(name, phases.get(name))

    print(f"{os.cpu_count()} CPUs, {CASES} cases of 5 samples; seconds, "
          "KB, bytes\n")
    print("| what | " + " | ".join(f"{n} ranks" for n in RANKS) +
          " | fit a + b·N | 500 ranks | 5,000 ranks |")
    print("|---" * (len(RANKS) + 4) + "|")
    for name in names:
        # text above 8 ranks is another layout (hosts as rows): fit that
        ns = [n for n in RANKS if name != "text_bytes" or n > 8]
        ns = ns if len(ns) > 1 else RANKS
        ys = [value(n, name) for n in RANKS]
        a, b = fit(ns, [value(n, name) for n in ns])
        fmt = "{:.3f}" if "bytes" not in name and name != "peak_kb" \
            else "{:.0f}"
        fmt = "{:.4f}" if name == "rank 0 cpu per rank" else fmt
        cells = [fmt.format(y) for y in ys]
        if name == "rank 0 cpu per rank":  # a ratio: no line to fit
            print(f"| {name} | " + " | ".join(cells) + " | | | |")
            continue
        print(f"| {name} | " + " | ".join(cells) +
              f" | {a:.4g} + {b:.4g}·N | {fmt.format(a + b * 500)} | "
              f"{fmt.format(a + b * 5000)} |")
    os.unlink(suite)


if __name__ == "__main__":
    main()
