#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The mem targets through `hostbench run`: the size they refuse, the
cache-sized buffer (`size = llc`), and the memory a case holds at any
number of workers.

Usage: test_mem_cli.py TEST HOSTBENCH
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB = hbtest.args("HOSTBENCH")

QUICK = "duration = 20ms\nrepetitions = 2\nwarmup = 0\n"

# Runs hostbench and prints its exit status and the peak resident memory,
# in KiB, of the biggest process below it (the case helper holding the
# buffers): getrusage of the waited-for children, a fresh process each run.
PEAK = """
import resource, subprocess, sys
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def suite(text):
    """A temporary suite file holding text; returns its path."""
    f = tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False)
    f.write(text)
    f.close()
    return f.name


def run_json(text):
    """Run suite text; (results, peak KiB of the run's processes)."""
    path = suite(text)
    out = path + ".json"
    p = subprocess.run([sys.executable, "-c", PEAK, HB, "run", path,
                        "--format", "json", "-o", out],
                       capture_output=True, text=True, timeout=300)
    status, peak = (int(w) for w in p.stdout.split())
    expect(status == 0, f"exit {status}: {p.stderr}")
    with open(out, encoding="utf-8") as f:
        res = json.load(f)["results"]
    os.unlink(path)
    os.unlink(out)
    return res, peak


def test_size_zero_is_refused_at_its_line():
    path = suite("[m]\ntarget = mem/memset\nsize = 0\n")
    p = subprocess.run([HB, "run", path], capture_output=True, text=True,
                       timeout=60)
    lines = [l for l in p.stderr.splitlines() if not l.startswith("Try ")]
    expect(p.returncode == 2 and p.stdout == "",
           f"exit {p.returncode}: {p.stderr}")
    expect(len(lines) == 1, lines)
    expect(lines[0].startswith(
        f"hostbench: {path}:3: [m] size: \"0\" is out of range")
           and "llc" in lines[0], lines)


def test_size_llc_is_the_default_and_sized_from_the_cache():
    res, _ = run_json(f"[global]\n{QUICK}\n[a]\ntarget = mem/read\n"
                      "size = llc\n[b]\ntarget = mem/read\n")
    for r in res:
        expect(r["status"] == "ok", r)
        expect(r["params"]["size"] == "llc", r["params"])
        note = r["info"].get("buffer", "")
        expect("last-level cache" in note and "1 buffers" in note, note)
        total = int(r["info"]["buffer_total"])
        expect(8 << 20 <= total <= 512 << 20, total)


def test_case_memory_is_bounded_at_any_parallel():
    """32 workers hold what one does (8M each was 512M of memcpy)."""
    seen = {}
    for parallel in (1, 32):
        res, peak = run_json(f"[global]\n{QUICK}\n[m]\ntarget = mem/memcpy\n"
                             f"parallel = {parallel}\n")
        r = res[0]
        expect(r["status"] == "ok", r)
        total = int(r["info"]["buffer_total"])
        expect(f"{2 * parallel} buffers" in r["info"]["buffer"], r["info"])
        # the helper's peak: the buffers and what a process needs besides
        expect(peak * 1024 <= total + (96 << 20),
               f"{parallel} workers: peak {peak} KiB, buffers {total}")
        seen[parallel] = total
    expect(abs(seen[32] - seen[1]) <= 64 * 4096, seen)


if __name__ == "__main__":
    hbtest.main()
