# SPDX-License-Identifier: Apache-2.0
"""Fleet runs under mpirun on one machine.

Usage: test_fleet.py NAME (environment: HB, HB_FAULTS, HB_MPIRUN,
HB_FIXTURE_DIR)
Every rank runs on this host, so host-pair transfers go over loopback and
every rank's host is the same name; what is checked is what a user of a
real fleet reads: both ranks in one report, each result with its rank and
host, the spread per case, and the failures named by rank and host.
"""
import json
import lzma
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB = os.environ["HB"]
HB_FAULTS = os.environ["HB_FAULTS"]  # hostbench with the fault hook
MPIRUN = os.environ["HB_MPIRUN"]
FIXTURES = os.environ["HB_FIXTURE_DIR"]

GLOBAL = """[global]
duration = 50ms
repetitions = 2
warmup = 0
"""


def suite_file(text):
    f = tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False)
    f.write(GLOBAL + text)
    f.close()
    return f.name


def mpirun(contexts, extra=(), timeout=100, env=None, hb=HB):
    """Run one mpirun of hb in app contexts [(ranks, [args...]), ...]."""
    cmd = [MPIRUN, "--oversubscribe", *extra]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    for i, (n, args) in enumerate(contexts):
        cmd += ([":"] if i else []) + ["-np", str(n), hb, *args]
    return subprocess.run(cmd, capture_output=True, text=True,
                          timeout=timeout, env=env)


# A suite whose waits are short, for the tests of a lost rank: a case may
# take 2 s and a rank 3 s more (fleet_timeout) before it counts as lost.
FAULT_SUITE = """
[global]
timeout = 2s
fleet_timeout = 3s

[memcpy]
target = mem/memcpy
size = 64K

[memset]
target = mem/memset
size = 64K
"""


def with_fault(fault, suite=FAULT_SUITE, ranks=2, recovery=True,
               hb=HB_FAULTS):
    """mpirun of hb where HOSTBENCH_FLEET_FAULT=fault makes a rank die or
    hang (in hostbench-faults, by default); returns (process, report or
    None, seconds mpirun took)."""
    out = tempfile.mktemp(suffix=".json")
    env = dict(os.environ, HOSTBENCH_FLEET_FAULT=fault)
    extra = ["-x", "HOSTBENCH_FLEET_FAULT"]
    extra += ["--enable-recovery"] if recovery else []
    start = time.monotonic()
    p = mpirun([(ranks, ["run", suite_file(suite), "--format", "json",
                         "--output", out])], extra=extra, env=env, hb=hb)
    took = time.monotonic() - start
    doc = None
    if os.path.exists(out):
        with open(out) as f:
            doc = json.load(f)
    print(f"{fault}: exit {p.returncode} after {took:.1f} s", file=sys.stderr)
    return p, doc, took


def expect_lost(doc, rank, words, stderr):
    """rank is lost in doc, its reason holds words, the others are ok."""
    expect(doc is not None, f"no report: {stderr}")
    host = doc["fleet"]["hosts"][rank]
    expect(host["status"] == "lost" and words in host["reason"],
           f"rank {rank}: {host}")
    for r in doc["results"]:
        if r["rank"] == rank:
            expect(r["status"] == "failed" and "lost" in r["reason"],
                   f"rank {rank}'s {r['job']}: {r}")
        else:
            expect(r["status"] == "ok", f"rank {r['rank']}: {r}")


def run_json(suite, ranks=2):
    p = mpirun([(ranks, ["run", suite, "--format", "json"])])
    try:
        return p, json.loads(p.stdout)
    except ValueError:
        raise AssertionError(f"exit {p.returncode}, no JSON: {p.stderr}")


def results_of(doc, job):
    return [r for r in doc["results"] if r["job"] == job]


def test_two_ranks_one_report_with_a_rank_pair_transfer():
    p, doc = run_json(suite_file("""
[memcpy]
target = mem/memcpy
size = 64K

[TCP pair]
target = transfer/tcp
peer = rank-pairs
size = 64K
"""))
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    hosts = doc["fleet"]["hosts"]
    expect([h["rank"] for h in hosts] == [0, 1], f"ranks {hosts}")
    expect(all(h["status"] == "ok" for h in hosts), "no rank lost")
    for job in ("memcpy", "TCP pair"):
        res = results_of(doc, job)
        expect(sorted(r["rank"] for r in res) == [0, 1], f"{job}: ranks")
        expect(all(r["status"] == "ok" and r["host"] for r in res),
               f"{job}: {res}")
    pair = results_of(doc, "TCP pair")
    # each rank sent to the other's receiver: two receivers, two ports
    peers = {r["info"]["peer"] for r in pair}
    expect(len(peers) == 2 and all(re.fullmatch(r"127\.0\.0\.1:\d+", x)
                                   for x in peers), f"peers {peers}")
    # the report keeps the suite's parameters, not the resolved ones
    expect(all(r["params"]["peer"] == "rank-pairs" for r in pair),
           "params as written")
    # the token is a secret option: never its value in a report
    expect(all(r["params"]["token"] in ("", "(secret)") for r in pair),
           "no token kept")


def test_each_host_keeps_its_own_report():
    p, doc = run_json(suite_file("""
[memcpy]
target = mem/memcpy
size = 64K
"""))
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    for h in doc["fleet"]["hosts"]:
        rep = h["report"]
        expect(rep["schema_version"] == 1, "a whole report")
        expect(rep["system"]["hostname"] == h["host"] or
               "hostname" not in rep["system"], "its own system")
        # its results are the fleet's of its rank (written once)
        rep["results"] = [r for r in doc["results"]
                          if r["rank"] == h["rank"]]
        expect(len(rep["results"]) == 1 and
               rep["results"][0]["status"] == "ok", "its own results")
    # compare reads one host's report like any report
    files = []
    for h in doc["fleet"]["hosts"]:
        files.append(tempfile.mktemp(suffix=".json"))
        with open(files[-1], "w") as f:
            json.dump(h["report"], f)
    c = subprocess.run([HB, "compare", *files, "--format", "json"],
                       capture_output=True, text=True, timeout=60)
    expect(c.returncode == 0, f"compare: exit {c.returncode}: {c.stderr}")
    expect(json.loads(c.stdout)["summary"]["matched"] == 1, c.stdout)


def test_compare_refuses_a_fleet_report_and_takes_one_host_with_rank():
    out = tempfile.mktemp(suffix=".json")
    p = mpirun([(2, ["run", suite_file("""
[memcpy]
target = mem/memcpy
size = 64K
"""), "--format", "json", "--output", out])])
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    c = subprocess.run([HB, "compare", out, out], capture_output=True,
                       text=True, timeout=60)
    expect(c.returncode == 2, f"refused: exit {c.returncode}")
    expect("a fleet report of 2 hosts: give --rank N" in c.stderr, c.stderr)
    c = subprocess.run([HB, "compare", out, out, "--rank", "1", "--format",
                        "json"], capture_output=True, text=True, timeout=60)
    expect(c.returncode == 0, f"exit {c.returncode}: {c.stderr}")
    expect(json.loads(c.stdout)["summary"]["matched"] == 1, c.stdout)


