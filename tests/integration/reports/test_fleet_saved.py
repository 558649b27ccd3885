# SPDX-License-Identifier: Apache-2.0
"""A saved fleet report in any build (no MPI needed): written again in
every format, one host taken out, merged, compared and stored. The
fixture has the older layout, every result twice (at the top and in its
host's report), which every command still reads.

Usage: test_fleet_saved.py NAME HOSTBENCH FLEET_JSON
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

HB = sys.argv[2]
FLEET = sys.argv[3]


def hb(*args):
    return subprocess.run([HB, *args], capture_output=True, text=True,
                          timeout=60, env=dict(os.environ,
                                               HOSTBENCH_STORE="none"))


def test_report_writes_a_fleet_report_again_in_every_format():
    p = hb("report", FLEET)
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    for words in ("Fleet: 2 ranks", "rank 0 (vm): ok", "Nodes : 1 node: "
                  "vm (ranks 0-1)", "Spread across hosts", "memcpy (mem)"):
        expect(words in p.stdout, f"{words!r} in\n{p.stdout}")
    for fmt, words in (("md", "## Spread across hosts"), ("csv", "memset"),
                       ("html", "<svg")):
        p = hb("report", FLEET, "--format", fmt)
        expect(p.returncode == 0 and words in p.stdout,
               f"{fmt}: exit {p.returncode}: {p.stderr}")
    p = hb("report", FLEET, "--format", "json")
    doc = json.loads(p.stdout)
    expect(len(doc["results"]) == 4 and
           all("results" not in h["report"] for h in doc["fleet"]["hosts"]),
           "each result once now")
    with open(FLEET) as f:
        old = json.load(f)
    for a, b in zip(old["fleet"]["spread"], doc["fleet"]["spread"]):
        expect(a["min"] == b["min"] and a["max"] == b["max"] and
               a["outlier"]["rank"] == b["outlier"]["rank"] and
               abs(a["outlier"]["deviation"] -
                   b["outlier"]["deviation"]) < 1e-9, f"spread {a} {b}")


def test_one_host_of_a_fleet_report_reads_as_a_report():
    p = hb("report", FLEET, "--rank", "1", "--format", "json")
    expect(p.returncode == 0, p.stderr)
    expect([r["job"] for r in json.loads(p.stdout)["results"]] ==
           ["memcpy", "memset"], p.stdout[:300])
    p = hb("merge", FLEET, FLEET, "--rank", "0", "--format", "csv")
    expect(p.returncode == 0 and "memcpy" in p.stdout, p.stderr)
    p = hb("report", FLEET, "--rank", "2")
    expect(p.returncode == 2 and "no such rank" in p.stderr, p.stderr)


def test_store_import_takes_every_host_of_a_fleet_report():
    # a store of one's own: one directly in /tmp is refused
    url = "sqlite:" + os.path.join(tempfile.mkdtemp(), "results.db")
    p = hb("store", "import", FLEET, "--store", url)
    expect(p.returncode == 0, p.stderr)
    p = hb("history", "--store", url, "--format", "json")
    expect(p.returncode == 0, p.stderr)
    series = json.loads(p.stdout)["series"]
    expect(len(series) >= 2, f"{len(series)} series")


if __name__ == "__main__":
    hbtest.main()
