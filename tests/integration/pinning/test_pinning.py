# SPDX-License-Identifier: Apache-2.0
"""The cpus key, NUMA and caches in sysinfo, and cycles per byte.

Usage: test_pinning.py NAME HOSTBENCH FIXTURE_DIR
Runs test_NAME. Rates are compared only as ratios measured in one run,
with wide bounds: other builds share this machine. A test that needs two
CPUs it may use exits 77 (skipped) on a host without them.
"""
import atexit
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB, FIXTURES = hbtest.args("HOSTBENCH", "FIXTURE_DIR")
ENV = dict(os.environ, HOSTBENCH_PLUGIN_PATH=os.path.join(FIXTURES, "good"))
ENV.pop("HOSTBENCH_NO_PERF", None)


def run(*args, env=ENV, affinity=None):
    """Run hostbench (on the CPUs of affinity); (status, stdout, stderr)."""
    pre = (lambda: os.sched_setaffinity(0, affinity)) if affinity else None
    p = subprocess.run([HB, *args], capture_output=True, text=True, env=env,
                       timeout=170, preexec_fn=pre)
    return p.returncode, p.stdout, p.stderr


def suite(text):
    """A temporary suite file holding text; returns its path."""
    f = tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False)
    f.write(text)
    f.close()
    atexit.register(os.unlink, f.name)
    return f.name


def results(text, *extra, env=ENV, affinity=None):
    """Run the suite text as JSON; its results, after checking exit 0."""
    status, out, err = run("run", suite(text), "--format", "json", *extra,
                           env=env, affinity=affinity)
    expect(status == 0, f"exit {status}: {err}")
    return json.loads(out)["results"]


def two_cpus():
    """Two CPUs this process may use, or skip the test."""
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        raise hbtest.Skip("needs two CPUs it may use")
    return allowed[:2]


SPIN = """[global]
duration = 100ms
repetitions = 5
warmup = 1

"""


def job(label, cpus, parallel):
    return f"""[{label}]
target = fixture/spin
size = 64K
parallel = {parallel}
cpus = {cpus}

"""


def cpu_per_wall(res):
    """CPU seconds per wall second over a result's samples."""
    d = res["sample_details"]
    return sum(s["cpu_seconds"] for s in d) / sum(s["seconds"] for s in d)


