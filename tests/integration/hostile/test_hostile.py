# SPDX-License-Identifier: Apache-2.0
"""Hostile plugins: vendor code that misbehaves in the process it is
loaded in, from a constructor on.

Usage: test_hostile.py NAME HOSTBENCH FIXTURE_DIR
Each fixture (tests/fixtures/hostile.c, in FIXTURE_DIR/hostile-NAME) does
one hostile thing; each test checks what a user would: the other plugins
still list and run, the exit status, the reason text, a complete valid
report, and that nothing is left running (no process with the test's
marker in its command line, no helper of the hostbench that ran) and no
file left behind. Every test has its own cache, temporary directory and
marker, so tests may run side by side.
"""
import atexit
import csv
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB, FIXTURES = hbtest.args("HOSTBENCH", "FIXTURE_DIR")
GOOD = os.path.join(FIXTURES, "good")
GOOD_SO = os.path.join(GOOD, "fixture.so")
QUICK = """[global]
duration = 20ms
repetitions = 2
warmup = 0
timeout = 3s
"""


def fixture_dir(name):
    return os.path.join(FIXTURES, "hostile-" + name)


def fixture_so(name):
    return os.path.join(fixture_dir(name), "hostile-%s.so" % name)


class Run:
    """One finished hostbench: status, output, pid and wall time."""

    def __init__(self, p, out, err, secs):
        self.rc, self.out, self.err = p.returncode, out, err
        self.pid, self.secs = p.pid, secs

    def json(self):
        try:
            return json.loads(self.out)
        except ValueError as e:
            raise AssertionError("stdout is not JSON (%s): %r" %
                                 (e, self.out[:300]))


class Scratch:
    """A test's own directories, environment and marker."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="hb-hostile-")
        atexit.register(shutil.rmtree, self.root, True)
        self.tmp = os.path.join(self.root, "tmp")
        self.cache = os.path.join(self.root, "cache")
        os.mkdir(self.tmp)
        self.marker = "987.%d" % random.randrange(10**8, 10**9)
        self.env = dict(os.environ, XDG_CACHE_HOME=self.cache,
                        TMPDIR=self.tmp, HB_HOSTILE_MARKER=self.marker,
                        HOSTBENCH_PROBE_TIMEOUT="2", LC_ALL="C")
        self.env.pop("HOSTBENCH_PLUGIN_PATH", None)
        self.env.pop("HOSTBENCH_NO_CACHE", None)
        self.pids = []
        self.nsuites = 0

    def path(self, *names):
        return os.path.join(self.root, *names)

    def suite(self, text):
        self.nsuites += 1
        path = self.path("suite%d.ini" % self.nsuites)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o644)
        return path

    def start(self, args, env=None, **kw):
        p = subprocess.Popen([HB] + list(args), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             env=env or self.env, **kw)
        self.pids.append(p.pid)
        return p

    def hb(self, *args, env=None, timeout=60, **kw):
        t0 = time.monotonic()
        p = self.start(args, env, **kw)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            raise AssertionError("hostbench %s did not end within %ss" %
                                 (" ".join(args), timeout))
        return Run(p, out, err, time.monotonic() - t0)

    def finish(self, keep=()):
        """Nothing left running, no file left in TMPDIR; then clean up."""
        left = wait_gone(self.marker, self.pids)
        expect(not left, "left running: %r" % left)
        stray = sorted(os.listdir(self.tmp))
        expect(stray == sorted(keep), "left in TMPDIR: %r" % stray)
        shutil.rmtree(self.root, ignore_errors=True)


def processes(marker, core_pids):
    """Processes with marker in their command line, or helpers of a core."""
    cores = {str(p) for p in core_pids}
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read().decode(errors="replace").split("\0")
        except OSError:
            continue
        helper = len(argv) > 3 and argv[1] == "__helper" and argv[3] in cores
        if helper or any(marker in a for a in argv):
            state = ""
            try:
                with open("/proc/%s/stat" % pid) as f:
                    state = f.read().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                pass
            if state != "Z":
                found.append((int(pid), " ".join(argv).strip()))
    return found


def wait_gone(marker, core_pids, secs=3.0):
    """Poll /proc up to secs for the marked processes to go; what is left."""
    left = []

    def gone():
        left[:] = processes(marker, core_pids)
        return not left
    hbtest.poll(gone, secs, 0.05)
    return left


def wait_seen(marker, secs=10.0):
    """Wait until a process with marker runs; whether one did."""
    return bool(hbtest.poll(lambda: processes(marker, ()), secs))


def refusal_lines(stderr, path):
    return [l for l in stderr.splitlines()
            if l.startswith("loader: %s:" % path)]


def targets_of(doc):
    return {(t["target"], t["backend"]): t for t in doc["targets"]}


def expect_others_listed(doc):
    """The good fixture and a shipped plugin are listed, usable."""
    t = targets_of(doc)
    for key in (("fixture/spin", "fixture"), ("mem/memcpy", "mem")):
        expect(key in t and t[key]["usable"], "%s missing or unusable: %r"
               % (key, t.get(key)))


def expect_refused(doc, path, reason):
    refused = {r["path"]: r["reason"] for r in doc["refused"]}
    expect(refused.get(path) == reason, "refused %r, want %r for %s" %
           (refused.get(path), reason, path))


def results(run, n):
    res = run.json()["results"]
    expect(len(res) == n, "%d results, want %d" % (len(res), n))
    return res


OTHERS = QUICK + """
[good]
target = fixture/spin
backend = fixture

[mem]
target = mem/memcpy
size = 64K
"""


def with_hostile(backend, target="hostile/spin", extra=""):
    """A quick suite: the hostile job, then a good fixture job."""
    return QUICK + """
[bad]
target = %s
backend = hostile-%s
%s

