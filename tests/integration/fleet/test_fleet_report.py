# SPDX-License-Identifier: Apache-2.0
"""The fleet report at scale: each result once, the report written again
from its JSON in any format, many ranks as rows, the job and the nodes.

Usage: test_fleet_report.py NAME (environment: HB, HB_FAULTS, HB_MPIRUN,
HB_FIXTURE_DIR)
Every rank runs on this host (mpirun --oversubscribe), so every rank's
node is this machine.
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
# memcpy and memset of 64K
from test_fleet import FAULT_SUITE as SUITE  # noqa: E402
from test_fleet import HB, mpirun, suite_file  # noqa: E402


def fleet_json(ranks, extra=()):
    """A fleet report of ranks ranks of SUITE, saved; (path, document)."""
    out = tempfile.mktemp(suffix=".json")
    p = mpirun([(ranks, ["run", suite_file(SUITE), "--format", "json",
                         "--output", out])], extra=extra, timeout=300)
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    with open(out) as f:
        return out, json.load(f)


def hb(*args):
    return subprocess.run([HB, *args], capture_output=True, text=True,
                          timeout=120)


def same(a, b, where=""):
    """a and b alike, numbers to 1e-9 (start_spread to 10 µs: the report
    keeps seconds since 1970 to 15 digits)."""
    if isinstance(a, dict) and isinstance(b, dict):
        expect(sorted(a) == sorted(b), f"{where}: keys {sorted(a)} "
               f"against {sorted(b)}")
        for k in a:
            same(a[k], b[k], f"{where}/{k}")
    elif isinstance(a, list) and isinstance(b, list):
        expect(len(a) == len(b), f"{where}: {len(a)} against {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}/{i}")
    elif isinstance(a, float) or isinstance(b, float):
        tol = 1e-4 if where.endswith("start_spread") else 1e-9 * abs(a)
        expect(abs(a - b) <= tol, f"{where}: {a} against {b}")
    else:
        expect(a == b, f"{where}: {a!r} against {b!r}")


def old_layout(doc):
    """doc as an older hostbench wrote it: each result in its host's report
    too."""
    old = json.loads(json.dumps(doc))
    for h in old["fleet"]["hosts"]:
        h["report"]["results"] = [
            {k: v for k, v in r.items()
             if k not in ("rank", "host", "start", "end")}
            for r in old["results"] if r["rank"] == h["rank"]]
    del old["fleet"]["job"], old["fleet"]["nodes"]
    path = tempfile.mktemp(suffix=".json")
    with open(path, "w") as f:
        json.dump(old, f)
    return path


def test_each_result_is_in_the_report_once():
    path, doc = fleet_json(2)
    expect(len(doc["results"]) == 4, f"{len(doc['results'])} results")
    expect(sorted((r["rank"], r["job"]) for r in doc["results"]) ==
           [(0, "memcpy"), (0, "memset"), (1, "memcpy"), (1, "memset")],
           "every rank's every case")
    for h in doc["fleet"]["hosts"]:
        expect("results" not in h["report"], "not again in the host's")
        expect(h["report"]["system"] and h["report"]["hostbench"],
               "the host's context kept")
    with open(path) as f:
        expect(f.read().count('"samples"') == 4, "samples written once")
    # one host's report, whole, as every tool reads it
    p = hb("report", path, "--rank", "1", "--format", "json")
    expect(p.returncode == 0, f"report --rank 1: {p.stderr}")
    one = json.loads(p.stdout)
    expect([r["job"] for r in one["results"]] == ["memcpy", "memset"] and
           all(r["status"] == "ok" for r in one["results"]), p.stdout)
    p = hb("compare", path, path, "--rank", "1", "--format", "json")
    expect(p.returncode == 0, f"compare --rank 1: {p.stderr}")
    expect(json.loads(p.stdout)["summary"]["matched"] == 2, p.stdout)


def test_report_writes_a_saved_fleet_report_again_in_every_format():
    path, doc = fleet_json(2)
    p = hb("report", path, "--format", "json")
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    same(doc, json.loads(p.stdout))
    p = hb("report", path)
    expect(p.returncode == 0, f"text: exit {p.returncode}: {p.stderr}")
    expect("Fleet: 2 ranks" in p.stdout and "Spread across hosts" in
           p.stdout, p.stdout)
    for fmt, words in (("md", "## Spread across hosts"),
                       ("csv", "memcpy"),
                       ("html", "Spread across hosts")):
        p = hb("report", path, "--format", fmt)
        expect(p.returncode == 0 and words in p.stdout,
               f"{fmt}: exit {p.returncode}: {p.stderr}")


def test_an_older_fleet_report_still_reads_everywhere():
    path, doc = fleet_json(2)
    old = old_layout(doc)
    p = hb("report", old, "--format", "json")
    expect(p.returncode == 0, f"report: exit {p.returncode}: {p.stderr}")
    again = json.loads(p.stdout)
    expect(len(again["results"]) == 4 and
           all("results" not in h["report"]
               for h in again["fleet"]["hosts"]), "written once now")
    same(doc["fleet"]["spread"], again["fleet"]["spread"])
    for cmd in (["merge", old, path], ["compare", old, path]):
        p = hb(*cmd, "--rank", "1", "--format", "json")
        expect(p.returncode == 0, f"{cmd[0]}: {p.stderr}")
    # a store of one's own: one directly in /tmp is refused
    store = "sqlite:" + os.path.join(tempfile.mkdtemp(), "results.db")
    for f in (old, path):
        p = hb("store", "import", f, "--store", store)
        expect(p.returncode == 0, f"import {f}: {p.stderr}")
    p = hb("history", "--store", store, "--format", "json")
    expect(p.returncode == 0, f"history: {p.stderr}")
    series = json.loads(p.stdout)
    expect("memset" in p.stdout and "memcpy" in p.stdout, p.stdout[:400])
    print(json.dumps(series)[:300], file=sys.stderr)


def test_a_broken_fleet_report_is_refused_in_one_line():
    path, doc = fleet_json(2)
    doc["fleet"]["hosts"][1]["rank"] = 7
    with open(path, "w") as f:
        json.dump(doc, f)
    out = tempfile.mktemp(suffix=".txt")
    p = hb("report", path, "--output", out)
    expect(p.returncode == 2, f"exit {p.returncode}")
    expect(p.stderr.count("\n") == 1 and "fleet.hosts[1] is not rank 1" in
           p.stderr, p.stderr)
    expect(not os.path.exists(out), "nothing written")


def test_many_ranks_are_rows_and_the_spread_names_each_host():
    path, doc = fleet_json(10)
    p = hb("report", path)
    expect(p.returncode == 0, p.stderr)
    text = p.stdout
    widest = max(len(line) for line in text.splitlines())
    expect(widest < 160, f"{widest} characters wide:\n{text}")
    expect("Fleet: 10 ranks: 10 ok, 0 with a failed case, 0 lost" in text,
           text)
    rows = [line.split() for line in text.splitlines()
            if line.split()[:1] and line.split()[0].isdigit()]
    expect([int(r[0]) for r in rows] == list(range(10)), "a row per rank")
    expect(all(r[3] == "2/2" for r in rows), "cases ok per host")
    head = [line for line in text.splitlines()
            if line.startswith("Case ")][-1]
    for col in ("Min", "Min host", "Median", "Max", "Max host", "Outlier"):
        expect(col in head, f"{col} in {head}")
    for sp in doc["fleet"]["spread"]:
        line = [x for x in text.splitlines()
                if x.startswith(sp["title"] + " (")][-1]
        for end in ("min", "max"):
            expect(f"rank {sp[end]['rank']} ({sp[end]['host']})" in line,
                   f"{end} host in {line}")
    md = hb("report", path, "--format", "md").stdout
    expect("| Rank | Host | Status | Cases ok |" in md, md)
    expect(max(len(line) for line in md.splitlines()) < 220, "md narrow")


def test_the_report_names_the_job_and_each_ranks_node():
    env = ["-x", "SLURM_JOB_ID=4242"]
    os.environ["SLURM_JOB_ID"] = "4242"
    path, doc = fleet_json(3, extra=env)
    host = doc["fleet"]["hosts"][0]["host"]
    expect(doc["fleet"]["job"] == "4242", f"job {doc['fleet']['job']}")
    expect(doc["fleet"]["nodes"] == [{"host": host, "ranks": [0, 1, 2]}],
           f"nodes {doc['fleet']['nodes']}")
    text = hb("report", path).stdout
    expect("Job   : 4242" in text, text)
    expect(f"Nodes : 1 node: {host} (ranks 0-2)" in text, text)
    # without a batch system, Open MPI's job id
    del os.environ["SLURM_JOB_ID"]
    path, doc = fleet_json(2)
    expect(doc["fleet"]["job"] and doc["fleet"]["job"].isdigit(),
           f"mpirun's job id {doc['fleet']['job']}")
    expect(doc["fleet"]["job"] ==
           doc["fleet"]["hosts"][1]["report"]["run"]["fleet"]["job"],
           "every rank's")


if __name__ == "__main__":
    hbtest.main()