def cpu_rate(results_):
    """The median bytes per CPU-second over the samples of results_: what
    the case does with the CPU it got, which a neighbour taking the rest
    of the CPU does not move."""
    rates = sorted(s["bytes"] / s["cpu_seconds"] for r in results_
                   for s in r["sample_details"] if s["cpu_seconds"] > 0)
    return rates[len(rates) // 2]


def test_two_workers_on_one_cpu_each_get_half():
    a, b = two_cpus()
    # one worker and two on the same CPU, in turn, three times, then two
    # CPUs: many short samples, so some run while the host leaves us alone
    rounds = "".join(job(f"one{i}", a, 1) + job(f"shared{i}", a, 2) +
                     job(f"apart{i}", f"{a},{b}", 2) for i in range(3))
    res = results(SPIN + rounds,
                  "--set", "duration=50ms", "--set", "repetitions=10")
    ones, shareds, aparts = res[0::3], res[1::3], res[2::3]
    expect(all(r["cpus"] == [a] for r in ones), f"one: cpus {ones[0]['cpus']}")
    expect(all(r["cpus"] == [a, a] for r in shareds),
           f"shared: cpus {shareds[0]['cpus']}")
    expect(all(r["cpus"] == [a, b] for r in aparts),
           f"apart: cpus {aparts[0]['cpus']}")
    # whatever else runs, two workers pinned to one CPU never use more
    for r in shareds:
        expect(cpu_per_wall(r) < 1.15,
               f"two workers pinned to one CPU used {cpu_per_wall(r):.2f}")
    # with at most one CPU between them, each of the two gets about half
    # of it. Their work per CPU-second beside one worker's is shown, not
    # judged: on the 2-CPU virtual machine it ranged from 0.86 to 1.74
    # between runs of the same build (the cause was not found)
    print(f"work per CPU-second, two workers / one: "
          f"{cpu_rate(shareds) / cpu_rate(ones):.2f}")
    # two workers on two CPUs use more than one of them when the host
    # leaves them their CPUs (a case not flagged starved); their rate is
    # not compared: two virtual CPUs may share one core of the host
    free = [r for r in aparts if not r["flags"]["starved"]]
    if not free:
        print("every two-CPU case was starved: their CPU use not judged")
        return
    most = max(s["cpu_seconds"] / s["seconds"]
               for r in free for s in r["sample_details"])
    expect(most > 1.05, f"two workers on two CPUs used at most {most:.2f}")


def test_setup_runs_on_the_workers_cpu():
    a, b = two_cpus()
    env = dict(ENV, HOSTBENCH_PLUGIN_PATH=os.path.join(FIXTURES, "setup-cpu"))
    # worker 0 on the second CPU, worker 1 on the first: not where the
    # core would have run them unpinned
    (res,) = results(SPIN + job("setup", f"{b},{a}", 2),
                     "--set", "repetitions=1", env=env)
    expect(res["info"].get("setup_cpu.0") == str(b),
           f"worker 0's setup ran on {res['info']}, want CPU {b}")
    expect(res["info"].get("setup_cpu.1") == str(a),
           f"worker 1's setup ran on {res['info']}, want CPU {a}")
    expect(res["cpus"] == [b, a], f"cpus {res['cpus']}")


def test_spread_gives_workers_their_own_cpu():
    two_cpus()
    (res,) = results(SPIN + job("spread", "spread", 2),
                     "--set", "repetitions=1")
    expect(len(set(res["cpus"])) == 2, f"spread: cpus {res['cpus']}")
    expect(res["params"]["cpus"] == "spread", "the value in params")


def test_cpus_shown_in_text_and_csv():
    a = sorted(os.sched_getaffinity(0))[0]
    text = suite(SPIN + job("shared", a, 2))
    status, out, err = run("run", text, "--set", "repetitions=1")
    expect(status == 0, f"exit {status}: {err}")
    expect(f"cpus {a},{a}" in out, f"no cpus note in {out!r}")
    status, out, err = run("run", text, "--set", "repetitions=1",
                           "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    expect(rows[0]["cpus"] == f"{a};{a}", f"csv cpus {rows[0]['cpus']!r}")
    expect(float(rows[0]["cycles_per_byte"]) > 0, "csv cycles_per_byte")


def bad_input(cpus, fragment):
    """cpus = value is refused: exit 2, one line naming it, no report."""
    status, out, err = run("run", suite(SPIN + job("bad", cpus, 1)))
    expect(status == 2, f"cpus = {cpus}: exit {status}, want 2 ({err!r})")
    expect(out == "", f"stdout not empty: {out!r}")
    lines = err.splitlines()
    expect(len(lines) == 1, f"want one error line, got {lines!r}")
    expect("[bad] cpus:" in lines[0] and fragment in lines[0],
           f"{lines[0]!r} lacks {fragment!r}")


def test_cpu_that_does_not_exist_is_bad_input():
    bad_input("0,8000", "CPU 8000 does not exist here (CPUs ")


def test_cpu_list_that_is_not_one_is_bad_input():
    bad_input("1-x", '"1-x" is not a CPU list (e.g. 0-3,8), numa:N, '
              'spread or compact')


def test_node_that_does_not_exist_is_bad_input():
    bad_input("numa:999", "node 999 does not exist here")


def test_cpu_not_allowed_skips_the_case():
    a, b = two_cpus()
    (res,) = results(SPIN + job("elsewhere", b, 1), affinity={a})
    expect(res["status"] == "skipped", f"status {res['status']}")
    expect(res["reason"] == f"cpus: CPU {b} is not allowed here "
           f"(allowed: {a})", f"reason {res['reason']!r}")


def test_cycles_per_byte_recorded_with_method():
    a = sorted(os.sched_getaffinity(0))[0]
    (res,) = results(SPIN + job("spin", a, 1))
    expect(res["cycles_per_byte"] > 0, f"cycles_per_byte {res!r}")
    expect(res["cycles_method"] in ("perf", "calibrated"),
           f"cycles_method {res['cycles_method']!r}")


def test_calibrated_clock_when_perf_is_refused():
    a = sorted(os.sched_getaffinity(0))[0]
    text = SPIN + job("spin", a, 1)
    (default,) = results(text)
    (forced,) = results(text, env=dict(ENV, HOSTBENCH_NO_PERF="1"))
    expect(forced["cycles_method"] == "calibrated",
           f"cycles_method {forced['cycles_method']!r}")
    expect(forced["cycles_per_byte"] > 0, "calibrated cycles_per_byte")
    if default["cycles_method"] == "perf":
        ratio = forced["cycles_per_byte"] / default["cycles_per_byte"]
        expect(0.2 < ratio < 5, f"calibrated/perf cycles per byte {ratio}")


def test_sysinfo_reports_nodes_and_caches():
    status, out, err = run("sysinfo", "--format", "json")
    expect(status == 0, f"exit {status}: {err}")
    system = json.loads(out)["system"]
    nodes = system["numa_nodes"]
    expect(len(nodes) >= 1, "at least one node")
    expect(all(isinstance(n["node"], int) and n["memory_kb"] >= 0
               for n in nodes), f"nodes {nodes!r}")
    expect(any(n["cpus"] for n in nodes), "a node with CPUs")
    caches = system["caches"]
    if os.path.isdir("/sys/devices/system/cpu/cpu0/cache/index0"):
        expect(caches and all(c["size"] > 0 for c in caches),
               f"caches {caches!r}")
        last = max(c["level"] for c in caches)
        expect(system["last_level_cache"] ==
               [c["size"] for c in caches if c["level"] == last][-1],
               "last_level_cache is the last level's size")
    status, out, err = run("sysinfo")
    expect("\nNUMA : node " in out, f"no NUMA line in {out!r}")


if __name__ == "__main__":
    hbtest.main()