[good]
target = fixture/spin
backend = fixture
""" % (target, backend, extra)


# 1. Constructors that abort, crash, hang or exit.

def constructor_refused(name, reason):
    s = Scratch()
    path = fixture_so(name)
    dirs = ["--plugin-dir", fixture_dir(name), "--plugin-dir", GOOD]
    ls = s.hb(*dirs, "list", "--format", "json")
    expect(ls.rc == 0, "list exit %d: %s" % (ls.rc, ls.err))
    want = "loader: %s: refused: %s" % (path, reason)
    expect(refusal_lines(ls.err, path) == [want],
           "stderr %r, want the one line %r" % (ls.err, want))
    doc = ls.json()
    expect_refused(doc, path, reason)
    expect_others_listed(doc)
    run = s.hb(*dirs, "run", s.suite(OTHERS), "--format", "json")
    expect(run.rc == 0, "run exit %d: %s" % (run.rc, run.err))
    expect(refusal_lines(run.err, path) == [want], "run stderr %r" % run.err)
    res = results(run, 2)
    expect(all(r["status"] == "ok" for r in res),
           [(r["status"], r["reason"]) for r in res])
    s.finish()


def test_constructor_abort_refused_others_run():
    constructor_refused("ctor-abort", "crashed while loading: SIGABRT")


def test_constructor_segv_refused_others_run():
    constructor_refused("ctor-segv", "crashed while loading: SIGSEGV")


def test_constructor_hang_refused_others_run():
    constructor_refused("ctor-hang", "no answer within 2 s while loading")


def test_constructor_exit_refused_others_run():
    constructor_refused("ctor-exit", "exited with status 0 while loading")


# 2. Constructors that write to or take over stdout.

def stdout_stays_json(name):
    s = Scratch()
    dirs = ["--plugin-dir", fixture_dir(name), "--plugin-dir", GOOD]
    ls = s.hb(*dirs, "list", "--format", "json")
    expect(ls.rc == 0, "list exit %d: %s" % (ls.rc, ls.err))
    doc = ls.json()
    expect(("hostile/spin", "hostile-" + name) in targets_of(doc),
           "the plugin itself is listed")
    expect_others_listed(doc)
    run = s.hb(*dirs, "run", s.suite(with_hostile(name)), "--format",
               "json")
    bad, good = results(run, 2)
    expect(good["status"] == "ok", good)
    return s, run, bad


def test_constructor_banner_keeps_json_stdout_valid():
    s, run, bad = stdout_stays_json("ctor-banner")
    # the banner may fail its case (a plugin must not write to stdout),
    # never the report
    expect(bad["status"] == "ok" or (
        bad["status"] == "failed" and "wrote to stdout" in bad["reason"]),
        (bad["status"], bad["reason"]))
    want = 1 if bad["status"] == "failed" else 0  # a failed case: exit 1
    expect(run.rc == want, "run exit %d, want %d: %s" % (run.rc, want,
                                                        run.err))
    s.finish()


def test_constructor_stdout_to_devnull_keeps_json_stdout_valid():
    s, run, bad = stdout_stays_json("ctor-stdout-null")
    expect(bad["status"] == "ok", (bad["status"], bad["reason"]))
    expect(run.rc == 0, "run exit %d: %s" % (run.rc, run.err))
    s.finish()


# 3. A constructor that switches to a locale with a decimal comma.

def comma_locale(s):
    """A de_DE.UTF-8 locale made in the test's own LOCPATH."""
    loc = s.path("locale")
    os.mkdir(loc)
    os.chmod(s.root, 0o755)
    if shutil.which("localedef") is None:
        raise AssertionError("no localedef to make a decimal-comma locale")
    subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8",
                    os.path.join(loc, "de_DE.UTF-8")],
                   capture_output=True, timeout=60)
    check = subprocess.run(
        [sys.executable, "-c", "import locale; locale.setlocale("
         "locale.LC_ALL, 'de_DE.UTF-8'); "
         "print(locale.localeconv()['decimal_point'])"],
        capture_output=True, text=True, env=dict(s.env, LOCPATH=loc))
    expect(check.stdout.strip() == ",",
           "could not make a decimal-comma locale: %r" % check.stderr)
    s.env["LOCPATH"] = loc


def locale_csv(isolate):
    s = Scratch()
    comma_locale(s)
    journal = s.path("journal.jsonl")
    out = s.path("report.csv")
    suite = s.suite("""[global]
duration = 0.02s
repetitions = 2
warmup = 0
timeout = 3s

[bad]
target = hostile/spin
backend = hostile-ctor-locale
isolate = %s

[good]
target = fixture/spin
backend = fixture
duration = 0.03s
""" % isolate)
    run = s.hb("--plugin-dir", fixture_dir("ctor-locale"), "--plugin-dir",
               GOOD, "run", suite, "--format", "csv", "-o", out,
               "--journal", journal)
    expect(run.rc == 0, "run exit %d: %s" % (run.rc, run.err))
    noted = [json.loads(l) for l in open(journal) if l.strip()]
    expect(noted and
           noted[0]["info"].get("numeric_locale") == "de_DE.UTF-8",
           "the plugin's locale did not take: %r" %
           (noted[0].get("info") if noted else None))
    with open(out, newline="") as f:
        rows = list(csv.reader(f))
    expect(len(rows) == 3, "%d CSV rows, want header + 2" % len(rows))
    width = len(rows[0])
    expect(all(len(r) == width for r in rows),
           "field counts %r, header has %d" % ([len(r) for r in rows], width))
    head = rows[0]
    for r in rows[1:]:
        row = dict(zip(head, r))
        expect(row["status"] == "ok", row)
        for col in ("median", "median_bps", "min_bps", "cv"):
            try:
                float(row[col])
            except ValueError:
                raise AssertionError("%s %r is not a number" %
                                     (col, row[col]))
    s.finish()


def test_constructor_locale_keeps_durations_and_csv():
    locale_csv("yes")


def test_constructor_locale_with_isolate_no_keeps_csv():
    locale_csv("no")


# 4. Constructors that block SIGTERM or ignore SIGCHLD.