def test_spread_names_min_median_max_and_outlier():
    p, doc = run_json(suite_file("""
[memcpy]
target = mem/memcpy
size = 64K
"""))
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    (sp,) = doc["fleet"]["spread"]
    values = sorted(r["stats"]["median"] for r in results_of(doc, "memcpy"))
    expect(sp["hosts_ok"] == 2 and sp["hosts"] == 2, f"spread {sp}")
    expect(sp["min"]["value"] == values[0], "min is the lower median")
    expect(sp["max"]["value"] == values[1], "max is the higher median")
    expect(abs(sp["median"] - sum(values) / 2) <= 1e-6 * values[1],
           "median of two")
    # of two hosts the slower is the outlier
    expect(sp["outlier"]["rank"] == sp["min"]["rank"], f"outlier {sp}")


def test_three_ranks_ring_and_the_odd_rank_out_of_pairs():
    p, doc = run_json(suite_file("""
[TLS ring]
target = transfer/tls
peer = ring
size = 64K

[TCP pair]
target = transfer/tcp
peer = rank-pairs
size = 64K
"""), ranks=3)
    expect(p.returncode == 1, f"exit {p.returncode}: {p.stderr}")
    ring = results_of(doc, "TLS ring")
    expect(all(r["status"] == "ok" for r in ring), f"ring {ring}")
    expect(len({r["info"]["peer"] for r in ring}) == 3, "three receivers")
    pair = {r["rank"]: r for r in results_of(doc, "TCP pair")}
    expect(pair[0]["status"] == "ok" and pair[1]["status"] == "ok",
           "ranks 0 and 1 pair up")
    expect(pair[2]["status"] == "failed" and
           "rank 2 of 3 has no partner" in pair[2]["reason"],
           f"odd rank out: {pair[2]}")


def test_sequential_cases_run_on_every_rank():
    p, doc = run_json(suite_file("""
[TCP pair]
target = transfer/tcp
peer = rank-pairs
size = 64K
fleet = sequential

[memcpy]
target = mem/memcpy
size = 64K
fleet = together
"""))
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    expect(len(doc["results"]) == 4 and
           all(r["status"] == "ok" for r in doc["results"]),
           f"results {doc['results']}")


def test_text_report_shows_ranks_and_spread():
    p = mpirun([(2, ["run", suite_file("""
[memcpy]
target = mem/memcpy
size = 64K
"""), "--format", "text"])])
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    expect("Fleet: 2 ranks" in p.stdout, p.stdout)
    expect(re.search(r"rank 1 \(.+\): ok", p.stdout), p.stdout)
    # merge's table of hosts by cases: a column per rank
    expect(re.search(r"Case\s+rank 0 \(.+\)\s+rank 1 \(.+\)", p.stdout),
           p.stdout)
    expect(re.search(r"memcpy \(mem\)\s+\S+Gbps.*\s+\S+Gbps", p.stdout),
           p.stdout)
    # then the spread
    expect(re.search(r"memcpy \(mem\)\s+2/2\s+\S+Gbps", p.stdout), p.stdout)


def test_csv_report_is_the_table_of_hosts_by_cases():
    p = mpirun([(2, ["run", suite_file("""
[memcpy]
target = mem/memcpy
size = 64K, 128K
"""), "--format", "csv"])])
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    rows = p.stdout.splitlines()
    expect(len(rows) == 3, f"a header and two cases: {rows}")
    expect(re.search(r"rank 0 \(.+\) median,.*rank 1 \(.+\) median",
                     rows[0]), rows[0])


def test_a_suite_that_differs_between_ranks_is_refused():
    suite = suite_file("""
[memcpy]
target = mem/memcpy
size = 64K
""")
    p = mpirun([(1, ["run", suite]),
                (1, ["run", suite, "--set", "memcpy.size=128K"])])
    expect(p.returncode == 2, f"exit {p.returncode}: {p.stderr}")
    expect(p.stdout == "", "nothing ran, nothing reported")
    expect(re.search(r"the suite differs between ranks: rank 1 \(.+\)",
                     p.stderr), p.stderr)


def test_a_suite_differing_in_a_core_key_is_refused():
    """Sampling, order, pinning and depth are part of what is measured."""
    suite = suite_file("""
[memcpy]
target = mem/memcpy
size = 64K
""")
    for key in ("memcpy.precision=2%", "memcpy.order=interleaved",
                "memcpy.cpus=0", "memcpy.queue_depth=1",
                "memcpy.max_time=3s"):
        p = mpirun([(1, ["run", suite]), (1, ["run", suite, "--set", key])])
        expect(p.returncode == 2, f"{key}: exit {p.returncode}: {p.stderr}")
        expect(re.search(r"the suite differs between ranks: rank 1 \(.+\)",
                         p.stderr), f"{key}: {p.stderr}")


def test_a_suite_one_rank_cannot_load_is_refused():
    suite = suite_file("""
[memcpy]
target = mem/memcpy
size = 64K
""")
    p = mpirun([(1, ["run", suite]),
                (1, ["run", suite, "--set", "memcpy.size=64Q"])])
    expect(p.returncode == 2, f"exit {p.returncode}: {p.stderr}")
    expect("rank 1 (" in p.stderr and "could not load the suite" in
           p.stderr, p.stderr)
    expect('"64Q" is not a size' in p.stderr, "the rank's own message")


def test_a_failed_case_names_its_rank_and_host():
    suite = suite_file("""
[spin]
target = fixture/spin

[memcpy]
target = mem/memcpy
size = 64K
""")
    good = os.path.join(FIXTURES, "good")
    bad = os.path.join(FIXTURES, "fleet-setup-fails")
    p = mpirun([(1, ["run", suite, "--format", "json", "--plugin-dir",
                     good]),
                (1, ["run", suite, "--format", "json", "--plugin-dir",
                     bad])])
    expect(p.returncode == 1, f"exit {p.returncode}: {p.stderr}")
    doc = json.loads(p.stdout)
    spin = {r["rank"]: r for r in results_of(doc, "spin")}
    expect(spin[0]["status"] == "ok", "rank 0 ran it")
    expect(spin[1]["status"] == "failed" and
           "fixture setup failed on purpose" in spin[1]["reason"],
           f"rank 1: {spin[1]}")
    (not_ok,) = doc["fleet"]["spread"][0]["not_ok"]
    expect(not_ok["rank"] == 1 and not_ok["host"] and
           not_ok["status"] == "failed", f"not_ok {not_ok}")
    expect(all(r["status"] == "ok" for r in results_of(doc, "memcpy")),
           "the suite went on on both ranks")


