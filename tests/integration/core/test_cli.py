# SPDX-License-Identifier: Apache-2.0
"""End-to-end tests of the hostbench command line.

Usage: test_cli.py NAME HOSTBENCH FIXTURE_DIR SOURCE_DIR
Runs test_NAME. Tests check values a user reads (exit status, JSON fields,
report lines); none depends on timing.
"""
import csv
import io
import json
import os
import pty
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB, FIXTURES, SOURCE = hbtest.args("HOSTBENCH", "FIXTURE_DIR",
                                    "SOURCE_DIR")
QUICK = ["--set", "duration=20ms", "--set", "repetitions=3", "--set", "warmup=1",
         "--set", "precision=0"]


def run(*args, env=None):
    """Run hostbench; return (status, stdout, stderr)."""
    p = subprocess.run([HB, *args], capture_output=True, text=True, env=env,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


def suite(text):
    """A temporary suite file holding text; returns its path."""
    f = tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False)
    f.write(text)
    f.close()
    return f.name


def bad_input(text_or_args, fragment):
    """A bad suite or command line: exit 2, nothing on stdout, one line."""
    args = text_or_args if isinstance(text_or_args, list) else \
        ["run", suite(text_or_args)]
    status, out, err = run(*args)
    expect(status == 2, f"exit status {status}, want 2 ({err!r})")
    expect(out == "", f"stdout not empty: {out!r}")
    lines = [l for l in err.splitlines() if not l.startswith("Try ")]
    expect(len(lines) == 1, f"want one error line, got {lines!r}")
    expect(fragment in lines[0], f"{lines[0]!r} lacks {fragment!r}")


MEM = """[global]
duration = 20ms
repetitions = 3
warmup = 1
unit = GB/s

[copy]
target = mem/memcpy
size = 1M, 2M
parallel = 1, 2

[fill]
target = mem/memset
size = 64K
"""


def test_run_json_matches_contract():
    status, out, err = run("run", suite(MEM), "--format", "json")
    expect(status == 0, f"exit {status}: {err}")
    doc = json.loads(out)
    expect(doc["schema_version"] == 1, "schema_version")
    for key in ("hostbench", "system", "libraries", "results"):
        expect(key in doc, f"missing {key}")
    res = doc["results"]
    expect(len(res) == 5, f"{len(res)} results, want 5")
    expect([r["job"] for r in res] == ["copy"] * 4 + ["fill"], "job order")
    expect([(r["params"]["size"], r["params"]["parallel"]) for r in res[:4]]
           == [(1048576, 1), (1048576, 2), (2097152, 1), (2097152, 2)],
           "cartesian product in file order")
    for r in res:
        expect(r["status"] == "ok", f"{r['job']}: {r['status']} {r.get('reason')}")
        expect(r["target"] in ("mem/memcpy", "mem/memset"), "target")
        expect(r["backend"] == "mem", "backend")
        s = r["stats"]
        expect(0 < s["min"] <= s["median"] <= s["max"], f"min/median/max {s}")
        expect(s["p25"] <= s["median"] <= s["p75"], "quartiles")
        expect(len(r["samples"]) == 3, "three kept samples (warm-up dropped)")
        expect(isinstance(r["warnings"], list), "warnings list")


def test_run_text_has_report_sections():
    status, out, err = run("run", suite(MEM))
    expect(status == 0, err)
    for heading in ("-- [Application]", "-- [Linked Libraries]",
                    "-- [System Information]", "-- [Base Performance]"):
        expect(heading in out, f"missing {heading}")
    # size x parallel reads as a grid: sizes down, parallels across
    lines = [l.split() for l in out.splitlines()]
    expect(["copy", "1", "parallel", "2", "parallels", "CI95"] in lines,
           "grid header")
    expect(any(l[:2] == ["size", "2M"] and len(l) == 5
               and re.fullmatch(r"±\d+\.\d%", l[4]) for l in lines),
           "grid row of the 2M cases, with the widest interval")
    lines = [l for l in out.splitlines() if l.startswith("fill")]
    expect(len(lines) == 1 and "GB/s" in lines[0], f"fill line: {lines}")