def test_constructor_blocking_sigterm_still_ends_run_143():
    s = Scratch()
    journal = s.path("journal.jsonl")
    out = s.path("report.json")
    suite = s.suite("""[global]
duration = 300ms
repetitions = 3
warmup = 0
timeout = 10s

[slow]
target = hostile/spin
backend = hostile-ctor-block-term
size = 4K, 8K, 16K
""")
    p = s.start(["--plugin-dir", fixture_dir("ctor-block-term"), "run",
                 suite, "--format", "json", "-o", out, "--journal",
                 journal])
    # signal while the second case's process runs (a second of samples)
    hbtest.wait_for(lambda: os.path.exists(journal) and
                    os.path.getsize(journal) > 0, "the first case journaled")
    hbtest.wait_for(lambda: hbtest.children(p.pid), "the second case runs")
    p.send_signal(signal.SIGTERM)
    try:
        p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        raise AssertionError("SIGTERM did not end the run")
    expect(p.returncode == 143, "exit %d, want 143" % p.returncode)
    res = json.load(open(out))["results"]
    expect(len(res) == 3, "every case listed")
    expect(res[0]["status"] == "ok", res[0])
    # the case under way is stopped at once, not measured to its end
    expect(all(r["status"] == "skipped" and r["reason"] == "interrupted"
               for r in res[1:]), [(r["status"], r["reason"])
                                   for r in res[1:]])
    s.finish()


def test_constructor_ignoring_sigchld_crash_reported_as_signal():
    s = Scratch()
    run = s.hb("--plugin-dir", fixture_dir("ctor-ignore-chld"),
               "--plugin-dir", GOOD, "run",
               s.suite(with_hostile("ctor-ignore-chld")), "--format", "json")
    expect(run.rc == 1, "exit %d: %s" % (run.rc, run.err))
    bad, good = results(run, 2)
    expect(bad["status"] == "failed" and
           bad["reason"] == "crashed: signal 11 (Segmentation fault)",
           (bad["status"], bad["reason"]))
    expect(good["status"] == "ok", good)
    s.finish()


# 5. A library thread holding a mutex that setup takes.

def test_constructor_thread_holding_mutex_case_finishes_quickly():
    s = Scratch()
    run = s.hb("--plugin-dir", fixture_dir("lock-thread"), "--plugin-dir",
               GOOD, "run", s.suite(with_hostile("lock-thread")),
               "--format", "json")
    expect(run.rc == 0, "exit %d: %s" % (run.rc, run.err))
    bad, good = results(run, 2)
    # ok, not "timed out": it ended before its 3 s timeout, however
    # slowly a busy host ran it
    expect(bad["status"] == "ok", (bad["status"], bad["reason"]))
    s.finish()


# 6. Setup leaves a child holding every descriptor, or a daemon.

def left_process_killed(name):
    s = Scratch()
    run = s.hb("--plugin-dir", fixture_dir(name), "--plugin-dir", GOOD,
               "run", s.suite(with_hostile(name)), "--format", "json")
    expect(run.rc == 0, "exit %d: %s" % (run.rc, run.err))
    bad, good = results(run, 2)
    expect(bad["status"] == "ok", (bad["status"], bad["reason"]))
    expect(int(bad["info"].get("sleeper", "0")) > 0,
           "the fixture started no sleeper: %r" % bad["info"])
    expect(good["status"] == "ok", good)
    s.finish()


def test_setup_child_keeping_fds_is_killed():
    left_process_killed("fork-child")


def test_setup_setsid_daemon_is_killed():
    left_process_killed("daemon")


# 7. transfer/command's external command, timed out or interrupted.

def command_suite(s):
    return s.suite("""[global]
duration = 20ms
repetitions = 2
warmup = 0

[cmd]
target = transfer/command
command = sleep %s
timeout = 2s
""" % s.marker)


def test_command_timeout_leaves_no_command():
    s = Scratch()
    run = s.hb("run", command_suite(s), "--format", "json")
    expect(run.rc == 1, "exit %d: %s" % (run.rc, run.err))
    (cmd,) = results(run, 1)
    expect(cmd["status"] == "failed" and
           cmd["reason"].startswith("timed out after 2s"),
           (cmd["status"], cmd["reason"]))
    s.finish()


def command_interrupted(kill):
    s = Scratch()
    out = s.path("report.json")
    p = s.start(["run", command_suite(s), "--format", "json", "-o", out])
    seen = wait_seen(s.marker)
    if kill:
        p.kill()
    else:
        p.send_signal(signal.SIGINT)
    p.communicate(timeout=30)
    expect(seen, "the command never ran")
    return s, p, out


def test_command_sigint_leaves_no_command():
    s, p, out = command_interrupted(False)
    expect(p.returncode == 130, "exit %d, want 130" % p.returncode)
    (cmd,) = json.load(open(out))["results"]
    expect(cmd["status"] == "skipped" and cmd["reason"] == "interrupted",
           (cmd["status"], cmd["reason"]))
    s.finish()


def test_command_core_sigkill_leaves_no_command():
    s, p, out = command_interrupted(True)
    expect(p.returncode == -signal.SIGKILL, "exit %d" % p.returncode)
    expect(not os.path.exists(out), "a killed run wrote no report")
    s.finish()


# 8. validate() crashes.

def test_validate_segv_refuses_suite():
    s = Scratch()
    path = fixture_so("validate-segv")
    run = s.hb("--plugin-dir", fixture_dir("validate-segv"), "--plugin-dir",
               GOOD, "run", s.suite(with_hostile("validate-segv")),
               "--format", "json")
    expect(run.rc == 2, "exit %d: %s" % (run.rc, run.err))
    want = ("hostbench: backend hostile-validate-segv (%s): crashed in "
            "validate(): SIGSEGV" % path)
    expect(run.err.splitlines() == [want],
           "stderr %r, want the one line %r" % (run.err, want))
    expect(run.out == "", "no report for a refused suite: %r" % run.out)
    s.finish()


# 9. Error buffers filled to the last byte, without a NUL.

def errlen_of(stderr, where):
    m = re.search(r"%s errlen (\d+)" % where, stderr)
    expect(m, "the fixture logged no errlen: %r" % stderr)
    return int(m.group(1))


