# SPDX-License-Identifier: Apache-2.0
"""Hostile plugins, interruption, journal and resume.

Usage: test_reliability.py NAME HOSTBENCH FIXTURE_DIR
Each hostile fixture misbehaves in one way; under isolation its case fails
with the right reason, the case after it still runs, and the report is
complete and valid JSON.
"""
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB, FIXTURES = hbtest.args("HOSTBENCH", "FIXTURE_DIR")
ENV = dict(os.environ, HOSTBENCH_PLUGIN_PATH=os.path.join(FIXTURES, "hostile"))


def suite_file(text):
    f = tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False)
    f.write(text)
    f.close()
    return f.name


def hostile(backend, fragment, extra=""):
    """Run backend's case then a good one; check the verdicts."""
    text = f"""[global]
duration = 20ms
repetitions = 2
warmup = 0

[bad]
target = fixture/spin
backend = {backend}
{extra}

[after]
target = mem/read
size = 64K
"""
    p = subprocess.run([HB, "run", suite_file(text), "--format", "json"],
                       capture_output=True, text=True, env=ENV, timeout=120)
    expect(p.returncode == 1, f"exit {p.returncode}, want 1: {p.stderr}")
    res = json.loads(p.stdout)["results"]
    expect(len(res) == 2, "complete report")
    bad, after = res
    expect(bad["status"] == "failed", f"{backend}: {bad['status']}")
    fragments = fragment if isinstance(fragment, tuple) else (fragment,)
    expect(any(f in (bad["reason"] or "") for f in fragments),
           f"reason {bad['reason']!r} lacks {fragment!r}")
    expect(bad["stats"] is None, "no figure for a failed case")
    expect(after["status"] == "ok", "the suite goes on")
    return bad


def test_crash_in_setup_fails_only_its_case():
    hostile("hostile-crash-setup", "crashed: signal 11")


def test_crash_in_run_fails_only_its_case():
    hostile("hostile-crash-run", "crashed: signal 11")


def test_abort_fails_only_its_case():
    hostile("hostile-abort", "crashed: signal 6")


def test_exit_fails_only_its_case():
    hostile("hostile-exit", "exit(0)")


def test_hang_times_out():
    hostile("hostile-hang", "timed out after 3s", "timeout = 3s")


def test_hung_teardown_times_out():
    hostile("hostile-hang-teardown", "timed out", "timeout = 3s")


def test_negative_count_fails():
    hostile("hostile-negative-count", "negative count")


def test_more_ops_than_asked_fails():
    hostile("hostile-too-many-ops", "operations for")


def test_stdout_write_fails_and_stdout_stays_json():
    hostile("hostile-stdout", "wrote to stdout")


def test_unbounded_leak_hits_memory_limit():
    # killed by its memory group; where hostbench can make none, its
    # allocations fail: it crashes, or a sanitizer build reports it and
    # exits
    hostile("hostile-leak", ("out of memory: the case's processes reached "
                             "their bound of 256M", "crashed",
                             "exited with status 1"),
            "memory_limit = 256M")


def test_crashed_case_leaves_no_temp_file():
    d = tempfile.mkdtemp()
    open(os.path.join(d, "keep.txt"), "w").write("mine")
    hostile("hostile-crash-leaves-file", "crashed", f"dir = {d}")
    expect(os.listdir(d) == ["keep.txt"], f"left behind: {os.listdir(d)}")


LONG = """[global]
duration = 300ms
repetitions = 3
warmup = 0

[one]
target = mem/read
size = 64K

[two]
target = mem/read
size = 128K
parallel = 1, 2

[three]
target = mem/memset
size = 64K
"""


def interrupted(sig, want_status):
    d = tempfile.mkdtemp()
    out = os.path.join(d, "r.json")
    journal = os.path.join(tempfile.mkdtemp(), "j.jsonl")
    p = subprocess.Popen([HB, "run", suite_file(LONG), "--format", "json",
                          "-o", out, "--journal", journal],
                         stderr=subprocess.PIPE, text=True)
    # signal once the first case is measured (the journal says so) and
    # the second one's process runs: it lasts a second, which a busy host
    # only lengthens
    hbtest.wait_for(lambda: os.path.exists(journal) and
                    os.path.getsize(journal) > 0, "the first case journaled")
    hbtest.wait_for(lambda: hbtest.children(p.pid), "the second case runs")
    p.send_signal(sig)
    p.wait(timeout=30)
    expect(p.returncode == want_status, f"exit {p.returncode}")
    doc = json.load(open(out))
    res = doc["results"]
    expect(len(res) == 4, "every case listed")
    expect(res[0]["status"] == "ok", "measured cases kept")
    # the case under way is stopped, not measured to its end
    expect(all(r["status"] == "skipped" and r["reason"] == "interrupted"
               for r in res[1:]), [(r["status"], r["reason"])
                                   for r in res[1:]])
    expect(os.listdir(d) == ["r.json"], f"leftovers {os.listdir(d)}")