def test_job_note_is_said_under_its_line_and_kept_with_the_case():
    # a job's note (the default run says why Poly1305 stands for VMAC):
    # its text whole, commas included, once per case, in text and JSON,
    # and again when the saved report is rendered
    path = suite("""[global]
duration = 20ms
repetitions = 3
warmup = 0
[copy]
target = mem/memcpy
size = 64K, 128K
note = in place of the classic VMAC, as neither library has it
""")
    status, out, err = run("run", path, "--no-store", "-f", "json")
    expect(status == 0, err)
    res = json.loads(out)["results"]
    expect(len(res) == 2 and all(
        r["case"]["note"] == "in place of the classic VMAC, as neither "
        "library has it" for r in res), [r["case"].get("note") for r in res])
    status, out, err = run("run", path, "--no-store", "-f", "json",
                           "--set", "size=64K")
    expect(status == 0, err)
    status, text, err = run("report", suite(out))
    expect(status == 0 and re.search(
        r"^copy \(mem\) : .* \[1\]\n  \[1\] in place of the classic VMAC, "
        r"as neither library has it", text, re.M), text)
    status, out, err = run("run", os.path.join(SOURCE, "conf",
                                               "default.ini"),
                           "--no-store", "-f", "json", "--set",
                           "AES256/CTR/Poly1305.max_time=300ms", "--set",
                           "duration=20ms", "--set", "precision=0", "--set",
                           "repetitions=2", "--set", "warmup=0")
    expect(status == 0, err)
    poly = [r for r in json.loads(out)["results"]
            if r["job"] == "AES256/CTR/Poly1305"]
    expect(poly and "VMAC" in poly[0]["case"]["note"], poly)


def test_run_csv_has_row_per_result():
    status, out, err = run("run", suite(MEM), "--format", "csv")
    expect(status == 0, err)
    rows = list(csv.DictReader(io.StringIO(out)))
    expect(len(rows) == 5, f"{len(rows)} rows")
    expect(all(r["status"] == "ok" for r in rows), "all ok")


def test_output_file_written_whole():
    d = tempfile.mkdtemp()
    path = os.path.join(d, "r.json")
    status, out, err = run("run", suite(MEM), "--format", "json", "-o", path)
    expect(status == 0 and out == "", err)
    expect(json.load(open(path))["results"], "results in file")
    expect(os.listdir(d) == ["r.json"], f"leftovers: {os.listdir(d)}")


def test_bad_input_writes_no_output_file():
    d = tempfile.mkdtemp()
    path = os.path.join(d, "r.json")
    status, _, _ = run("run", suite("[x]\ntarget = mem/memcpy\nsize = 16Q\n"),
                       "-o", path)
    expect(status == 2 and os.listdir(d) == [], "nothing written")


def test_set_overrides_suite_value():
    status, out, err = run("run", suite(MEM), "--format", "json",
                           "--set", "fill.size=128K")
    expect(status == 0, err)
    fill = json.loads(out)["results"][-1]
    expect(fill["params"]["size"] == 131072, "override applied")


def test_bad_size_is_one_line_exit_2():
    bad_input("[x]\ntarget = mem/memcpy\nsize = 16Q\n", ":3:")


def test_unknown_key_is_one_line_exit_2():
    bad_input("[x]\ntarget = mem/memcpy\nsiz = 1M\n", "size")


def test_unknown_target_is_one_line_exit_2():
    bad_input("[x]\ntarget = mem/memcpyy\n", "mem/memcpyy")


def test_parallel_zero_is_one_line_exit_2():
    bad_input("[x]\ntarget = mem/memcpy\nparallel = 0\n", "parallel")


def test_zero_duration_is_one_line_exit_2():
    bad_input("[x]\ntarget = mem/memcpy\nduration = 0\n", "duration")


def test_empty_suite_is_one_line_exit_2():
    bad_input("; nothing here\n", "no jobs")


def test_missing_suite_is_one_line_exit_2():
    bad_input(["run", "/nonexistent/suite.ini"], "/nonexistent/suite.ini")


def test_not_ini_is_one_line_exit_2():
    bad_input("\x7fELF\x02\x01\x01 binary junk\n", ":1:")


def test_unknown_option_is_exit_2():
    bad_input(["run", "--frobnicate"], "--frobnicate")