def test_validate_error_without_nul_is_cut_at_errlen():
    s = Scratch()
    suite = s.suite(with_hostile("err-fill", extra="fill = validate"))
    run = s.hb("--plugin-dir", fixture_dir("err-fill"), "--plugin-dir",
               GOOD, "run", suite, "--format", "json")
    expect(run.rc == 2, "exit %d: %s" % (run.rc, run.err))
    errlen = errlen_of(run.err, "validate")
    lines = [l for l in run.err.splitlines() if "[bad]" in l]
    expect(len(lines) == 1, "one refusal line: %r" % run.err)
    m = re.fullmatch(r"hostbench: %s:\d+: \[bad\] (A*)(.*)" %
                     re.escape(suite), lines[0])
    expect(m, "refusal line %r" % lines[0])
    expect(m.group(2) == "", "bytes after the A's: %r" % m.group(2))
    expect(0 < len(m.group(1)) <= errlen - 1,
           "%d A's for errlen %d" % (len(m.group(1)), errlen))
    s.finish()


def test_setup_error_without_nul_is_cut_at_errlen():
    s = Scratch()
    suite = s.suite(with_hostile("err-fill", extra="fill = setup"))
    run = s.hb("--plugin-dir", fixture_dir("err-fill"), "--plugin-dir",
               GOOD, "run", suite, "--format", "json")
    expect(run.rc == 1, "exit %d: %s" % (run.rc, run.err))
    errlen = errlen_of(run.err, "setup")
    bad, good = results(run, 2)
    m = re.fullmatch(r"setup: (A*)(.*)", bad["reason"] or "", re.S)
    expect(m, "reason %r" % bad["reason"])
    expect(m.group(2) == "", "bytes after the A's: %r" % m.group(2))
    expect(0 < len(m.group(1)) <= errlen - 1,
           "%d A's for errlen %d" % (len(m.group(1)), errlen))
    expect(good["status"] == "ok", good)
    s.finish()


def test_run_error_without_nul_is_cut_at_errlen():
    s = Scratch()
    suite = s.suite(with_hostile("err-fill", extra="fill = run"))
    run = s.hb("--plugin-dir", fixture_dir("err-fill"), "--plugin-dir",
               GOOD, "run", suite, "--format", "json")
    expect(run.rc == 1, "exit %d: %s" % (run.rc, run.err))
    errlen = errlen_of(run.err, "run")
    bad, good = results(run, 2)
    m = re.fullmatch(r"run: worker 0: (A*)(.*)", bad["reason"] or "", re.S)
    expect(m, "reason %r" % bad["reason"])
    expect(m.group(2) == "", "bytes after the A's: %r" % m.group(2))
    expect(0 < len(m.group(1)) <= errlen - 1,
           "%d A's for errlen %d" % (len(m.group(1)), errlen))
    expect(good["status"] == "ok", good)
    s.finish()


# 10-12. Tables the core must not trust.

def refused_at_load(name, fragments):
    s = Scratch()
    path = fixture_so(name)
    ls = s.hb("--plugin-dir", fixture_dir(name), "--plugin-dir", GOOD,
              "list", "--format", "json")
    expect(ls.rc == 0, "list exit %d: %s" % (ls.rc, ls.err))
    doc = ls.json()
    refused = {r["path"]: r["reason"] for r in doc["refused"]}
    why = refused.get(path, "")
    expect(all(f in why for f in fragments),
           "reason %r lacks %r" % (why, fragments))
    expect(len(refusal_lines(ls.err, path)) == 1, "stderr %r" % ls.err)
    expect_others_listed(doc)
    return s


def test_unknown_work_refused_naming_target():
    s = refused_at_load("bad-work", ("hostile/spin", "unknown work 99"))
    dirs = ["--plugin-dir", fixture_dir("bad-work"), "--plugin-dir", GOOD]
    d = s.hb(*dirs, "describe", "hostile/spin")
    expect(d.rc == 2, "describe of the refused target: exit %d" % d.rc)
    expect("unknown target" in d.err, d.err)
    d = s.hb(*dirs, "describe", "fixture/spin")
    expect(d.rc == 0 and "fixture/spin" in d.out, "describe %d %r" %
           (d.rc, d.err))
    s.finish()


def test_target_name_not_utf8_refused():
    refused_at_load("name-not-utf8", ("not UTF-8",)).finish()


def test_target_summary_not_utf8_refused():
    refused_at_load("summary-not-utf8", ("not UTF-8",)).finish()


def test_unusable_without_reason_says_no_reason_given():
    s = Scratch()
    dirs = ["--plugin-dir", fixture_dir("unusable-null")]
    ls = s.hb(*dirs, "list")
    expect(ls.rc == 0, "exit %d: %s" % (ls.rc, ls.err))
    line = [l for l in ls.out.splitlines()
            if l.strip().startswith("hostile/spin")]
    expect(len(line) == 1 and "no [1]" in line[0], "list line %r" % line)
    note = [l for l in ls.out.splitlines() if "[1] hostile/spin" in l]
    expect(len(note) == 1 and note[0].rstrip().endswith("no reason given"),
           "list note %r" % note)
    t = targets_of(s.hb(*dirs, "list", "--format", "json").json())
    spin = t[("hostile/spin", "hostile-unusable-null")]
    expect(not spin["usable"] and spin["status"] == "no reason given", spin)
    s.finish()


# 13-14. run() that reports nothing useful.

def one_case(name, target="hostile/spin", extra=""):
    s = Scratch()
    run = s.hb("--plugin-dir", fixture_dir(name), "--plugin-dir", GOOD,
               "run", s.suite(with_hostile(name, target, extra)),
               "--format", "json")
    bad, good = results(run, 2)
    expect(good["status"] == "ok", good)
    return s, run, bad


def test_ops_target_reporting_nothing_fails():
    s, run, bad = one_case("zero-ops")
    expect(run.rc == 1, "exit %d: %s" % (run.rc, run.err))
    expect(bad["status"] == "failed" and "no work done" in bad["reason"],
           (bad["status"], bad["reason"]))
    s.finish()


