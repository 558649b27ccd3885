# SPDX-License-Identifier: Apache-2.0
"""A fleet of unlike hosts: a rank whose hostbench has no gcrypt plugin
(a copy of the build's hostbench beside a plugins/ directory without it,
which is where that binary looks) runs with ranks that have it.

Usage: test_fleet_unlike.py NAME (environment: HB, HB_FAULTS, HB_MPIRUN,
HB_FIXTURE_DIR)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402
from test_fleet import HB, MPIRUN, suite_file  # noqa: E402

# backend = *: every backend that offers the target on that host
SUITE = suite_file("""
[AES]
target = crypto/aes-128-gcm
size = 16K
backend = *

[memcpy]
target = mem/memcpy
size = 64K
""")


def without(plugin):
    """A hostbench whose plugin directory lacks the plugin file named."""
    top = tempfile.mkdtemp()
    os.mkdir(os.path.join(top, "plugins"))
    shutil.copy(HB, top)
    built = os.path.join(os.path.dirname(HB), "plugins")
    names = [n for n in os.listdir(built) if n.endswith(".so")]
    expect(plugin in names, f"{plugin} built: {names}")
    for name in names:
        if name != plugin:
            shutil.copy(os.path.join(built, name),
                        os.path.join(top, "plugins"))
    return os.path.join(top, os.path.basename(HB))


def without_gcrypt():
    """A hostbench whose plugin directory lacks crypto_gcrypt.so."""
    return without("crypto_gcrypt.so")


def run_fleet(apps, suite=SUITE):
    """apps: [(ranks, hostbench binary, extra args)]; (process, report)."""
    out = tempfile.mktemp(suffix=".json")
    ctxs = []
    for i, (n, hb, extra) in enumerate(apps):
        args = ["run", suite, *extra]
        if i == 0:
            args += ["--format", "json", "--output", out]
        ctxs.append((n, args, hb))
    p = mpirun_programs(ctxs)
    doc = None
    if os.path.exists(out):
        with open(out) as f:
            doc = json.load(f)
    return p, doc


def mpirun_programs(ctxs):
    """mpirun of app contexts [(ranks, args, hostbench binary)]."""
    cmd = [MPIRUN, "--oversubscribe"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    for i, (n, args, hb) in enumerate(ctxs):
        cmd += ([":"] if i else []) + ["-np", str(n), hb, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def by(doc):
    return {(r["rank"], r["job"], r["backend"]): r for r in doc["results"]}


def test_a_rank_without_a_plugin_skips_its_cases_and_runs_the_rest():
    p, doc = run_fleet([(1, HB, []), (1, without_gcrypt(), [])])
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    res = by(doc)
    skipped = res[(1, "AES", "gcrypt")]
    expect(skipped["status"] == "skipped" and
           'rank 1 (' in skipped["reason"] and
           'has no plugin "gcrypt"' in skipped["reason"], f"{skipped}")
    others = [r for k, r in res.items() if k != (1, "AES", "gcrypt")]
    expect(len(others) >= 5 and all(r["status"] == "ok" for r in others),
           f"the rest ran: {[(k, r['status']) for k, r in res.items()]}")
    expect(res[(0, "AES", "gcrypt")]["stats"]["median"] > 0,
           "rank 0 measured gcrypt")
    (sp,) = [s for s in doc["fleet"]["spread"] if s["backend"] == "gcrypt"]
    expect(sp["hosts_ok"] == 1 and sp["not_ok"][0]["rank"] == 1,
           f"spread {sp}")
    path = tempfile.mktemp(suffix=".json")
    with open(path, "w") as f:
        json.dump(doc, f)
    text = subprocess.run([HB, "report", path], capture_output=True,
                          text=True, timeout=60).stdout
    expect("* AES (gcrypt): rank 1 (" in text and
           'skipped: rank 1 (' in text, f"the report says so:\n{text}")


def test_rank_0_without_a_plugin_reports_the_case_from_the_others():
    p, doc = run_fleet([(1, without_gcrypt(), []), (2, HB, [])])
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    res = by(doc)
    expect(res[(0, "AES", "gcrypt")]["status"] == "skipped", "rank 0 lacks")
    for r in (1, 2):
        expect(res[(r, "AES", "gcrypt")]["status"] == "ok",
               f"rank {r}: {res[(r, 'AES', 'gcrypt')]}")
    (sp,) = [s for s in doc["fleet"]["spread"] if s["backend"] == "gcrypt"]
    expect(sp["hosts_ok"] == 2 and sp["hosts"] == 3, f"spread {sp}")
    expect(len(doc["results"]) == 3 * len(doc["fleet"]["spread"]),
           "every rank has every case")


def test_an_unlike_host_that_also_differs_otherwise_is_refused():
    p, doc = run_fleet([(1, without_gcrypt(), []),
                        (1, HB, ["--set", "AES.size=32K"])])
    expect(p.returncode == 2, f"exit {p.returncode}: {p.stderr}")
    expect(doc is None, "nothing ran")
    expect("the suite differs between ranks: rank 1 (" in p.stderr,
           p.stderr)
    # a host that has the plugin yet lacks its cases differs too
    p, doc = run_fleet([(1, HB, []),
                        (1, HB, ["--set", "AES.backend=openssl"])])
    expect(p.returncode == 2 and "differs between ranks: rank 1 (" in
           p.stderr, f"exit {p.returncode}: {p.stderr}")


# a target only the mem plugin offers, and one every rank has
MEM_SUITE = suite_file("""
[memcpy]
target = mem/memcpy
size = 64K

[AES]
target = crypto/aes-128-gcm
size = 16K
""")


def test_a_target_only_some_ranks_offer_runs_there_and_is_skipped_elsewhere():
    p, doc = run_fleet([(1, HB, []), (1, without("mem.so"), [])],
                       suite=MEM_SUITE)
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    res = {(r["rank"], r["job"]): r for r in doc["results"]}
    expect(len(res) == 4, f"every rank has every case: {list(res)}")
    skipped = res[(1, "memcpy")]
    expect(skipped["status"] == "skipped" and
           'rank 1 (' in skipped["reason"] and
           'has no plugin offering "mem/memcpy"' in skipped["reason"],
           f"{skipped}")
    for k in ((0, "memcpy"), (0, "AES"), (1, "AES")):
        expect(res[k]["status"] == "ok", f"{k}: {res[k]}")


def test_a_target_no_rank_offers_is_refused():
    hb = without("mem.so")
    p, doc = run_fleet([(2, hb, [])], suite=MEM_SUITE)
    expect(p.returncode == 2 and doc is None, f"exit {p.returncode}")
    expect('no loaded plugin on any rank offers "mem/memcpy"' in p.stderr,
           p.stderr)


if __name__ == "__main__":
    hbtest.main()