def test_missing_plugin_dir_is_exit_2():
    bad_input(["list", "--plugin-dir", "/nonexistent/plugins"],
              "/nonexistent/plugins")


def test_bad_format_is_exit_2():
    bad_input(["list", "--format", "xml"], "xml")


def stderr_on_a_terminal(args):
    """Run hostbench with stderr on a pty; return (status, what it showed)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([HB, *args], stdout=subprocess.DEVNULL,
                         stderr=slave)
    os.close(slave)
    shown = b""
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # EIO: the last writer closed the terminal
            break
        if not data:
            break
        shown += data
    os.close(master)
    return p.wait(timeout=300), shown.decode()


PROGRESS_SUITE = ("[copy]\ntarget = mem/memcpy\nsize = 64K, 128K\n"
                  "duration = 20ms\nrepetitions = 2\nwarmup = 0\n")


def test_progress_line_is_rewritten_in_place_on_a_terminal():
    status, shown = stderr_on_a_terminal(["run", suite(PROGRESS_SUITE)])
    expect(status == 0, shown)
    lines = shown.split("\r")
    expect(any(line.startswith("[1/2] copy [64KB] (mem)  0:0")
               and line.endswith(" left\x1b[K") for line in lines), shown)
    expect("[2/2] copy [128KB] (mem)" in shown, shown)
    # a sanitizer build says so on a line of its own first; the closing
    # line of the run follows the cleared progress line
    # the plan of the run comes first, a line a case, then the progress
    plan, _, rest = shown.replace("\r\n", "\n").partition("(about ")
    expect("hostbench: benchmarking the following 2 cases" in plan and
           "\n  copy [64KB] (mem)\n  copy [128KB] (mem)\n" in rest, shown)
    rest = rest[rest.index("copy [128KB] (mem)\n") + 19:]
    progress = "\n".join(l for l in rest.split("\n")
                         if "sanitizer build" not in l)
    progress, _, end = progress.rpartition("\r\x1b[Khostbench: 2 cases: ")
    expect("\n" not in progress.strip("\n"),
           f"the progress stays on one line: {shown!r}")
    expect(end.startswith("2 ok,"), f"not cleared at the end: {shown!r}")


# fixed-duration cases: 3 x (1 warm-up + 2 samples) x 0.5 s = 4.5 s
BUDGET_SUITE = ("[copy]\ntarget = mem/memcpy\nsize = 64K, 128K, 256K\n"
                "duration = 500ms\nrepetitions = 2\nwarmup = 1\n")
BUDGET_SECONDS = 3 * (1 + 2) * 0.5


def seconds_left(line):
    """The seconds of "... M:SS left" at the end of a progress line."""
    m = re.search(r"  (\d+):(\d\d) left", line)
    return int(m.group(1)) * 60 + int(m.group(2)) if m else None


def test_first_estimate_is_the_suites_own_budget():
    status, shown = stderr_on_a_terminal(["run", suite(BUDGET_SUITE),
                                          "--no-store"])
    expect(status == 0, shown)
    first = [l for l in shown.split("\r") if l.startswith("[1/3] ")]
    expect(first, shown)
    left = seconds_left(first[0])
    expect(abs(left - BUDGET_SECONDS) <= 0.3 * BUDGET_SECONDS,
           f"first estimate {left} s, budget {BUDGET_SECONDS} s: {first[0]!r}")


def test_progress_ticks_during_a_case():
    status, shown = stderr_on_a_terminal(["run", suite(BUDGET_SUITE),
                                          "--no-store"])
    expect(status == 0, shown)
    # a case lasts 1.5 s of samples: the line is rewritten while it runs
    lefts = [seconds_left(l) for l in shown.split("\r")
             if l.startswith("[1/3] ")]
    expect(len(lefts) >= 2 and lefts[-1] < lefts[0],
           f"the first case's line counts down: {lefts}")


def test_run_ends_with_one_line_matching_the_report():
    d = tempfile.mkdtemp()
    out, db = os.path.join(d, "r.json"), os.path.join(d, "r.db")
    status, _, err = run("run", suite(FIXTURE_SUITE), "--format", "json",
                         "-o", out, "--store", f"sqlite:{db}",
                         env=fixture_env())
    expect(status == 1, f"exit {status}: {err}")
    doc = json.load(open(out))
    count = {k: sum(r["status"] == k for r in doc["results"])
             for k in ("ok", "failed", "skipped")}
    last = err.rstrip("\n").split("\n")[-1]
    want = (f"hostbench: {len(doc['results'])} cases: {count['ok']} ok, "
            f"{count['failed']} failed, {count['skipped']} skipped in ")
    expect(last.startswith(want), f"{last!r}, want {want!r}...")
    expect(re.search(f"; report in {re.escape(out)}; stored in "
                     f"sqlite:{re.escape(db)} \\(run [0-9a-f-]{{36}}\\)$",
                     last), last)
    expect(err.count("stored in") == 1, f"said once: {err!r}")


def test_progress_line_is_not_in_redirected_stderr():
    status, _, err = run("run", suite(PROGRESS_SUITE))
    expect(status == 0, err)
    expect("[1/2]" not in err and "\r" not in err, repr(err))


def test_list_shows_mem_targets():
    status, out, err = run("list")
    expect(status == 0, err)
    for t in ("mem/memcpy", "mem/memset", "mem/read"):
        expect(t in out, f"{t} not listed")


def test_list_json_is_valid():
    status, out, err = run("list", "--format", "json")
    expect(status == 0, err)
    doc = json.loads(out)
    names = {(t["target"], t["backend"]) for t in doc["targets"]}
    expect(("mem/read", "mem") in names, "mem/read listed")


def test_describe_shows_options():
    status, out, err = run("describe", "mem/memcpy")
    expect(status == 0, err)
    expect("size" in out and "last-level cache" in out,
           f"size option and its default: {out!r}")


def test_describe_unknown_target_suggests():
    bad_input(["describe", "mem/memcp"], "mem/memcpy")


def test_version_and_help():
    status, out, _ = run("--version")
    expect(status == 0 and out.startswith("hostbench "), "version")
    status, out, _ = run("--help")
    expect(status == 0 and "describe TARGET" in out, "help")


def fixture_env():
    env = dict(os.environ)
    env["HOSTBENCH_PLUGIN_PATH"] = os.path.join(FIXTURES, "behaviour")
    return env


FIXTURE_SUITE = """[global]
duration = 10ms
repetitions = 2
warmup = 0