def test_ops_target_reporting_bytes_but_no_ops_fails():
    s, run, bad = one_case("zero-ops", "hostile/bytes-no-ops")
    expect(bad["status"] == "failed",
           "an operations target that did no operations: %s, %r" %
           (bad["status"], bad.get("stats")))
    expect(run.rc == 1, "exit %d: %s" % (run.rc, run.err))
    s.finish()


def test_noop_run_calibration_ends_within_timeout():
    # run() does nothing and reports exactly the operations asked for, so
    # calibration meets a sample of (nearly) no time: the case must end
    # within its timeout, either measured with a real figure or failed
    # with a reason that is true of the plugin (it never reported a
    # negative count)
    s, run, bad = one_case("noop-run")
    want = 1 if bad["status"] == "failed" else 0  # a failed case: exit 1
    expect(run.rc == want, "exit %d, want %d: %s" % (run.rc, want, run.err))
    # within its timeout: a case past it fails "timed out"
    if bad["status"] == "ok":
        expect(all(0 < x < float("inf") for x in bad["samples"]),
               "ok with samples %r" % bad["samples"])
    else:
        reason = bad["reason"] or ""
        expect(bad["status"] == "failed" and reason and
               "timed out" not in reason and
               "negative count" not in reason,
               (bad["status"], reason))
    s.finish()


# 15. Worker threads that cannot be started.

def nproc_of(uid):
    n = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/status" % pid) as f:
                st = dict(l.split(":", 1) for l in f if ":" in l)
            if int(st["Uid"].split()[0]) == uid:
                n += int(st["Threads"])
        except (OSError, KeyError, ValueError):
            pass
    return n


def test_thread_limit_fails_case_with_reason():
    s = Scratch()
    # root is not held to RLIMIT_NPROC: run as nobody then
    uid = 65534 if os.geteuid() == 0 else os.geteuid()
    # room for the helpers (and a sanitizer's own threads), not for 64 workers
    limit = nproc_of(uid) + 24
    suite = s.suite(QUICK + """
[wide]
target = fixture/spin
backend = fixture
parallel = 64
""")
    for d in (s.root, s.tmp):
        os.chmod(d, 0o755)

    def limited():
        resource.setrlimit(resource.RLIMIT_NPROC, (limit, limit))
        if os.geteuid() == 0:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)

    env = dict(s.env, HOSTBENCH_NO_CACHE="1")
    run = s.hb("--plugin-dir", GOOD, "run", suite, "--format", "json",
               env=env, preexec_fn=limited)
    expect(run.rc == 1, "exit %d: %s" % (run.rc, run.err))
    (wide,) = results(run, 1)
    expect(wide["status"] == "failed", (wide["status"], wide["reason"]))
    expect(re.fullmatch(r"cannot start worker thread \d+ of 64: "
                        r"Resource temporarily unavailable",
                        wide["reason"] or ""),
           "reason %r" % wide["reason"])
    s.finish()


# 16. Who may have changed a plugin file.

def copy_plugin(src, dir, name="fixture.so"):
    dst = os.path.join(dir, name)
    shutil.copyfile(src, dst)
    os.chmod(dst, 0o644)
    return dst


def listed(s, *args, env=None):
    ls = s.hb(*args, "list", "--format", "json", env=env)
    expect(ls.rc == 0, "list exit %d: %s" % (ls.rc, ls.err))
    return ls, ls.json()


def new_dir(s, name, mode):
    d = s.path(name)
    os.mkdir(d)
    os.chmod(d, mode)
    return d


def expect_mem_listed(doc):
    expect(("mem/memcpy", "mem") in targets_of(doc), "mem still lists")


def test_world_writable_plugin_dir_refused():
    s = Scratch()
    os.chmod(s.root, 0o755)
    ww = new_dir(s, "ww", 0o777)
    so = copy_plugin(GOOD_SO, ww)
    ls, doc = listed(s, "--plugin-dir", ww)
    refused = {r["path"]: r["reason"] for r in doc["refused"]}
    want = "directory %s is writable by others" % os.path.realpath(ww)
    expect(want in refused.get(so, ""), "reason %r lacks %r" %
           (refused.get(so), want))
    expect(("fixture/spin", "fixture") not in targets_of(doc), "not loaded")
    expect_mem_listed(doc)
    s.finish()


def test_symlink_into_world_writable_dir_refused():
    s = Scratch()
    os.chmod(s.root, 0o755)
    safe = new_dir(s, "safe", 0o755)
    ww = new_dir(s, "ww", 0o777)
    real = copy_plugin(GOOD_SO, ww)
    link = os.path.join(safe, "fixture.so")
    os.symlink(real, link)
    ls, doc = listed(s, "--plugin-dir", safe)
    refused = {r["path"]: r["reason"] for r in doc["refused"]}
    want = "directory %s is writable by others" % os.path.realpath(ww)
    expect(want in refused.get(link, ""), "reason %r lacks %r" %
           (refused.get(link), want))
    expect(("fixture/spin", "fixture") not in targets_of(doc), "not loaded")
    expect_mem_listed(doc)
    s.finish()


def test_root_file_in_sticky_world_writable_dir_loads():
    s = Scratch()
    os.chmod(s.root, 0o755)
    sticky = new_dir(s, "sticky", 0o1777)
    so = copy_plugin(GOOD_SO, sticky)
    expect(os.stat(so).st_uid in (0, os.geteuid()), "file owned by us")
    ls, doc = listed(s, "--plugin-dir", sticky)
    refused = {r["path"]: r["reason"] for r in doc["refused"]}
    expect(not refused, "refused: %r" % refused)
    expect(("fixture/spin", "fixture") in targets_of(doc), "loaded")
    s.finish()


def test_relative_plugin_path_entry_refused_others_load():
    s = Scratch()
    env = dict(s.env, HOSTBENCH_PLUGIN_PATH="relative/plugins:" + GOOD)
    ls, doc = listed(s, env=env)
    want = ('loader: HOSTBENCH_PLUGIN_PATH entry "relative/plugins" '
            'refused: not an absolute path')
    expect(ls.err.splitlines().count(want) == 1, "stderr %r" % ls.err)
    expect_others_listed(doc)
    s.finish()