def test_sigint_writes_complete_report():
    interrupted(signal.SIGINT, 130)


def test_sigterm_writes_complete_report():
    interrupted(signal.SIGTERM, 143)


def case_runs(pid):
    """Whether a case process of hostbench pid runs (not a probe)."""
    for child in hbtest.children(pid):
        try:
            with open(f"/proc/{child}/cmdline", "rb") as f:
                if f.read().split(b"\0")[2:3] == [b"case"]:
                    return True
        except OSError:
            pass  # gone while we looked
    return False


def interrupt_after_first_case(args):
    """Run LONG with args, SIGINT once a case is journaled; stderr."""
    journal = args[args.index("--journal") + 1] if "--journal" in args \
        else None
    p = subprocess.Popen([HB, "run", suite_file(LONG), *args],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    if journal:
        hbtest.wait_for(lambda: os.path.exists(journal) and
                        os.path.getsize(journal) > 0,
                        "the first case journaled")
    hbtest.wait_for(lambda: case_runs(p.pid), "a case runs")
    p.send_signal(signal.SIGINT)
    err = p.communicate(timeout=30)[1]
    expect(p.returncode == 130, f"exit {p.returncode}: {err}")
    return err


def test_sigint_says_the_resume_command_that_finishes_the_run():
    d = tempfile.mkdtemp()
    out = os.path.join(d, "r.json")
    err = interrupt_after_first_case(["--format", "json", "-o", out,
                                      "--journal", os.path.join(d, "j")])
    said = [l for l in err.splitlines()
            if l.startswith("hostbench: interrupted; continue with: ")]
    expect(len(said) == 1, f"one line says how to go on: {err!r}")
    cmd = shlex.split(said[0].split("continue with: ", 1)[1])
    expect("--resume" in cmd and "--journal" not in cmd, cmd)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    expect(r.returncode == 0, f"the command said: exit {r.returncode}: "
           f"{r.stderr}")
    res = json.load(open(out))["results"]
    expect(len(res) == 4 and all(x["status"] == "ok" for x in res),
           [x["status"] for x in res])
    expect(res[0].get("resumed") is True, "the first case was resumed")


def test_sigint_without_journal_says_how_to_get_one():
    err = interrupt_after_first_case(["--format", "json"])
    expect("hostbench: interrupted; no journal" in err and
           "--journal FILE" in err, err)


def test_journal_and_resume_after_kill():
    d = tempfile.mkdtemp()
    journal = os.path.join(d, "j.jsonl")
    suite = suite_file(LONG)
    p = subprocess.Popen([HB, "run", suite, "--journal", journal,
                          "--format", "json"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    hbtest.wait_for(lambda: os.path.exists(journal) and
                    os.path.getsize(journal) > 0, "the first case journaled")
    p.kill()  # kill -9 of the core itself, mid-suite
    p.wait()
    done = [json.loads(l) for l in open(journal) if l.strip()]
    expect(1 <= len(done) < 4, f"{len(done)} journaled")
    r = subprocess.run([HB, "run", suite, "--resume", journal, "--format",
                        "json"], capture_output=True, text=True, timeout=120)
    expect(r.returncode == 0, r.stderr)
    res = json.loads(r.stdout)["results"]
    expect(len(res) == 4 and all(x["status"] == "ok" for x in res),
           [x["status"] for x in res])
    expect(all(abs(a - b) <= 1e-9 * b
               for a, b in zip(res[0]["samples"], done[0]["samples"])),
           "the journaled case was not measured again")
    expect(len([json.loads(l) for l in open(journal)]) == 4,
           "resume appends the rest to the journal")


SIZES = """[global]
duration = 20ms
repetitions = 3
warmup = 0

[copy]
target = mem/memcpy
size = 64K, 128K, 256K
"""


def journaled(text, *args):
    """Run suite text with a journal (and args); the journal's path and
    what the run wrote on stdout."""
    journal = os.path.join(tempfile.mkdtemp(), "run.jnl")
    r = subprocess.run([HB, "run", suite_file(text), "--journal", journal,
                        "--no-store", *args], capture_output=True, text=True,
                       timeout=120)
    expect(r.returncode == 0, f"run: exit {r.returncode}: {r.stderr}")
    return journal, r.stdout


def report_of(path):
    """hostbench report PATH --format json: (exit status, doc, stderr)."""
    r = subprocess.run([HB, "report", path, "--format", "json"],
                       capture_output=True, text=True, timeout=60)
    return r.returncode, json.loads(r.stdout) if r.returncode == 0 else \
        None, r.stderr


def test_report_reads_a_journal_of_one_case():
    journal, _ = journaled(SIZES.replace("64K, 128K, 256K", "64K"))
    status, doc, err = report_of(journal)
    expect(status == 0, f"exit {status}: {err}")
    res = doc["results"]
    expect(len(res) == 1 and res[0]["status"] == "ok" and
           res[0]["params"]["size"] == 65536, res)


def test_report_reads_a_journal_cut_off_mid_line_with_a_note():
    journal, _ = journaled(SIZES)
    with open(journal) as f:
        text = f.read()
    with open(journal, "w") as f:  # the run died writing its third line
        f.write(text[:len(text) - len(text.splitlines()[-1]) // 2])
    status, doc, err = report_of(journal)
    expect(status == 0, f"exit {status}: {err}")
    expect([r["params"]["size"] for r in doc["results"]] == [65536, 131072],
           doc["results"])
    expect("note:" in err and "1 line cut off" in err, err)


def test_report_of_a_journal_names_its_run():
    journal, out = journaled(SIZES, "--format", "json")
    run = json.loads(out)["run"]
    status, doc, err = report_of(journal)
    expect(status == 0, f"exit {status}: {err}")
    expect(doc["run"]["uuid"] == run["uuid"] and
           doc["run"]["started"] == run["started"] and
           doc["run"]["ended"] >= run["started"], (doc["run"], run))


def store_env():
    e = dict(os.environ, XDG_DATA_HOME=tempfile.mkdtemp())
    e.pop("HOSTBENCH_STORE", None)
    return e


def test_store_import_takes_a_journal_with_its_run_uuid_and_time():
    journal, out = journaled(SIZES, "--format", "json")
    run = json.loads(out)["run"]
    env = store_env()
    first = subprocess.run([HB, "store", "import", journal],
                           capture_output=True, text=True, env=env,
                           timeout=60)
    expect(first.returncode == 0, f"exit {first.returncode}: {first.stderr}")
    expect("1 new run stored" in first.stderr, first.stderr)
    again = subprocess.run([HB, "store", "import", journal],
                           capture_output=True, text=True, env=env,
                           timeout=60)
    expect(again.returncode == 0 and "0 new runs stored" in again.stderr,
           again.stderr)
    h = subprocess.run([HB, "history", "--format", "json"],
                       capture_output=True, text=True, env=env, timeout=60)
    expect(h.returncode == 0, h.stderr)
    points = [p for s in json.loads(h.stdout)["series"] for p in s["points"]]
    expect(len(points) >= 3 and
           all(p["run"] == run["uuid"] and p["time"] == run["started"]
               for p in points), (points, run))


def compared(base, new, part="summary"):
    r = subprocess.run([HB, "compare", base, new, "--format", "json"],
                       capture_output=True, text=True, timeout=60)
    expect(r.returncode in (0, 1), f"exit {r.returncode}: {r.stderr}")
    return json.loads(r.stdout)[part]


def test_compare_of_a_journal_with_itself_matches_each_case_exactly():
    journal, _ = journaled(SIZES)
    got = compared(journal, journal)
    expect(got["matched"] == 3 and got["regressed"] == 0 and
           got["improved"] == 0 and got["only_base"] == 0 and
           got["only_new"] == 0, got)
    # each size against itself: the same figure, never the first size's
    cases = compared(journal, journal, "cases")
    expect(sorted(c["params"].get("size", 0) for c in cases) ==
           [65536, 131072, 262144], [c["params"] for c in cases])
    expect(all(c["base"]["median"] == c["new"]["median"] and
               c["diff"] == 0 for c in cases),
           [(c["title"], c["diff"]) for c in cases])


def test_compare_of_a_report_and_the_journal_of_its_run_matches():
    journal, out = journaled(SIZES, "--format", "json")
    report = os.path.join(os.path.dirname(journal), "run.json")
    with open(report, "w") as f:
        f.write(out)
    got = compared(report, journal)
    expect(got["matched"] == 3 and got["regressed"] == 0 and
           got["only_base"] == 0 and got["only_new"] == 0, got)


if __name__ == "__main__":
    hbtest.main()