[fails]
target = fixture/spin
backend = fixture-setup-fails

[skips]
target = fixture/spin
backend = fixture-setup-skips

[breaks]
target = fixture/spin
backend = fixture-run-fails

[mem]
target = mem/read
size = 64K
"""


def test_failing_plugins_do_not_stop_the_suite():
    status, out, err = run("run", suite(FIXTURE_SUITE), "--format", "json",
                           env=fixture_env())
    expect(status == 1, f"exit {status}, want 1 (a case failed): {err}")
    res = {r["job"]: r for r in json.loads(out)["results"]}
    expect(res["fails"]["status"] == "failed", "setup failure is failed")
    expect("on purpose" in res["fails"]["reason"], res["fails"]["reason"])
    expect(res["skips"]["status"] == "skipped", "skip is skipped")
    expect("not available" in res["skips"]["reason"], "skip reason")
    expect(res["breaks"]["status"] == "failed", "run failure is failed")
    expect("mismatch" in res["breaks"]["reason"], res["breaks"]["reason"])
    expect(res["breaks"]["stats"] is None, "a failed case has no figure")
    expect(res["mem"]["status"] == "ok", "the rest still runs")


def test_skip_alone_exits_zero():
    status, out, err = run("run", suite(FIXTURE_SUITE), "--format", "json",
                           "--set", "fails.backend=fixture-setup-skips",
                           "--set", "breaks.backend=fixture-setup-skips",
                           env=fixture_env())
    expect(status == 0, f"exit {status}: skipped cases are not failures")


def test_default_suite_runs():
    conf = os.path.join(SOURCE, "conf", "default.ini")
    status, out, err = run("run", conf, "--format", "json", *QUICK,
                           "--set", "size=1M")
    res = json.loads(out)["results"]
    expect(len(res) > 0, "results")
    bad = [(r["title"], r["reason"]) for r in res if r["status"] == "failed"]
    expect(not bad and status == 0, f"exit {status}, failed: {bad}")


if __name__ == "__main__":
    hbtest.main()