# 17. The registry cache.

def cache_file(s):
    return os.path.join(s.cache, "hostbench", "registry.json")


def reference_list(s, *dirs):
    """What an uncached list prints."""
    env = dict(s.env, HOSTBENCH_NO_CACHE="1")
    return s.hb(*dirs, "list", env=env)


def test_cache_warm_list_equals_cold():
    s = Scratch()
    dirs = ("--plugin-dir", GOOD)
    cold = s.hb(*dirs, "list")
    expect(os.path.exists(cache_file(s)), "a cold list writes the cache")
    warm = s.hb(*dirs, "list")
    expect(cold.rc == warm.rc == 0, "exit %d, %d" % (cold.rc, warm.rc))
    expect(warm.out == cold.out and warm.err == cold.err,
           "warm list differs from cold")
    s.finish()


def test_cache_corrupt_file_ignored_and_rewritten():
    s = Scratch()
    ref = reference_list(s, "--plugin-dir", GOOD)
    os.makedirs(os.path.dirname(cache_file(s)), mode=0o700)
    with open(cache_file(s), "wb") as f:
        f.write(b"\x00\xff{\"core\": [garbage" + os.urandom(256))
    os.chmod(cache_file(s), 0o600)
    ls = s.hb("--plugin-dir", GOOD, "list")
    expect(ls.rc == 0 and ls.out == ref.out, "list with a corrupt cache")
    doc = json.load(open(cache_file(s)))
    expect("core" in doc and GOOD_SO in doc["plugins"], "rewritten whole")
    s.finish()


def forged_cache(s, change_core):
    s.hb("--plugin-dir", GOOD, "list")
    doc = json.load(open(cache_file(s)))
    change_core(doc["core"])
    doc["plugins"][GOOD_SO]["answer"] = {"refused": "forged by the test"}
    with open(cache_file(s), "w") as f:
        json.dump(doc, f)
    ref = reference_list(s, "--plugin-dir", GOOD)
    ls = s.hb("--plugin-dir", GOOD, "list")
    expect("forged" not in ls.out + ls.err, "the foreign cache was used")
    expect(ls.rc == 0 and ls.out == ref.out, "list differs")
    doc = json.load(open(cache_file(s)))
    expect("forged" not in json.dumps(doc), "the cache was rewritten")


def test_cache_of_another_version_ignored():
    s = Scratch()

    def other(core):
        core["version"] = "0.0.0-other"

    forged_cache(s, other)
    s.finish()


def test_cache_of_another_binary_ignored():
    s = Scratch()

    def other(core):
        core["ino"] += 1

    forged_cache(s, other)
    s.finish()


def test_no_cache_env_writes_no_cache():
    s = Scratch()
    env = dict(s.env, HOSTBENCH_NO_CACHE="1")
    ls = s.hb("--plugin-dir", GOOD, "list", env=env)
    expect(ls.rc == 0, "exit %d" % ls.rc)
    expect(not os.path.exists(s.cache), "made %s" % s.cache)
    s.finish()


def unwritable(s):
    """A path under a regular file: no one can make it, root included."""
    block = s.path("a-file")
    open(block, "w").close()
    return os.path.join(block, "cache")


def list_with_cache_env(s, **env_vars):
    ref = reference_list(s, "--plugin-dir", GOOD)
    env = dict(s.env, **env_vars)
    for k, v in env_vars.items():
        if v is None:
            env.pop(k)
    ls = s.hb("--plugin-dir", GOOD, "list", env=env)
    expect(ls.rc == 0, "exit %d: %s" % (ls.rc, ls.err))
    expect(ls.out == ref.out and ls.err == ref.err, "list differs")


def test_cache_home_unwritable_still_lists():
    s = Scratch()
    list_with_cache_env(s, XDG_CACHE_HOME=unwritable(s))
    s.finish()


def test_cache_home_read_only_dir_still_lists():
    s = Scratch()
    ro = new_dir(s, "ro", 0o555)
    list_with_cache_env(s, XDG_CACHE_HOME=ro)
    s.finish()


def test_cache_home_missing_still_lists():
    s = Scratch()
    list_with_cache_env(s, XDG_CACHE_HOME=s.path("missing", "cache"))
    s.finish()


def test_home_unwritable_without_xdg_still_lists():
    s = Scratch()
    list_with_cache_env(s, XDG_CACHE_HOME=None, HOME=unwritable(s))
    s.finish()


def test_cache_replaced_plugin_probed_again():
    s = Scratch()
    os.chmod(s.root, 0o755)
    d = new_dir(s, "plugins", 0o755)
    so = copy_plugin(GOOD_SO, d, "swap.so")
    ls, doc = listed(s, "--plugin-dir", d)
    expect(("fixture/spin", "fixture") in targets_of(doc), "first load")
    new = copy_plugin(fixture_so("ctor-abort"), d, "swap.so.new")
    os.replace(new, so)
    ls, doc = listed(s, "--plugin-dir", d)
    expect_refused(doc, so, "crashed while loading: SIGABRT")
    expect(("fixture/spin", "fixture") not in targets_of(doc),
           "the old catalog is gone")
    expect_mem_listed(doc)
    s.finish()


def test_cache_ten_thousand_targets_list():
    s = Scratch()
    # the probe of 10,000 targets is what is timed on a busy host, not the
    # point here: give it the default deadline, not the scratch's 2 s
    env = dict(s.env, HOSTBENCH_PROBE_TIMEOUT="10")
    dirs = ("--plugin-dir", fixture_dir("many-targets"))
    cold = s.hb(*dirs, "list", "--format", "json", env=env)
    cache = os.path.join(s.cache, "hostbench", "registry.json")
    cached = os.stat(cache).st_mtime_ns if os.path.exists(cache) else None
    warm = s.hb(*dirs, "list", "--format", "json", env=env)
    print("10,000 targets: cold list %.2fs, warm list %.2fs" %
          (cold.secs, warm.secs))
    expect(cached is not None, "no registry cache after the cold list")
    expect(os.stat(cache).st_mtime_ns == cached,
           "the warm list wrote the cache again: it probed")
    for run, what in ((cold, "cold"), (warm, "warm")):
        expect(run.rc == 0, "%s exit %d: %s" % (what, run.rc, run.err[:300]))
        many = [t for t in run.json()["targets"]
                if t["backend"] == "hostile-many-targets"]
        expect(len(many) == 10000, "%s: %d targets" % (what, len(many)))
    expect(warm.out == cold.out, "warm list differs from cold")
    s.finish()