def test_a_rank_that_dies_is_reported_and_the_others_finish():
    # isolate = false: the crash takes rank 1's whole process with it;
    # --enable-recovery keeps mpirun from ending the job at once (and
    # makes its exit status 0 whatever the ranks return: the report says)
    suite = suite_file("""
[spin]
target = fixture/spin
isolate = false
timeout = 2s
fleet_timeout = 3s

[memcpy]
target = mem/memcpy
size = 64K
""")
    out = tempfile.mktemp(suffix=".json")
    good = os.path.join(FIXTURES, "good")
    bad = os.path.join(FIXTURES, "fleet-crash-run")
    args = ["run", suite, "--format", "json", "--output", out]
    p = mpirun([(1, args + ["--plugin-dir", good]),
                (1, args + ["--plugin-dir", bad])],
               extra=["--enable-recovery"])
    expect(os.path.exists(out), f"no report: {p.stderr}")
    with open(out) as f:
        doc = json.load(f)
    host = doc["fleet"]["hosts"][1]
    expect(host["status"] == "lost" and "died or hung" in host["reason"]
           and '"spin"' in host["reason"], f"rank 1: {host}")
    res = {(r["job"], r["rank"]): r for r in doc["results"]}
    expect(res["spin", 0]["status"] == "ok", "rank 0 ran spin")
    expect(res["memcpy", 0]["status"] == "ok", "rank 0 finished the suite")
    for job in ("spin", "memcpy"):
        r = res[job, 1]
        expect(r["status"] == "failed" and r["reason"].startswith(
            "rank 1 (") and "lost" in r["reason"], f"{job}: {r}")


