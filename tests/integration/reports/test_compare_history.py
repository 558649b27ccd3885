# SPDX-License-Identifier: Apache-2.0
"""compare judged against the store's history of the two runs' host.

Usage: test_compare_history.py NAME HOSTBENCH
Runs test_NAME. One real run gives the report; every other run is a copy
of it with its own uuid and start and every rate scaled, so what the
history holds, and so each verdict, does not depend on the machine.
"""
import atexit
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB = hbtest.args("HOSTBENCH")
WORK = tempfile.mkdtemp(prefix="hb-cmphist-")
atexit.register(shutil.rmtree, WORK, ignore_errors=True)
os.chmod(WORK, 0o700)
STORE = "sqlite:" + os.path.join(WORK, "store", "results.db")

SUITE = """[global]
duration = 30ms
repetitions = 6
warmup = 1
unit = GB/s
store = no

[fill]
target = mem/memset
size = 64K

[sum]
target = mem/read
size = 64K
"""

# The rates of the earlier runs of the host, as factors of the base run:
# they move up to 30% from one run to the next (1.0 -> 1.3).
HISTORY = [1.0, 1.3, 1.05, 1.25, 0.98, 1.28]


def run(*args):
    """Run hostbench; return (status, stdout, stderr)."""
    p = subprocess.run([HB, *args], capture_output=True, text=True,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


def path(name):
    return os.path.join(WORK, name)


_measured = []


def measured():
    """The report of one real run of SUITE (run once)."""
    if not _measured:
        with open(path("suite.ini"), "w") as f:
            f.write(SUITE)
        status, _, err = run("run", path("suite.ini"), "--format", "json",
                             "-o", path("real.json"))
        expect(status == 0, f"run: exit {status}: {err}")
        _measured.append(json.load(open(path("real.json"))))
    return json.loads(json.dumps(_measured[0]))


def steady(r, factor):
    """r's samples made steady (0.8% apart at most) at factor times its
    median, its statistics and flags to match: no verdict then hangs on
    how steady the real run was."""
    rate = r["stats"]["median"] * factor
    rates = [rate * (1 + 0.002 * (i % 5))
             for i in range(len(r["sample_details"]))]
    for s, v in zip(r["sample_details"], rates):
        s["bytes"] = v * s["seconds"]
        s["cpu_seconds"] = s["seconds"]
    r["samples"] = rates
    mid = statistics.median(rates)
    r["stats"].update(median=mid, min=min(rates), max=max(rates),
                      mean=statistics.mean(rates), p25=mid, p75=mid,
                      stddev=statistics.pstdev(rates), ci95_low=mid * 0.998,
                      ci95_high=mid * 1.002)
    r["stats"]["cv"] = r["stats"]["stddev"] / r["stats"]["mean"]
    r["bytes_per_cpu_second"] = mid
    r["flags"] = {k: False for k in r["flags"]}
    r["warnings"] = []


def copy(name, factor, minute, edit=None):
    """A run of its own: the real report with steady samples at factor
    times its rates, started minute minutes into the day. Its path."""
    doc = measured()
    doc["run"]["uuid"] = str(uuid.uuid4())
    doc["run"]["started"] = "2026-01-01T00:%02d:00.000Z" % minute
    for r in doc["results"]:
        expect(r["status"] == "ok", f"{r['title']}: {r['status']}")
        steady(r, factor)
    if edit:
        edit(doc)
    json.dump(doc, open(path(name), "w"))
    return path(name)


def stored(*paths):
    status, _, err = run("store", "import", *paths, "--store", STORE)
    expect(status == 0, f"store import: exit {status}: {err}")


def history(n=len(HISTORY)):
    """Store n earlier runs of HISTORY's rates; return their paths."""
    runs = [copy("h%d.json" % i, f, i) for i, f in enumerate(HISTORY[:n])]
    stored(*runs)
    return runs


def compare(a, b, *extra, want=0):
    """compare A B -f json EXTRA --fail-on-regression (exit want): its
    cases by title and its summary line's text."""
    status, out, err = run("compare", a, b, "--format", "json",
                           "--fail-on-regression", *extra)
    expect(status == want, f"compare: exit {status}, want {want}: {err}")
    doc = json.loads(out)
    return {c["title"]: c for c in doc["cases"]}


def verdicts(cases):
    return {t: c["verdict"] for t, c in cases.items()}


def test_a_move_the_host_made_before_is_within_noise():
    history()
    base, new = copy("base.json", 1.0, 30), copy("new.json", 0.8, 31)
    stored(base, new)
    # without the history a 20% drop of steady samples is a regression
    alone = compare(base, new, "--no-store", want=1)
    expect(set(verdicts(alone).values()) == {"regressed"}, verdicts(alone))
    expect(all(c["history"] is None for c in alone.values()), alone)
    cases = compare(base, new, "--store", STORE)
    expect(set(verdicts(cases).values()) == {"within noise"},
           verdicts(cases))
    for c in cases.values():
        h = c["history"]
        expect(h["runs"] == len(HISTORY) and h["decided"] is True, h)
        # the largest move back to back: 0.98 -> 1.28
        floor = max(abs(b / a - 1) for a, b in zip(HISTORY, HISTORY[1:]))
        expect(abs(h["floor"] - floor) < 1e-6, f"floor {h['floor']}")
    status, out, _ = run("compare", base, new, "--store", STORE)
    expect(status == 0 and "within noise (history)" in out and
           "2 cases also against the moves between earlier runs" in out,
           out)


def test_a_move_beyond_the_history_is_still_a_regression():
    history()
    base, new = copy("base.json", 1.0, 30), copy("new.json", 0.5, 31)
    stored(base, new)
    cases = compare(base, new, "--store", STORE, want=1)
    expect(set(verdicts(cases).values()) == {"regressed"}, verdicts(cases))
    expect(all(c["history"]["decided"] is False for c in cases.values()),
           cases)
    status, out, _ = run("compare", base, new, "--store", STORE, "-f",
                         "csv")
    rows = out.splitlines()
    expect(status == 0 and rows[0].endswith(",history_runs,"
                                            "history_floor_pct"), rows[0])
    expect(all(r.split(",")[-2] == str(len(HISTORY)) for r in rows[1:]),
           out)


def test_too_short_a_history_is_not_used():
    history(4)
    base, new = copy("base.json", 1.0, 30), copy("new.json", 0.8, 31)
    stored(base, new)
    cases = compare(base, new, "--store", STORE, want=1)
    expect(set(verdicts(cases).values()) == {"regressed"}, verdicts(cases))
    expect(all(c["history"] is None for c in cases.values()), cases)


def test_another_context_has_no_history():
    """A new kernel (or library) explains a move: the history of the old
    one does not excuse it."""
    history()

    def kernel(doc):
        doc["system"]["kernel"] += "-new"
    base = copy("base.json", 1.0, 30)
    new = copy("new.json", 0.8, 31, kernel)
    stored(base, new)
    cases = compare(base, new, "--store", STORE, want=1)
    expect(set(verdicts(cases).values()) == {"regressed"}, verdicts(cases))
    expect(all(c["history"] is None for c in cases.values()), cases)


def test_runs_not_in_the_store_have_no_history():
    history()
    base, new = copy("base.json", 1.0, 30), copy("new.json", 0.8, 31)
    stored(base)
    cases = compare(base, new, "--store", STORE, want=1)
    expect(all(c["history"] is None for c in cases.values()), cases)
    # the same run on both sides (a report edited in place) neither
    same = copy("same.json", 0.8, 31)
    doc = json.load(open(same))
    doc["run"]["uuid"] = json.load(open(base))["run"]["uuid"]
    json.dump(doc, open(same, "w"))
    cases = compare(base, same, "--store", STORE, want=1)
    expect(all(c["history"] is None for c in cases.values()), cases)


def test_a_missing_store_is_not_made():
    base, new = copy("base.json", 1.0, 30), copy("new.json", 0.8, 31)
    missing = os.path.join(WORK, "nothing", "results.db")
    status, _, err = run("compare", base, new, "--store", "sqlite:" +
                         missing, "--fail-on-regression")
    expect(status == 1 and err == "", f"exit {status}: {err}")
    expect(not os.path.exists(os.path.dirname(missing)), "store made")


def test_a_store_that_cannot_be_read_is_said_and_the_comparison_stands():
    base, new = copy("base.json", 1.0, 30), copy("new.json", 0.8, 31)
    bad = os.path.join(WORK, "bad")
    os.mkdir(bad, 0o700)
    with open(os.path.join(bad, "results.db"), "w") as f:
        f.write("not a database\n" * 100)
    status, out, err = run("compare", base, new, "--store",
                           "sqlite:" + os.path.join(bad, "results.db"),
                           "--fail-on-regression")
    expect(status == 1 and "regressed" in out, f"exit {status}: {out}")
    expect(err.count("\n") == 1 and "compare: no history" in err and
           "not a database" in err, err)


if __name__ == "__main__":
    hbtest.main()