# 18. A hostile job among good ones.

def test_crash_in_setup_does_not_stop_suite():
    s = Scratch()
    suite = s.suite(QUICK + """
[bad]
target = hostile/spin
backend = hostile-setup-segv

[mem]
target = mem/memcpy
size = 64K

[good]
target = fixture/spin
backend = fixture
""")
    run = s.hb("--plugin-dir", fixture_dir("setup-segv"), "--plugin-dir",
               GOOD, "run", suite, "--format", "json")
    expect(run.rc == 1, "exit %d: %s" % (run.rc, run.err))
    bad, mem, good = results(run, 3)
    expect(bad["status"] == "failed" and
           bad["reason"] == "crashed: signal 11 (Segmentation fault)",
           (bad["status"], bad["reason"]))
    expect(mem["status"] == "ok" and good["status"] == "ok",
           (mem["status"], good["status"]))
    expect(mem["stats"] and good["stats"], "figures for the good jobs")
    s.finish()


# 19. Escaping the guardian, and taking the host down.

def group_of(controller):
    """This process's group directory in the v1 hierarchy of controller."""
    with open("/proc/self/cgroup") as f:
        for line in f:
            _, ctrls, path = line.rstrip("\n").split(":", 2)
            if controller in ctrls.split(","):
                d = "/sys/fs/cgroup/%s%s" % (controller, path)
                if os.path.isdir(d):
                    return d
    raise hbtest.Skip("no %s control group hierarchy at /sys/fs/cgroup" %
               controller)


class Jail:
    """A control group of the test's own that hostbench runs in, with a
    limit it must stay inside (as a container or a CI job has)."""

    def __init__(self, controller, limit_file, limit):
        self.dir = os.path.join(group_of(controller),
                                "hb-test-%d" % os.getpid())
        try:
            os.mkdir(self.dir)
            with open(os.path.join(self.dir, limit_file), "w") as f:
                f.write(str(limit))
        except OSError as e:
            raise hbtest.Skip("cannot make a %s group: %s" % (controller, e))

    def enter(self):
        with open(os.path.join(self.dir, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))

    def count(self, name, key):
        with open(os.path.join(self.dir, name)) as f:
            for line in f:
                k, _, v = line.partition(" ")
                if k == key:
                    return int(v)
        return 0

    def removed(self):
        try:
            os.rmdir(self.dir)
            return True
        except OSError:  # a process of the group is still in it
            return False

    def close(self):
        expect(hbtest.poll(self.removed, 5, 0.05),
               "processes left in %s" % self.dir)


def bounded_case(name, extra="", jail=None, s=None, hang=60):
    """The hostile case then a good one; the hostile one's reason. hang
    bounds the wait for hostbench: a hang, not a measure of time."""
    s = s or Scratch()
    run = s.hb("--plugin-dir", fixture_dir(name), "--plugin-dir", GOOD,
               "run", s.suite(with_hostile(name, extra=extra)), "--format",
               "json", preexec_fn=jail.enter if jail else None,
               timeout=hang)
    expect(run.rc == 1, "exit %d: %s" % (run.rc, run.err))
    bad, good = results(run, 2)
    expect(good["status"] == "ok", good)
    expect(bad["status"] == "failed", (bad["status"], bad["reason"]))
    s.finish()
    return bad["reason"] or ""


def test_groups_a_killed_run_left_are_swept():
    """A hostbench killed with -9 cannot remove its groups: the next run
    removes the empty ones whose hostbench is gone, and no other."""
    parent = group_of("pids")
    gone = subprocess.Popen(["true"])
    gone.wait()
    names = {"stale": "hostbench-%d-%d" % (gone.pid, gone.pid + 1),
             "live": "hostbench-%d-%d" % (os.getpid(), os.getpid() + 1),
             "other": "hb-not-ours-%d" % gone.pid}
    dirs = {k: os.path.join(parent, v) for k, v in names.items()}
    for d in dirs.values():
        os.mkdir(d)
    try:
        s = Scratch()
        run = s.hb("--plugin-dir", GOOD, "run", s.suite(QUICK + """
[good]
target = fixture/spin
backend = fixture
"""), "--format", "json")
        expect(run.rc == 0, "exit %d: %s" % (run.rc, run.err))
        s.finish()
        left = {k for k, d in dirs.items() if os.path.isdir(d)}
        expect(left == {"live", "other"}, "groups left: %r" % sorted(left))
    finally:
        for d in dirs.values():
            if os.path.isdir(d):
                os.rmdir(d)


def test_daemon_killing_guardian_is_killed():
    reason = bounded_case("escape-kill")
    expect(reason == "the case's helper process ended without a result",
           reason)


def test_daemon_stopping_guardian_is_killed():
    reason = bounded_case("escape-stop")
    expect(reason.startswith("timed out after 3s"), reason)


# the case ends when its group first refuses a fork, not at its timeout:
# with timeout = 600s, a wait for the timeout is a hang of the test
PROCESSES = re.compile(r"killed at once: the case's processes reached "
                       r"their bound of (\d+) processes and threads "
                       r"\(raise process_limit to allow more\)")
NO_TIMEOUT = "timeout = 600s"


def test_fork_bomb_ends_at_process_limit():
    jail = Jail("pids", "pids.max", 256)
    try:
        reason = bounded_case("fork-bomb", "process_limit = 32\n" +
                              NO_TIMEOUT, jail, hang=50)
        m = PROCESSES.fullmatch(reason)
        expect(m and m.group(1) == "32", reason)
        expect(jail.count("pids.events", "max") == 0,
               "the enclosing group's limit had to act")
    finally:
        jail.close()