def test_a_receiver_that_cannot_start_stops_the_run_before_it_starts():
    suite = suite_file("""
[TCP pair]
target = transfer/tcp
peer = rank-pairs
""")
    env = dict(os.environ, HOSTBENCH_FLEET_IF="no-such-interface0")
    cmd = [MPIRUN, "--oversubscribe", "-x", "HOSTBENCH_FLEET_IF"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    p = subprocess.run(cmd + ["-np", "2", HB, "run", suite],
                       capture_output=True, text=True, env=env, timeout=100)
    expect(p.returncode == 2, f"exit {p.returncode}: {p.stderr}")
    expect(p.stdout == "", "nothing ran")
    expect("HOSTBENCH_FLEET_IF=no-such-interface0: no IPv4 address"
           in p.stderr, p.stderr)


def test_fleet_key_takes_together_or_sequential():
    p = subprocess.run([HB, "run", suite_file("""
[memcpy]
target = mem/memcpy
fleet = sideways
""")], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 2, f"exit {p.returncode}")
    expect('fleet: "sideways" is not one of: together, sequential'
           in p.stderr, p.stderr)
    # one value: reports match cases by parameters, and fleet is none
    p = subprocess.run([HB, "run", suite_file("""
[memcpy]
target = mem/memcpy
fleet = together, sequential
""")], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 2, f"exit {p.returncode}")
    expect('[memcpy] fleet: "together, sequential" is not one of'
           in p.stderr, p.stderr)


def test_all_to_one_sends_every_rank_to_rank_0_and_totals_the_senders():
    p, doc = run_json(suite_file("""
[incast]
target = transfer/tcp
peer = all-to-one
size = 64K
"""), ranks=3)
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    res = {r["rank"]: r for r in doc["results"]}
    expect(res[0]["status"] == "skipped" and
           "rank 0 receives" in res[0]["reason"], f"rank 0: {res[0]}")
    # ranks 1 and 2 both sent to rank 0's one receiver
    peers = {res[r]["info"]["peer"] for r in (1, 2)}
    expect(len(peers) == 1 and res[1]["status"] == "ok" and
           res[2]["status"] == "ok", f"senders {res}")
    (sp,) = doc["fleet"]["spread"]
    total = res[1]["stats"]["median"] + res[2]["stats"]["median"]
    expect(sp["hosts_ok"] == 2 and abs(sp["total"] - total) <= 1e-6 * total,
           f"total {sp}")


ALL_TO_ALL = """
[all]
target = transfer/tcp
peer = all-to-all
size = 64K
"""


def test_all_to_all_sends_every_rank_to_every_other_and_totals_them():
    p, doc = run_json(suite_file(ALL_TO_ALL), ranks=3)
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    res = {r["rank"]: r for r in doc["results"]}
    expect(sorted(res) == [0, 1, 2] and
           all(r["status"] == "ok" for r in res.values()), f"ranks {res}")
    expect(all(r["stats"]["median"] > 0 for r in res.values()), "figures")
    # each rank sent to the two others' receivers, never to its own
    sent = {r: res[r]["info"]["peer"].split(",") for r in res}
    receivers = set().union(*sent.values())
    expect(len(receivers) == 3 and all(len(set(v)) == 2
                                       for v in sent.values()), f"{sent}")
    expect(all(re.fullmatch(r"127\.0\.0\.1:\d+", a) for a in receivers),
           f"loopback {receivers}")
    # the one receiver a rank leaves out is its own: one each
    own = {(receivers - set(v)).pop() for v in sent.values()}
    expect(own == receivers, f"each rank leaves out its own: {sent}")
    expect(all(r["params"]["peer"] == "all-to-all" for r in res.values()),
           "params as written")
    (sp,) = doc["fleet"]["spread"]
    total = sum(r["stats"]["median"] for r in res.values())
    expect(sp["peer"] == "all-to-all" and sp["hosts_ok"] == 3 and
           abs(sp["total"] - total) <= 1e-6 * total, f"total {sp}")


def test_all_to_all_in_the_text_report():
    p = mpirun([(3, ["run", suite_file(ALL_TO_ALL), "--format", "text"])])
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    expect("* all (transfer): peer = all-to-all: every rank sends to every "
           "other at once; Total is what the fleet sent" in p.stdout,
           p.stdout)
    expect(re.search(r"^all \(transfer\) +3/3 ", p.stdout, re.M), p.stdout)


def all_to_all_at(ranks):
    """all-to-all among ranks oversubscribed ranks: every rank ok, each
    having sent to every other rank's receiver."""
    p, doc = run_json(suite_file("""
[all]
target = transfer/tcp
peer = all-to-all
size = 16K
duration = 20ms
repetitions = 1
fleet_timeout = 20s
"""), ranks=ranks)
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    res = {r["rank"]: r for r in doc["results"]}
    bad = {r: x.get("reason") for r, x in res.items() if x["status"] != "ok"}
    expect(sorted(res) == list(range(ranks)) and not bad, f"not ok: {bad}")
    expect(all(len(set(x["info"]["peer"].split(","))) == ranks - 1
               for x in res.values()), "each sent to every other")


def test_all_to_all_at_16_ranks_every_rank_ok():
    all_to_all_at(16)


def test_all_to_all_at_32_ranks_every_rank_ok():
    all_to_all_at(32)


def test_two_ranks_all_to_all_is_rank_pairs_both_ways():
    p, doc = run_json(suite_file(ALL_TO_ALL + """
[pairs]
target = transfer/tcp
peer = rank-pairs
size = 64K
"""))
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    for r in (0, 1):
        a2a, = [x for x in results_of(doc, "all") if x["rank"] == r]
        pair, = [x for x in results_of(doc, "pairs") if x["rank"] == r]
        expect(a2a["info"]["peer"] == pair["info"]["peer"],
               f"rank {r}: {a2a['info']} vs {pair['info']}")


def test_each_result_has_its_start_and_end_on_rank_0s_clock():
    p, doc = run_json(suite_file("""
[memcpy]
target = mem/memcpy
size = 64K
"""))
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    for h in doc["fleet"]["hosts"]:
        # ranks of one machine share its clock: the offset is noise
        expect(abs(h["clock_offset"]) < 0.05 and h["clock_rtt"] >= 0,
               f"rank {h['rank']}: offset {h['clock_offset']}")
    starts = [r["start"] for r in doc["results"]]
    expect(all(r["start"] < r["end"] for r in doc["results"]), "start < end")
    expect(abs(time.time() - starts[0]) < 60, "seconds since 1970")
    (sp,) = doc["fleet"]["spread"]
    # the report keeps 15 digits: 10 µs of seconds since 1970
    expect(abs(sp["start_spread"] - (max(starts) - min(starts))) < 1e-4,
           f"start spread {sp['start_spread']} of {starts}")
    expect(sp["start_spread"] < 5, "together: started within seconds")


def test_html_report_shows_ranks_spread_and_a_chart_per_case():
    suite = suite_file("""
[spin]
target = fixture/spin

[memcpy]
target = mem/memcpy
size = 64K
""")
    good = os.path.join(FIXTURES, "good")
    bad = os.path.join(FIXTURES, "fleet-setup-fails")
    p = mpirun([(2, ["run", suite, "--format", "html", "--plugin-dir",
                     good]),
                (1, ["run", suite, "--format", "html", "--plugin-dir",
                     bad])])
    expect(p.returncode == 1, f"exit {p.returncode}: {p.stderr}")
    page = p.stdout
    expect('<table class="ranks"' in page, "the ranks")
    expect(re.search(r"<th[^>]*>Total</th>", page), "a total column")
    expect("fixture setup failed on purpose" in page, "rank 2's reason")
    charts = re.findall(r"<svg [^>]*class=\"chart", page)
    expect(len(charts) == 2, f"a chart per case: {len(charts)}")
    expect(len(re.findall(r'class="bar outlier"', page)) == 2,
           "the outlier marked on each")
    expect('<table class="cases"' in page, "merge's table of hosts by cases")


def test_exit_status_is_rank_0s_and_every_rank_names_the_one_that_differs():
    suite = suite_file("""
[memcpy]
target = mem/memcpy
size = 64K
""")
    # mpirun's defaults: the first non-zero status is the job's
    p = mpirun([(2, ["run", suite]),
                (1, ["run", suite, "--set", "memcpy.size=128K"])])
    expect(p.returncode == 2, f"exit {p.returncode}: {p.stderr}")
    said = re.findall(r"the suite differs between ranks: (rank \d)",
                      p.stderr)
    expect(said == ["rank 2"] * 3, f"every rank names rank 2: {p.stderr}")


def test_an_mpi_build_without_mpirun_refuses_peer_modes_before_the_run():
    for mode in ("rank-pairs", "ring", "all-to-one", "all-to-all"):
        p = subprocess.run([HB, "run", suite_file(f"""
[pair]
target = transfer/tcp
peer = {mode}
""")], capture_output=True, text=True, timeout=60)
        expect(p.returncode == 2, f"{mode}: exit {p.returncode}")
        expect(p.stdout == "", "nothing ran")
        expect(f'peer: "{mode}" sends to another rank' in p.stderr,
               p.stderr)


def test_a_rank_that_dies_before_mpi_init_ends_the_job_after_fleet_timeout():
    # Open MPI's MPI_Init waits forever for a rank that never joins, even
    # with --enable-recovery: every rank gives up after fleet_timeout
    p, doc, took = with_fault("1:init")
    expect(doc is None, "nothing ran, nothing reported")
    expect("MPI_Init did not come back within 3 s" in p.stderr, p.stderr)
    expect(took < 30, f"bounded: {took:.0f} s")


def test_a_rank_that_dies_while_suites_are_compared_is_lost():
    p, doc, took = with_fault("1:hello")
    expect_lost(doc, 1, "while the ranks compared their suites", p.stderr)
    expect(took < 30, f"bounded: {took:.0f} s")


def test_a_rank_that_hangs_while_the_suite_is_checked_is_lost():
    p, doc, took = with_fault("1:agree:hang")
    expect_lost(doc, 1, "while the ranks checked the suite", p.stderr)
    expect(took < 30, f"bounded: {took:.0f} s")


def test_a_rank_that_dies_while_receivers_start_fails_its_partners_case():
    p, doc, took = with_fault("1:peers", ranks=3, suite="""
[global]
timeout = 2s
fleet_timeout = 3s

[TCP ring]
target = transfer/tcp
peer = ring
size = 64K
""")
    expect(doc is not None, f"no report: {p.stderr}")
    host = doc["fleet"]["hosts"][1]
    expect(host["status"] == "lost" and "started receivers" in
           host["reason"], f"rank 1: {host}")
    ring = {r["rank"]: r for r in doc["results"]}
    # 0 sends to the lost rank 1; 2 sends to 0
    expect(ring[0]["status"] == "failed" and "partner rank 1" in
           ring[0]["reason"], f"rank 0: {ring[0]}")
    expect(ring[2]["status"] == "ok", f"rank 2: {ring[2]}")
    expect(took < 30, f"bounded: {took:.0f} s")


# the case lasts long enough (2 samples of 300 ms) that a rank dying as it
# starts it dies before the others are done sending to it
A2A_FAULT_SUITE = """
[global]
duration = 300ms
timeout = 4s
fleet_timeout = 3s

[all]
target = transfer/tcp
peer = all-to-all
size = 64K
"""


def test_all_to_all_leaves_out_only_the_pairs_of_a_lost_rank():
    p, doc, took = with_fault("2:peers", ranks=3, suite=A2A_FAULT_SUITE)
    expect(doc is not None, f"no report: {p.stderr}")
    res = {r["rank"]: r for r in doc["results"]}
    expect(doc["fleet"]["hosts"][2]["status"] == "lost", "rank 2 lost")
    expect(res[2]["status"] == "failed" and "lost" in res[2]["reason"],
           f"rank 2: {res[2]}")
    # ranks 0 and 1 sent to each other, not to rank 2's receiver
    for r in (0, 1):
        expect(res[r]["status"] == "ok",
               f"rank {r}: {res[r]['status']}: {res[r].get('reason')}")
        expect(len(res[r]["info"]["peer"].split(",")) == 1,
               f"rank {r}: {res[r]['info']}")
    expect(took < 30, f"bounded: {took:.0f} s")


def expect_pair_failed(res, ranks, dead):
    """Every rank but dead ok with a figure, its pairs with the others ok
    with their bytes, its pair with dead failed, naming dead."""
    for r in range(ranks):
        if r == dead:
            continue
        x = res[r]
        expect(x["status"] == "ok" and x["stats"]["median"] > 0,
               f"rank {r}: {x['status']}: {x.get('reason')}")
        pairs = {k: v for k, v in x["info"].items() if k.startswith("pair ")}
        failed = [k for k, v in pairs.items() if v.startswith("failed: ")]
        held = [k for k, v in pairs.items() if v.startswith("ok: ")]
        expect(len(pairs) == ranks - 1 and len(failed) == 1 and
               re.fullmatch(rf"pair 127\.0\.0\.1:\d+ \(rank {dead} "
                            r"\([^)]+\)\)", failed[0]),
               f"rank {r}: the pair with rank {dead} failed: {pairs}")
        expect(len(held) == ranks - 2 and
               all(re.match(r"ok: [1-9]\d* bytes acknowledged",
                            pairs[k]) for k in held),
               f"rank {r}: the other pairs held: {pairs}")
        expect(x["info"]["pairs"] == f"{ranks - 2} of {ranks - 1} ok",
               f"rank {r}: {x['info']}")
        expect(any(f"(rank {dead} (" in w and "failed" in w
                   for w in x.get("warnings", [])),
               f"rank {r}: warned: {x.get('warnings')}")


def test_all_to_all_names_the_rank_whose_receiver_died_in_the_case():
    # rank 2 dies as its case starts: the others' pairs with it fail,
    # named, and their case goes on with each other
    p, doc, took = with_fault("2:case", ranks=3, suite=A2A_FAULT_SUITE)
    expect(doc is not None, f"no report: {p.stderr}")
    res = {r["rank"]: r for r in doc["results"]}
    expect(doc["fleet"]["hosts"][2]["status"] == "lost", "rank 2 lost")
    expect_pair_failed(res, 3, 2)
    expect(took < 30, f"bounded: {took:.0f} s")


# 40 samples of 200 ms: a rank killed once the others connected to it
# dies while every other rank still sends to it
A2A_KILL_SUITE = A2A_FAULT_SUITE + """duration = 200ms
repetitions = 40
warmup = 0
timeout = 12s
fleet_timeout = 4s
"""


def served(pid):
    """The connections rank pid's receiver (its hostbench-serve) holds."""
    inodes = set()
    for c in hbtest.children(pid):
        try:
            with open(f"/proc/{c}/cmdline", "rb") as f:
                if b"hostbench-serve" not in f.read():
                    continue
            for fd in os.listdir(f"/proc/{c}/fd"):
                link = os.readlink(f"/proc/{c}/fd/{fd}")
                if link.startswith("socket:["):
                    inodes.add(link[8:-1])
        except OSError:
            continue  # gone while we looked
    n = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                w = line.split()
                n += w[3] == "01" and w[9] in inodes  # ESTABLISHED
    return n


def test_all_to_all_a_rank_killed_mid_case_fails_only_its_pairs():
    # kill -9 from outside, no hook, while every rank sends to every
    # other: the survivors keep their figures and the pairs between
    # them; only the pairs with the dead rank fail, named
    fleet = Fleet(A2A_KILL_SUITE, 4)
    try:
        # every other rank connected to rank 2's receiver: they send
        hbtest.wait_for(lambda: served(fleet.pids[2]) >= 3 or
                        fleet.p.poll() is not None, "rank 2 in its case")
        expect(fleet.p.poll() is None, f"mpirun ended: {fleet.stderr()}")
        os.kill(fleet.pids[2], signal.SIGKILL)
        hbtest.wait_for(fleet.report, "the report", timeout=120)
    finally:
        fleet.end()
    doc = fleet.report()
    err = fleet.stderr()
    hosts = doc["fleet"]["hosts"]
    expect([h["status"] for h in hosts] == ["ok", "ok", "lost", "ok"],
           f"{hosts}: {err}")
    res = {r["rank"]: r for r in doc["results"]}
    expect(res[2]["status"] == "failed" and "lost" in res[2]["reason"],
           f"rank 2: {res[2]}")
    expect_pair_failed(res, 4, 2)
    (sp,) = doc["fleet"]["spread"]
    expect(sp["hosts_ok"] == 3, f"spread: {sp}")
    # the text report lists each survivor's failed pair under the spread
    text = subprocess.run([HB, "report", fleet.out], capture_output=True,
                          text=True, timeout=60).stdout
    for r in (0, 1, 3):
        expect(re.search(rf"^\* all \(transfer\): rank {r} \([^)]+\): "
                         rf"pair 127\.0\.0\.1:\d+ \(rank 2 \([^)]+\)\) "
                         "failed: ", text, re.M), f"rank {r}'s pair: {text}")


def test_a_shipped_build_ignores_the_fault_variable():
    p, doc, took = with_fault("1:case", hb=HB)
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    expect("HOSTBENCH_FLEET_FAULT" not in p.stderr, p.stderr)
    expect([h["status"] for h in doc["fleet"]["hosts"]] == ["ok", "ok"] and
           all(r["status"] == "ok" for r in doc["results"]),
           f"both ranks ran every case: {doc['fleet']['hosts']}")


def test_a_rank_sampling_to_a_precision_is_waited_for_until_max_time():
    # rank 1 samples for max_time (4 s) after rank 0: far longer than its
    # repetitions would take, well within max_time and fleet_timeout
    p, doc = run_json(suite_file("""
[memcpy]
target = mem/memcpy
size = 64K
precision = 0.001%
min_repetitions = 3
max_time = 4s
fleet_timeout = 1s
fleet = sequential
"""))
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    expect([h["status"] for h in doc["fleet"]["hosts"]] == ["ok", "ok"],
           f"no rank lost: {doc['fleet']['hosts']}")


def test_a_rank_warming_up_then_sampling_to_max_time_is_never_lost():
    # together at 4 ranks: 10 s of warm-up (50 samples of 0.2 s), then
    # max_time (2 s) of samples, far beyond a fleet_timeout of 3 s
    p, doc = run_json(suite_file("""
[memcpy]
target = mem/memcpy
size = 64K
duration = 200ms
warmup = 50
precision = 0.001%
min_repetitions = 3
max_time = 2s
fleet_timeout = 3s
"""), ranks=4)
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    expect([h["status"] for h in doc["fleet"]["hosts"]] == ["ok"] * 4,
           f"no rank lost: {doc['fleet']['hosts']}")
    expect(all(r["warmup_samples"] == 50 and r["status"] == "ok"
               for r in doc["results"]), f"{doc['results']}")


def test_a_rank_that_hangs_in_a_case_is_lost_after_its_time_and_fleet_timeout():
    p, doc, took = with_fault("1:case:hang")
    expect_lost(doc, 1, "no result within 5 s", p.stderr)
    expect('at "memcpy' in doc["fleet"]["hosts"][1]["reason"], "which case")
    expect(took < 40, f"bounded: {took:.0f} s")


def test_a_rank_that_dies_before_its_last_result_is_lost_at_the_last_case():
    p, doc, took = with_fault("1:result")
    expect(doc is not None, f"no report: {p.stderr}")
    res = {(r["job"], r["rank"]): r for r in doc["results"]}
    expect(res["memcpy", 1]["status"] == "ok", "its first case arrived")
    expect(res["memset", 1]["status"] == "failed" and
           "lost" in res["memset", 1]["reason"], f"{res['memset', 1]}")
    expect(took < 40, f"bounded: {took:.0f} s")


def test_a_rank_that_dies_after_its_last_result_costs_nothing():
    p, doc, took = with_fault("1:end")
    expect(doc is not None, f"no report: {p.stderr}")
    expect(all(h["status"] == "ok" for h in doc["fleet"]["hosts"]),
           f"hosts {doc['fleet']['hosts']}")
    expect(all(r["status"] == "ok" for r in doc["results"]), "all ok")
    expect(took < 40, f"bounded: {took:.0f} s")


STORE_SUITE = """
[memcpy]
target = mem/memcpy
size = 64K
"""


def fleet_store(db, ranks=3):
    """A fleet run of ranks storing into the SQLite file db."""
    return mpirun([(ranks, ["run", suite_file(STORE_SUITE), "--format",
                            "json", "--store", "sqlite:" + db])])


def test_a_fleet_run_stores_every_rank_from_rank_0_in_one_transaction():
    db = os.path.join(tempfile.mkdtemp(), "results.db")
    # rank 2's run refused by the database: nothing of the run stays
    subprocess.run([HB, "history", "--store", "sqlite:" + db], check=True,
                   capture_output=True, timeout=60)
    con = sqlite3.connect(db)
    con.execute("CREATE TRIGGER no_rank_2 BEFORE INSERT ON run WHEN "
                "NEW.fleet_rank = 2 BEGIN SELECT RAISE(ABORT, 'rank 2 "
                "refused'); END")
    con.commit()
    p = fleet_store(db)
    expect(p.returncode == 4 and "rank 2 refused" in p.stderr,
           f"the store failed: exit {p.returncode}: {p.stderr}")
    expect(con.execute("SELECT count(*) FROM run").fetchone()[0] == 0,
           "ranks 0 and 1 rolled back with rank 2")
    con.execute("DROP TRIGGER no_rank_2")
    con.commit()
    p = fleet_store(db)
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    expect(p.stderr.count("stored in") == 1, f"rank 0 stores: {p.stderr}")
    doc = json.loads(p.stdout)
    hosts = {h["rank"]: h for h in doc["fleet"]["hosts"]}
    runs = con.execute("SELECT uuid, fleet_rank, fleet_job, stored, "
                       "report, report_z, (SELECT count(*) FROM result x "
                       "WHERE "
                       "x.run = r.uuid), (SELECT name FROM host h WHERE "
                       "h.id = r.host) FROM run r ORDER BY fleet_rank"
                       ).fetchall()
    expect([r[1] for r in runs] == [0, 1, 2], f"a run per rank: {runs}")
    expect(len({r[0] for r in runs}) == 3, "three uuids")
    expect(len({r[3] for r in runs}) == 1, "stored at one time")
    for uuid, rank, _, _, report, report_z, nresults, host in runs:
        # the host's report with its results (each once, at the top level),
        # kept xz-compressed since schema 4
        own = dict(hosts[rank]["report"], results=[
            r for r in doc["results"] if r["rank"] == rank])
        if report_z is not None:
            report = lzma.decompress(report_z).decode()
        expect(json.loads(report) == own, f"rank {rank}: its own report")
        expect(nresults == 1, f"rank {rank}: its result")
        expect(host == hosts[rank]["host"], f"rank {rank}: host {host}")
    expect(runs[0][0] == doc["run"]["uuid"], "rank 0: the fleet run's uuid")
    expect(all(r[2] == doc["run"]["fleet"]["job"] for r in runs), "the job")


def test_when_rank_0_hangs_the_others_end_the_job():
    p, doc, took = with_fault("0:case:hang")
    expect(doc is None, "rank 0 writes the report: none")
    expect("no word from rank 0" in p.stderr, p.stderr)
    expect(took < 60, f"bounded: {took:.0f} s")


def test_under_mpirun_defaults_a_killed_rank_ends_the_job_at_once():
    p, doc, took = with_fault("1:case", recovery=False)
    expect(doc is None, "mpirun kills every rank: no report")
    expect(p.returncode != 0, f"exit {p.returncode}")
    expect(took < 20, f"at once: {took:.0f} s")


# A suite for freezing a rank from outside: its first case runs long
# enough (fifteen samples of 0.2 s) to be caught in; each case may take
# 8 s (its timeout) and a rank 10 s more (fleet_timeout: 16 ranks on two
# busy CPUs take seconds to join).
FREEZE_SUITE = """
[global]
duration = 200ms
repetitions = 15
warmup = 0
timeout = 8s
fleet_timeout = 10s

[memcpy long]
target = mem/memcpy
size = 64K

[memset]
target = mem/memset
size = 64K
duration = 50ms
repetitions = 2
"""

# What a rank may take to give up on a frozen one: the case's own time
# plus fleet_timeout plus 5 s (docs/fleet.md). A bound, not a speed.
FREEZE_BOUND = 8 + 10 + 5


def rank_of(pid):
    """The MPI rank of process pid (from its environment), or None."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = f.read().split(b"\0")
    except OSError:
        return None
    for kv in env:
        if kv.startswith(b"OMPI_COMM_WORLD_RANK="):
            return int(kv.split(b"=", 1)[1])
    return None


in_case = hbtest.in_case


class Fleet:
    """mpirun --enable-recovery of hostbench on ranks ranks, its stderr
    lines read as they come with the time each came; every process it
    started is killed at the end (a frozen rank is woken to die). With
    stop_early, rank 1 is stopped as soon as it exists: before MPI_Init
    (it loads its suite and plugins first)."""

    def __init__(self, suite, ranks, stop_early=False, journals=None):
        self.out = tempfile.mktemp(suffix=".json")
        cmd = [MPIRUN, "--oversubscribe", "--enable-recovery"]
        cmd += ["--allow-run-as-root"] if os.geteuid() == 0 else []
        cmd += ["-np", str(ranks)]
        if journals:  # each rank its own journal, j-RANK in journals
            cmd += ["sh", "-c", 'exec "$0" "$@" --journal '
                    f'"{journals}/j-$OMPI_COMM_WORLD_RANK"']
        cmd += [HB, "run", suite_file(suite), "--format", "json",
                "--output", self.out]
        self.lines = []
        self.p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.pids = {}
        if stop_early:
            self.pids = hbtest.wait_for(lambda: self._rank(1), "rank 1",
                                        interval=0.001)
            os.kill(self.pids[1], signal.SIGSTOP)
            self.frozen = time.monotonic()
        self.pids.update(hbtest.wait_for(lambda: self._ranks(ranks),
                                         f"{ranks} ranks started"))

    def _read(self):
        for line in self.p.stderr:
            self.lines.append((time.monotonic(), line))

    def _ranks(self, n):
        found = {rank_of(c): c for c in hbtest.children(self.p.pid)}
        found.pop(None, None)
        return found if len(found) == n else None

    def _rank(self, r):
        for c in hbtest.children(self.p.pid):
            if rank_of(c) == r:
                return {r: c}
        return None

    def freeze(self, rank):
        """SIGSTOP rank while it runs its first case; returns when."""
        hbtest.wait_for(lambda: in_case(self.pids[rank]) or
                        self.p.poll() is not None, f"rank {rank} in a case")
        expect(self.p.poll() is None, f"mpirun ended first: {self.stderr()}")
        os.kill(self.pids[rank], signal.SIGSTOP)
        return time.monotonic()

    def gave_up(self, words):
        """{rank: time} of the stderr lines holding words, by rank."""
        found = {}
        for when, line in self.lines:
            m = re.search(r"fleet: rank (\d+) \(", line)
            if words in line and m:
                found.setdefault(int(m.group(1)), when)
        return found

    def report(self):
        if not os.path.exists(self.out):
            return None
        with open(self.out) as f:
            return json.load(f)

    def stderr(self):
        return "".join(line for _, line in self.lines)

    def end(self, timeout=60):
        """Wait for mpirun (bounded), then kill whatever is left."""
        try:
            self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        for pid in self.pids.values():
            for sig in (signal.SIGCONT, signal.SIGKILL):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()
        self.reader.join(timeout=10)


def frozen_rank_0(ranks):
    """Rank 0 stopped in a case: every other rank names it and gives up
    within the bound; no report blames a rank that was not stopped."""
    fleet = Fleet(FREEZE_SUITE, ranks)
    try:
        frozen = fleet.freeze(0)
        hbtest.wait_for(lambda: len(fleet.gave_up("giving up")) ==
                        ranks - 1, "every other rank gave up", timeout=120)
    finally:
        fleet.end()
    err = fleet.stderr()
    gave = fleet.gave_up("no word from rank 0 (")
    expect(sorted(gave) == list(range(1, ranks)), f"{gave}: {err}")
    took = max(gave.values()) - frozen
    print(f"{ranks} ranks, rank 0 frozen: the others gave up after "
          f"{took:.1f} s", file=sys.stderr)
    expect(took < FREEZE_BOUND, f"gave up after {took:.1f} s: {err}")
    expect('at "memcpy long"' in err, f"the case named: {err}")
    doc = fleet.report()
    if doc is not None:  # rank 0 woke up before it was killed
        hosts = doc["fleet"]["hosts"]
        expect(all(h["status"] != "lost" for h in hosts), f"{hosts}")
        expect(hosts[0]["status"] == "late", f"rank 0: {hosts[0]}")


def frozen_worker(ranks, rank):
    """rank stopped in a case: rank 0 counts it lost, naming it, within
    the bound, and reports every other rank ok."""
    fleet = Fleet(FREEZE_SUITE, ranks)
    try:
        frozen = fleet.freeze(rank)
        hbtest.wait_for(lambda: fleet.gave_up("lost:"), "a rank lost",
                        timeout=120)
        hbtest.wait_for(fleet.report, "the report", timeout=120)
    finally:
        fleet.end()
    err = fleet.stderr()
    lost = fleet.gave_up("lost:")
    expect(list(lost) == [rank], f"rank {rank} lost, no other: {err}")
    took = lost[rank] - frozen
    print(f"{ranks} ranks, rank {rank} frozen: lost after {took:.1f} s",
          file=sys.stderr)
    expect(took < FREEZE_BOUND, f"lost after {took:.1f} s: {err}")
    doc = fleet.report()
    hosts = doc["fleet"]["hosts"]
    expect([h["status"] for h in hosts] ==
           ["lost" if r == rank else "ok" for r in range(ranks)],
           f"{hosts}")
    expect("no result within 18 s" in hosts[rank]["reason"] and
           'at "memcpy long"' in hosts[rank]["reason"], f"{hosts[rank]}")


def test_a_rank_frozen_before_mpi_init_ends_mpirun_with_recovery():
    # the others' MPI_Init gives up after fleet_timeout (3 s) and ends the
    # job: mpirun exits, the frozen rank with it, within 3 + 10 s
    fleet = Fleet(FAULT_SUITE, 4, stop_early=True)
    try:
        fleet.p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        pass
    ended = time.monotonic()
    alive = fleet.p.poll() is None
    fleet.end()
    err = fleet.stderr()
    expect(not alive, f"mpirun still running after 60 s: {err}")
    took = ended - fleet.frozen
    print(f"mpirun ended {took:.1f} s after rank 1 froze", file=sys.stderr)
    expect("MPI_Init did not come back within 3 s" in err, err)
    expect(took < 3 + 10, f"mpirun ended after {took:.1f} s: {err}")


def test_rank_0_frozen_at_4_ranks_is_named_by_every_rank_in_bounded_time():
    frozen_rank_0(4)


def test_rank_0_frozen_at_8_ranks_is_named_by_every_rank_in_bounded_time():
    frozen_rank_0(8)


def test_a_worker_frozen_at_4_ranks_is_lost_in_bounded_time():
    frozen_worker(4, 2)


def test_rank_0_frozen_at_16_ranks_is_named_by_every_rank_in_bounded_time():
    frozen_rank_0(16)


def test_a_worker_frozen_at_8_ranks_is_lost_in_bounded_time():
    frozen_worker(8, 5)


def test_a_worker_frozen_at_16_ranks_is_lost_in_bounded_time():
    frozen_worker(16, 11)


# One case of 2 s; rank 0 waits 3 + 3 s for a result, a rank 3 + 3 + 2 s
# for rank 0's next word.
LATE_SUITE = """
[global]
duration = 200ms
repetitions = 10
warmup = 0
timeout = 3s
fleet_timeout = 3s

[memcpy]
target = mem/memcpy
size = 64K
"""


def journal_status(journals, rank):
    """{case title: status} of rank's journal in journals."""
    with open(os.path.join(journals, f"j-{rank}")) as f:
        lines = [json.loads(x) for x in f if x.strip()]
    return {x["title"]: x["status"] for x in lines if "key" in x}


def rank_0_stopped_and_continued(ranks):
    """Rank 0 stopped in its case and continued once every other rank gave
    up on it: rank 0 blames nobody; should it write a report, it is late,
    no rank is lost and a result a rank journaled ok is ok."""
    journals = tempfile.mkdtemp()
    fleet = Fleet(LATE_SUITE, ranks, journals=journals)
    try:
        fleet.freeze(0)
        hbtest.wait_for(lambda: len(fleet.gave_up("giving up")) ==
                        ranks - 1, "every other rank gave up", timeout=120)
        os.kill(fleet.pids[0], signal.SIGCONT)
        fleet.p.wait(timeout=60)
    finally:
        fleet.end()
    err = fleet.stderr()
    expect(not fleet.gave_up("lost:"), f"a rank was blamed: {err}")
    doc = fleet.report()
    print(f"{ranks} ranks, rank 0 continued: "
          f"{'a' if doc else 'no'} report", file=sys.stderr)
    if doc is None:
        return  # the others' MPI_Abort ended rank 0 first
    hosts = doc["fleet"]["hosts"]
    expect(hosts[0]["status"] == "late" and
           all(h["status"] == "ok" for h in hosts[1:]), f"{hosts}")
    for r in doc["results"]:
        if r["rank"] > 0 and \
                journal_status(journals, r["rank"]).get(r["title"]) == "ok":
            expect(r["status"] == "ok", f"rank {r['rank']}: {r}")


def test_rank_0_stopped_and_continued_at_4_ranks_blames_nobody():
    rank_0_stopped_and_continued(4)


def test_rank_0_stopped_and_continued_at_2_ranks_keeps_results_ok():
    rank_0_stopped_and_continued(2)


def test_a_rank_stopped_mid_all_to_all_journals_what_the_report_says():
    # kill -STOP from outside in an all-to-all case: rank 0 counts it
    # lost; Open MPI's teardown wakes it, and it finishes the case, which
    # its journal must not then call ok
    journals = tempfile.mkdtemp()
    fleet = Fleet(A2A_KILL_SUITE, 3, journals=journals)
    try:
        hbtest.wait_for(lambda: served(fleet.pids[2]) >= 2 or
                        fleet.p.poll() is not None, "rank 2 in its case")
        os.kill(fleet.pids[2], signal.SIGSTOP)
        hbtest.wait_for(fleet.report, "the report", timeout=120)
        try:
            fleet.p.wait(timeout=60)  # the teardown, left to Open MPI
        except subprocess.TimeoutExpired:
            pass
    finally:
        fleet.end()
    doc = fleet.report()
    err = fleet.stderr()
    expect([h["status"] for h in doc["fleet"]["hosts"]] ==
           ["ok", "ok", "lost"], f"{doc['fleet']['hosts']}: {err}")
    res = {r["rank"]: r for r in doc["results"]}
    journaled = journal_status(journals, 2)
    print(f"rank 2's journal: {journaled}", file=sys.stderr)
    expect(res[2]["status"] == "failed" and
           journaled.get("all") in (None, "failed"),
           f"report {res[2]['status']}, journal {journaled}")
    for r in (0, 1):  # the others journal what the report says
        expect(journal_status(journals, r).get("all") == res[r]["status"],
               f"rank {r}: {journal_status(journals, r)} vs {res[r]}")


# A case and a host-pair transfer: a rank that dies after its last result
# then holds MPI_Finalize up
PAIR_FAULT_SUITE = FAULT_SUITE.replace("[memset]\ntarget = mem/memset",
                                       "[pair]\ntarget = transfer/tcp\n"
                                       "peer = rank-pairs")


def test_a_rank_killed_after_its_last_result_leaves_mpirun_status_0():
    p, doc, _ = with_fault("1:end", suite=PAIR_FAULT_SUITE)
    expect(doc is not None, f"no report: {p.stderr}")
    expect(all(h["status"] == "ok" for h in doc["fleet"]["hosts"]) and
           all(r["status"] == "ok" for r in doc["results"]),
           f"{doc['fleet']['hosts']}")
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")


def test_when_rank_0_dies_mpirun_with_recovery_exits_non_zero():
    p, doc, _ = with_fault("0:case")
    expect(doc is None, "rank 0 writes the report: none")
    expect("no word from rank 0" in p.stderr, p.stderr)
    expect(p.returncode != 0, f"exit {p.returncode}: no report")


def hosts_by_rank(db):
    """{fleet rank or None: {host id}} of the runs stored in db."""
    con = sqlite3.connect(db)
    seen = {}
    for host, rank in con.execute("SELECT host, fleet_rank FROM run"):
        seen.setdefault(rank, set()).add(host)
    con.close()
    return seen


def placed_twice(db, binding):
    """Two fleet runs of 2 ranks on this node (mpirun --bind-to binding),
    then two runs of one host, all stored in db."""
    for _ in range(2):
        p = mpirun([(2, ["run", suite_file(STORE_SUITE), "--format", "json",
                         "--store", "sqlite:" + db])],
                   extra=["--bind-to", binding])
        expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
        placement = json.loads(p.stdout)["run"]["fleet"]["placement"]
        expect(placement.startswith("cpus "), f"placement {placement!r}")
    for _ in range(2):
        r = subprocess.run([HB, "run", suite_file(STORE_SUITE), "--store",
                            "sqlite:" + db], capture_output=True, text=True,
                           timeout=60)
        expect(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")


def two_ranks_on_a_node_are_two_series(binding):
    db = os.path.join(tempfile.mkdtemp(), "results.db")
    placed_twice(db, binding)
    seen = hosts_by_rank(db)
    # each rank one host of its own, the same in both runs: its series
    # never alternates with the other rank's
    expect(len(seen[0]) == 1 and len(seen[1]) == 1 and
           seen[0] != seen[1], f"hosts by rank: {seen}")
    # the host's runs alone: one host, one series
    expect(len(seen[None]) == 1, f"runs alone: {seen}")


def test_two_ranks_bound_on_one_node_are_two_series():
    two_ranks_on_a_node_are_two_series("core" if os.cpu_count() >= 2
                                       else "none")


def test_two_unbound_ranks_on_one_node_are_two_series():
    two_ranks_on_a_node_are_two_series("none")


if __name__ == "__main__":
    hbtest.main()
