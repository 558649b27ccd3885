# SPDX-License-Identifier: Apache-2.0
"""A saved fleet report in any build (no MPI needed): written again in
every format, one host taken out, merged, compared and stored. The
fixture has the older layout, every result twice (at the top and in its
host's report), which every command still reads.

Usage: test_fleet_saved.py NAME HOSTBENCH FLEET_JSON
"""
import copy
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB, FLEET = hbtest.args("HOSTBENCH", "FLEET_JSON")


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


def widened(ranks):
    """The fixture as a fleet of ranks ranks (nodes node00, node01, ...,
    each the copy of rank 0 or 1), saved to a file; returns its path."""
    with open(FLEET) as f:
        doc = json.load(f)
    hosts, results = [], []
    for r in range(ranks):
        name = f"node{r:02d}"
        h = copy.deepcopy(doc["fleet"]["hosts"][r % 2])
        h["rank"], h["host"] = r, name
        h["report"].pop("results", None)
        hosts.append(h)
        for x in doc["results"]:
            if x["rank"] == r % 2:
                results.append(dict(copy.deepcopy(x), rank=r, host=name))
    doc["fleet"].update(ranks=ranks, hosts=hosts)
    doc["results"] = results
    path = tempfile.mktemp(suffix=".json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def test_csv_of_many_ranks_has_a_row_per_host_and_case():
    p = hb("report", widened(12), "--format", "csv")
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    rows = list(csv.reader(io.StringIO(p.stdout)))
    expect(rows[0] == ["rank", "host", "job", "title", "target", "backend",
                       "params", "unit", "median", "cv", "status", "reason"],
           f"header {rows[0]}")
    body = rows[1:]
    expect(len(body) == 12 * 2 and all(len(r) == 12 for r in body),
           f"{len(body)} rows: {p.stdout[:400]}")
    expect([(r[0], r[1], r[2]) for r in body] ==
           [(str(k), f"node{k:02d}", job) for k in range(12)
            for job in ("memcpy", "memset")], "a row per host and case")
    expect(all(float(r[8]) > 0 and r[10] == "ok" for r in body), "figures")
    # rank 2 is a copy of rank 0: the same figure, in the same unit
    expect(body[4][8] == body[0][8] and body[4][7] == "Gbps", f"{body[4]}")


def test_csv_of_eight_ranks_keeps_a_column_per_host():
    p = hb("report", widened(8), "--format", "csv")
    header = next(csv.reader(io.StringIO(p.stdout)))
    expect(p.returncode == 0 and header[-1] == "rank 7 (node07) status",
           f"header {header}")


def test_html_of_many_ranks_has_a_row_per_host():
    p = hb("report", widened(12), "--format", "html")
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    for table in ("context", "cases"):
        m = re.search(rf'<table class="{table}">\n<thead><tr>(.*?)</tr>'
                      r'</thead>(.*?)</table>', p.stdout, re.S)
        expect(m and m.group(1).startswith("<th>Host</th>"),
               f"{table}: {m and m.group(1)}")
        heads = re.findall(r"<tr><th>([^<]*)</th>", m.group(2))
        expect(heads == [f"rank {k} (node{k:02d})" for k in range(12)],
               f"{table}: a row per host: {heads}")
    m = re.search(r'<table class="cases">\n<thead><tr>(.*?)</tr>',
                  p.stdout)
    expect(m.group(1) == "<th>Host</th><th>memcpy (mem)</th>"
           "<th>memset (mem)</th>", f"a column per case: {m.group(1)}")


if __name__ == "__main__":
    hbtest.main()