def test_fork_bomb_default_bound_fits_enclosing_limit():
    jail = Jail("pids", "pids.max", 160)
    try:
        reason = bounded_case("fork-bomb", NO_TIMEOUT, jail, hang=50)
        m = PROCESSES.fullmatch(reason)
        expect(m and 0 < int(m.group(1)) < 160, reason)
        expect(jail.count("pids.events", "max") == 0,
               "the enclosing group's limit had to act")
    finally:
        jail.close()


MEMORY = re.compile(r"out of memory: the case's processes reached their "
                    r"bound of (\d+)M and were killed \(raise memory_limit "
                    r"to allow more\)")


def test_memory_hog_ends_at_memory_limit():
    reason = bounded_case("memory-hog", "memory_limit = 64M\ntimeout = 30s")
    m = MEMORY.fullmatch(reason)
    expect(m and m.group(1) == "64", reason)


def test_memory_hog_default_bound_fits_enclosing_limit():
    jail = Jail("memory", "memory.limit_in_bytes", 256 << 20)
    try:
        # pages are slow to fill on a busy host: time enough to fill them
        reason = bounded_case("memory-hog", "timeout = 30s", jail)
        m = MEMORY.fullmatch(reason)
        expect(m and 0 < int(m.group(1)) < 256, reason)
        expect(jail.count("memory.oom_control", "oom_kill") == 0,
               "the enclosing group's limit had to act")
    finally:
        jail.close()


# shared memory (a shared mapping, memfds mapped or only written) is not
# data: RLIMIT_DATA misses it where no memory group can be made, and the
# core watches the host's shared memory instead
SHARED = re.compile(r"out of memory: the case's processes took (\d+)M of "
                    r"shared memory, more than their bound of (\d+)M, and "
                    r"were killed \(raise memory_limit to allow more\)")
SHM_HOG = """how = anon, memfd-map, memfd-write
memory_limit = 64M
timeout = 30s"""


def shared_memory_reasons(s, **kw):
    """shm_hog's three ways to touch 1G of shared memory at memory_limit =
    64M, then a good case: hostbench exits 1, each hog fails, the good
    case runs. Their reasons, by way."""
    run = s.hb("--plugin-dir", fixture_dir("shm-hog"), "--plugin-dir", GOOD,
               "run", s.suite(with_hostile("shm-hog", "hostile/shm_hog",
                                           SHM_HOG)),
               "--format", "json", **kw)
    expect(run.rc == 1, "exit %d: %s" % (run.rc, run.err))
    res = results(run, 4)
    expect(res[3]["status"] == "ok", res[3])
    for r in res[:3]:
        expect(r["status"] == "failed", (r["status"], r["reason"]))
    s.finish()
    return {r["params"]["how"]: r["reason"] or "" for r in res[:3]}


def expect_shared_bound(how, reason):
    """A reason of the shared-memory watch at the 64M bound, killed well
    before the hog's 1G."""
    m = SHARED.fullmatch(reason)
    expect(m and m.group(2) == "64" and 64 <= int(m.group(1)) < 1024,
           "%s: %s" % (how, reason))


def test_shared_memory_hog_ends_at_memory_limit():
    # a memory group bounds shared memory as any other; where none can be
    # made (no root, a read-only hierarchy) the watch does
    for how, reason in shared_memory_reasons(Scratch()).items():
        m = MEMORY.fullmatch(reason)
        if m:
            expect(m.group(1) == "64", "%s: %s" % (how, reason))
        else:
            expect_shared_bound(how, reason)


def test_shared_memory_hog_ends_at_memory_limit_without_groups():
    # user nobody may make no control group: RLIMIT_DATA, blind to shared
    # memory, and the watch of the host's shared memory bound the case
    if os.geteuid() != 0:
        raise hbtest.Skip("needs root, to run hostbench as nobody")
    s = Scratch()
    os.chmod(s.root, 0o755)
    os.chown(s.tmp, 65534, 65534)

    def nobody():
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)

    env = dict(s.env, HOSTBENCH_NO_CACHE="1")
    for how, reason in shared_memory_reasons(s, env=env,
                                             preexec_fn=nobody).items():
        expect_shared_bound(how, reason)


def test_descriptor_hog_ends_at_open_files_limit():
    reason = bounded_case("fd-hog", "open_files_limit = 64")
    m = re.fullmatch(r"setup: open: Too many open files after (\d+) more: "
                     r"the case's process reached its bound of 64 open "
                     r"files \(raise open_files_limit to allow more\)",
                     reason)
    expect(m and int(m.group(1)) < 64, reason)


def test_disk_filler_ends_at_file_size_limit():
    reason = bounded_case("disk-filler", "file_size_limit = 4M")
    expect(reason == "file too large: the case wrote a file past its bound "
           "of 4M per file (raise file_size_limit to allow more)", reason)


TEMP_SPACE = re.compile(r"out of temporary space: the case's files took more "
                        r"than its bound of (\d+)M of the space free in "
                        r"\$TMPDIR and it was killed \(raise "
                        r"temp_space_limit to allow more\)")


def test_disk_spreader_ends_at_temporary_space_limit():
    # files each far below file_size_limit, without end: their sum is
    # bounded too, and the files are removed
    if os.geteuid() != 0 or not shutil.which("mount"):
        raise hbtest.Skip("needs root to mount a small tmpfs as TMPDIR")
    for extra, most in (("", 48), ("temp_space_limit = 8M", 8)):
        s = Scratch()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m",
                        "hb-hostile-temp", s.tmp], check=True, timeout=30)
        try:
            reason = bounded_case("disk-spreader", extra, s=s)
            m = TEMP_SPACE.fullmatch(reason)
            expect(m and int(m.group(1)) == most, reason)
        finally:
            subprocess.run(["umount", "-l", s.tmp], timeout=30)


if __name__ == "__main__":
    hbtest.main()
