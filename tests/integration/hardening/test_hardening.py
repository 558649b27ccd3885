#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hardening of what hostbench reads and writes (issue 16).

Usage: test_hardening.py NAME HOSTBENCH
Runs test_NAME: --output onto devices, FIFOs, links and missing
directories; journals and --resume fed forged lines; compare and merge fed
impossible figures; secret option values kept out of every report. Each
test asserts what a user sees: exit status, files, report text.
"""
import csv
import io
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect, unwrapped  # noqa: E402

HB = hbtest.args("HOSTBENCH")

QUICK = """[global]
duration = 20ms
repetitions = 3
warmup = 0
"""

MEMSET = QUICK + """
[fill]
target = mem/memset
size = 4K
"""


def run(*args, timeout=120, cwd=None, env=None):
    """hostbench ARGS; returns (status, stdout, stderr) as text."""
    p = subprocess.run([HB, *args], capture_output=True, text=True,
                       timeout=timeout, cwd=cwd, env=env)
    return p.returncode, p.stdout, p.stderr


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def touching(marker):
    """A suite whose one case creates marker: it shows a case ran."""
    return QUICK + """
[touch]
target = transfer/command
command = touch %s
file_size = 1K
""" % marker


# --- plugin file names -------------------------------------------------------

def test_plugin_file_names_reach_no_terminal_raw():
    with tempfile.TemporaryDirectory() as d:
        names = ["\x1b]0;pwned\x07\x1b[2J.so",
                 "x\nloader: forged.so",
                 "rtl\u202etxt.so"]
        for n in names:
            write(os.path.join(d, n), "not a plugin\n")
        status, out, err = run("list", "-P", d)
        expect(status == 0, "exit %d: %s" % (status, err))
        for text in (out, err):
            expect("\x1b" not in text and "\x07" not in text,
                   "an escape sequence got through: %r" % text)
            expect("\u202e" not in text, "a bidi control got through")
            expect("\nloader: forged" not in text, "a forged line: %r" % text)
        refused = [ln for ln in out.splitlines() if "control characters" in ln]
        expect(len(refused) == 3, "refused lines %r" % refused)


# --- --output --------------------------------------------------------------

def test_output_to_a_fifo_is_refused_without_waiting():
    with tempfile.TemporaryDirectory() as d:
        fifo = os.path.join(d, "fifo")
        os.mkfifo(fifo)
        marker = os.path.join(d, "ran")
        try:
            status, out, err = run("run", write(os.path.join(d, "s.ini"),
                                                touching(marker)),
                                   "-o", fifo, timeout=30)
        except subprocess.TimeoutExpired:
            raise AssertionError("-o FIFO waited for a reader")
        expect(status == 2, "exit %d: %s" % (status, err))
        expect("not a regular file" in err and err.count("\n") == 1, err)
        expect(not os.path.exists(marker), "a case ran before the check")
        expect(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced")


def test_output_to_a_device_is_refused():
    with tempfile.TemporaryDirectory() as d:
        zero = os.path.join(d, "zero")
        try:
            os.mknod(zero, 0o666 | stat.S_IFCHR, os.makedev(1, 5))
        except OSError as e:
            raise hbtest.Skip("cannot make a device node: %s" % e)
        status, _, err = run("run", write(os.path.join(d, "s.ini"), MEMSET),
                             "-o", zero)
        expect(status == 2, "exit %d: %s" % (status, err))
        expect("not a regular file" in err, err)
        expect(stat.S_ISCHR(os.lstat(zero).st_mode),
               "the device became a regular file")


def test_output_to_dev_null_is_written():
    with tempfile.TemporaryDirectory() as d:
        status, out, err = run("run", write(os.path.join(d, "s.ini"), MEMSET),
                               "-o", "/dev/null")
        expect(status == 0 and out == "", "exit %d: %s" % (status, err))
        expect(stat.S_ISCHR(os.lstat("/dev/null").st_mode),
               "/dev/null was replaced")


def test_output_to_a_descriptor_path_writes_to_it():
    with tempfile.TemporaryDirectory() as d:
        status, out, err = run("run", write(os.path.join(d, "s.ini"),
                                            MEMSET), "-o", "/proc/self/fd/1",
                               "--format", "csv")
        expect(status == 0, "exit %d: %s" % (status, err))
        expect(out.startswith("job,title,"), "stdout %r" % out)


def test_output_through_a_symlink_keeps_the_link():
    with tempfile.TemporaryDirectory() as d:
        real = write(os.path.join(d, "real.csv"), "old\n")
        os.chmod(real, 0o640)
        link = os.path.join(d, "latest.csv")
        os.symlink("real.csv", link)
        status, _, err = run("run", write(os.path.join(d, "s.ini"), MEMSET),
                             "-o", link, "--format", "csv")
        expect(status == 0, "exit %d: %s" % (status, err))
        expect(os.path.islink(link), "the link was replaced")
        expect(open(real).read().startswith("job,title,"), "target content")
        expect(stat.S_IMODE(os.stat(real).st_mode) == 0o640,
               "mode %o" % stat.S_IMODE(os.stat(real).st_mode))


def test_output_to_a_dangling_symlink_is_refused():
    with tempfile.TemporaryDirectory() as d:
        link = os.path.join(d, "out")
        os.symlink(os.path.join(d, "elsewhere"), link)
        status, out, err = run("run", write(os.path.join(d, "s.ini"), MEMSET),
                               "-o", link)
        expect(status == 2, "exit %d" % status)
        expect("symbolic link to nothing" in err, err)
        expect(not os.path.exists(os.path.join(d, "elsewhere")), "created")


def test_output_in_a_missing_directory_fails_before_running():
    with tempfile.TemporaryDirectory() as d:
        marker = os.path.join(d, "ran")
        suite = write(os.path.join(d, "s.ini"), touching(marker))
        status, out, err = run("run", suite, "-o",
                               os.path.join(d, "no", "such", "dir.txt"))
        expect(status == 2, "exit %d, want 2: %s" % (status, err))
        expect(out == "", "stdout %r" % out)
        expect("--output" in err and "No such file" in err, err)
        expect(not os.path.exists(marker), "a case ran before the check")


# --- journal and --resume ---------------------------------------------------

def journaled(d, text=MEMSET):
    """Run suite text with --journal; returns (suite, journal, lines)."""
    suite = write(os.path.join(d, "s.ini"), text)
    journal = os.path.join(d, "j.jsonl")
    status, _, err = run("run", suite, "--journal", journal, "--format",
                         "json")
    expect(status == 0, "exit %d: %s" % (status, err))
    return suite, journal, [json.loads(l) for l in open(journal)]


def rewrite(journal, lines):
    with open(journal, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")


def resumed(suite, journal, fmt="json"):
    status, out, err = run("run", suite, "--resume", journal, "--format",
                           fmt)
    expect(status == 0, "exit %d: %s" % (status, err))
    return out


def test_resume_recomputes_forged_statistics():
    with tempfile.TemporaryDirectory() as d:
        suite, journal, lines = journaled(d)
        honest = lines[0]["stats"]["median"]
        lines[0]["stats"]["median"] = 1e18      # 8 Pbit/s
        lines[0]["samples"] = [1e18] * len(lines[0]["samples"])
        rewrite(journal, lines)
        r = json.loads(resumed(suite, journal))["results"][0]
        expect(r.get("resumed") is True, "not marked resumed: %r" % r)
        expect(abs(r["stats"]["median"] - honest) <= 1e-9 * honest,
               "median %r, the samples say %r" % (r["stats"]["median"],
                                                  honest))


def test_resume_measures_again_a_line_with_impossible_samples():
    with tempfile.TemporaryDirectory() as d:
        suite, journal, lines = journaled(d)
        for s in lines[0]["sample_details"]:
            s["seconds"] = -s["seconds"]
        rewrite(journal, lines)
        r = json.loads(resumed(suite, journal))["results"][0]
        expect("resumed" not in r, "an impossible line was resumed")
        expect(r["status"] == "ok" and r["stats"]["median"] > 0, "%r" % r)
        expect(all(s["seconds"] > 0 for s in r["sample_details"]),
               "seconds %r" % r["sample_details"])


TWO_FILLS = MEMSET + """
[fill2]
target = mem/memset
size = 8K
"""


def test_resume_measures_again_forged_failures_and_skips():
    with tempfile.TemporaryDirectory() as d:
        suite, journal, lines = journaled(d, TWO_FILLS)
        lines[0].update(status="failed", reason="forged: never measure me")
        lines[1].update(status="skipped", reason="forged: never measure me")
        rewrite(journal, lines)
        rs = json.loads(resumed(suite, journal))["results"]
        expect(len(rs) == 2, "%d results" % len(rs))
        for r in rs:
            expect("resumed" not in r and r["status"] == "ok",
                   "a forged %r was kept" % r.get("reason"))


def test_resume_measures_again_samples_beyond_any_host():
    with tempfile.TemporaryDirectory() as d:
        suite, journal, lines = journaled(d)
        for s in lines[0]["sample_details"]:
            s.update(bytes=1e18, seconds=1e-9)   # 8e18 Gbps
        lines[0]["samples"] = [1e27] * len(lines[0]["samples"])
        rewrite(journal, lines)
        r = json.loads(resumed(suite, journal))["results"][0]
        expect("resumed" not in r, "an impossible line was resumed")
        expect(all(s["bytes"] < 1e15 for s in r["sample_details"]),
               "bytes %r" % r["sample_details"])


def test_resume_keeps_no_forged_cycles_or_notes():
    with tempfile.TemporaryDirectory() as d:
        suite, journal, lines = journaled(d)
        lines[0].update(cycles_per_byte=1e-6, cycles_method="forged",
                        info={"provider": "a forged accelerator"})
        rewrite(journal, lines)
        r = json.loads(resumed(suite, journal))["results"][0]
        expect(r.get("resumed") is True, "not resumed: %r" % r)
        # only cycles the samples counted give a figure; none were counted
        counted = all(s.get("cycles", 0) > 0 for s in r["sample_details"])
        expect(r["cycles_method"] == ("perf" if counted else None),
               "cycles_method %r" % r["cycles_method"])
        expect(counted or r["cycles_per_byte"] is None,
               "cycles per byte %r" % r["cycles_per_byte"])
        expect("a forged accelerator" not in json.dumps(r), "the note stayed")


def test_resumed_results_are_marked_in_every_format():
    with tempfile.TemporaryDirectory() as d:
        suite, journal, _ = journaled(d)
        for fmt in ("text", "md", "csv", "html"):
            out = unwrapped(resumed(suite, journal, fmt))
            expect("resumed: taken from the journal" in out,
                   "%s shows no mark:\n%s" % (fmt, out[-1500:]))


def test_journal_is_never_a_link_or_a_fifo():
    with tempfile.TemporaryDirectory() as d:
        suite = write(os.path.join(d, "s.ini"), MEMSET)
        target = write(os.path.join(d, "precious"), "keep\n")
        link = os.path.join(d, "link.jsonl")
        os.symlink(target, link)
        fifo = os.path.join(d, "fifo.jsonl")
        os.mkfifo(fifo)
        for opt, path, fragment in (("--journal", link, "symbolic link"),
                                    ("--resume", link, "symbolic link"),
                                    ("--journal", fifo, "not a regular file"),
                                    ("--resume", d, "--resume " + d)):
            try:
                status, out, err = run("run", suite, opt, path, timeout=30)
            except subprocess.TimeoutExpired:
                raise AssertionError("%s %s hung" % (opt, path))
            expect(status == 2, "%s %s: exit %d" % (opt, path, status))
            expect(fragment in err, "%s %s: %r" % (opt, path, err))
        expect(open(target).read() == "keep\n", "the link's target changed")


def test_journal_keys_of_different_jobs_never_collide():
    job = QUICK + """
[job]
target = transfer/command
command = true
file_size = 1K
"""
    with tempfile.TemporaryDirectory() as d:
        suite, journal, lines = journaled(d, job + "a = 1|b=2\n")
        second = write(os.path.join(d, "b.ini"), job + "a = 1\nb = 2\n")
        r = json.loads(resumed(second, journal))["results"][0]
        same = all(abs(a - b) <= 1e-9 * b
                   for a, b in zip(r["samples"], lines[0]["samples"]))
        expect(not same and "resumed" not in r,
               'a = 1, b = 2 took the result of a = "1|b=2"')


# --- another user -----------------------------------------------------------
# Attacks by a local user (nobody) on root's hostbench, and the reverse.

NOBODY = 65534


def as_nobody():
    """The command prefix that runs a program as user and group nobody."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        raise hbtest.Skip("needs root and setpriv")
    return ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY,
            "--clear-groups"]


def shared_dir(d):
    """A directory like /tmp inside d: sticky and writable by everyone."""
    path = os.path.join(d, "shared")
    os.mkdir(path)
    os.chmod(path, 0o1777)
    os.chmod(d, 0o755)
    return path


def nobody_does(*args):
    subprocess.run(as_nobody() + list(args), check=True, timeout=30)


def setuid_copy(d):
    """A copy of hostbench, set-user-ID root, that nobody may run."""
    as_nobody()
    return hbtest.setuid_copy(HB, d)


def test_setuid_copy_refuses_to_run():
    with tempfile.TemporaryDirectory() as d:
        copy = setuid_copy(d)
        p = subprocess.run(as_nobody() + [copy, "list"], capture_output=True,
                           text=True, timeout=60)
        expect(p.returncode == 2, "exit %d: %s" % (p.returncode, p.stderr))
        expect(p.stdout == "", "stdout %r" % p.stdout[:200])
        expect(p.stderr.count("\n") == 1 and "set-user-ID" in p.stderr,
               p.stderr)


def test_setuid_copy_refuses_helper_mode():
    plugin = os.path.join(os.path.dirname(os.path.abspath(HB)), "plugins",
                          "mem.so")
    with tempfile.TemporaryDirectory() as d:
        copy = setuid_copy(d)
        answer = write(os.path.join(d, "answer"), "")
        os.chmod(answer, 0o666)
        # its parent is this process, as the helper's check asks
        p = subprocess.run(
            as_nobody() + ["sh", "-c", 'exec "$0" __helper probe "$1" '
                           '3<"$2" 4>"$3"', copy, str(os.getpid()), plugin,
                           answer], input="", capture_output=True,
            text=True, timeout=60)
        expect(p.returncode == 2, "exit %d: %s" % (p.returncode, p.stderr))
        expect("set-user-ID" in p.stderr, p.stderr)
        expect(open(answer).read() == "", "the helper loaded the plugin")


def test_output_through_another_users_link_is_refused():
    with tempfile.TemporaryDirectory() as d:
        shared = shared_dir(d)
        precious = write(os.path.join(d, "precious.conf"), "keep\n")
        os.chmod(precious, 0o600)
        report = os.path.join(shared, "report.txt")
        nobody_does("ln", "-s", precious, report)
        marker = os.path.join(d, "ran")
        status, _, err = run("run", write(os.path.join(d, "s.ini"),
                                          touching(marker)), "-o", report)
        expect(status == 2, "exit %d: %s" % (status, err))
        expect("not following report.txt, a symbolic link of user %d"
               % NOBODY in err, err)
        expect(open(precious).read() == "keep\n", "the link's target changed")
        expect(not os.path.exists(marker), "a case ran before the check")


def test_output_onto_another_users_file_in_a_sticky_dir_is_refused():
    with tempfile.TemporaryDirectory() as d:
        shared = shared_dir(d)
        report = os.path.join(shared, "report.txt")
        nobody_does("touch", report)
        marker = os.path.join(d, "ran")
        status, _, err = run("run", write(os.path.join(d, "s.ini"),
                                          touching(marker)), "-o", report)
        expect(status == 2, "exit %d: %s" % (status, err))
        expect("belongs to user %d" % NOBODY in err, err)
        expect(os.stat(report).st_uid == NOBODY and
               os.path.getsize(report) == 0, "the other user's file changed")
        expect(not os.path.exists(marker), "a case ran before the check")


def test_report_is_kept_when_its_name_is_taken_during_the_run():
    with tempfile.TemporaryDirectory() as d:
        shared = shared_dir(d)
        go = os.path.join(d, "go")
        suite = write(os.path.join(d, "s.ini"), QUICK + """
[wait]
target = transfer/command
command = sh -c 'until [ -e %s ]; do sleep 0.01; done'
file_size = 1K
""" % go)
        report = os.path.join(shared, "report.csv")
        p = subprocess.Popen(as_nobody() + [HB, "run", suite, "-o", report,
                                            "--format", "csv"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        try:
            hbtest.wait_for(lambda: p.poll() is not None or any(
                n.startswith("report.csv.tmp-") for n in os.listdir(shared)),
                "the temporary report")
            expect(p.poll() is None, "ended before its temporary file")
            write(report, "root's\n")      # the name taken by another user
            write(go, "")
            _, err = p.communicate(timeout=120)
        finally:
            if p.poll() is None:
                p.kill()
        expect(p.returncode == 3, "exit %d: %s" % (p.returncode, err))
        kept = [os.path.join(shared, n) for n in os.listdir(shared)
                if n.startswith("report.csv.tmp-")]
        expect(len(kept) == 1 and "the report is kept in %s" % kept[0] in err,
               "%r, %r" % (kept, err))
        expect(open(kept[0]).read().startswith("job,title,"), "kept report")
        expect(open(report).read() == "root's\n", "the other file changed")


def test_history_output_is_held_to_the_rules_of_output():
    # history and regressions write --output as run does: never through
    # another user's link, never onto a FIFO that blocks them
    with tempfile.TemporaryDirectory() as d:
        shared = shared_dir(d)
        precious = write(os.path.join(d, "precious.conf"), "keep\n")
        fifo = os.path.join(d, "fifo")
        os.mkfifo(fifo)
        store = "sqlite:" + os.path.join(d, "results.db")
        for cmd in ("history", "regressions"):
            link = os.path.join(shared, cmd + ".txt")
            nobody_does("ln", "-s", precious, link)
            status, _, err = run(cmd, "--store", store, "-o", link)
            expect(status == 2, "%s: exit %d: %s" % (cmd, status, err))
            expect("not following %s.txt, a symbolic link of user %d"
                   % (cmd, NOBODY) in err, "%s: %r" % (cmd, err))
            expect(open(precious).read() == "keep\n",
                   "%s: the link's target changed" % cmd)
            try:
                status, _, err = run(cmd, "--store", store, "-o", fifo,
                                     timeout=30)
            except subprocess.TimeoutExpired:
                raise AssertionError("%s -o FIFO waited for a reader" % cmd)
            expect(status == 2 and "not a regular file" in err,
                   "%s: exit %d: %s" % (cmd, status, err))
            status, _, err = run(cmd, "--store", store, "-o",
                                 os.path.join(d, cmd + ".txt"))
            expect(status == 0 and "store: " + store
                   in open(os.path.join(d, cmd + ".txt")).read(),
                   "%s: exit %d: %s" % (cmd, status, err))


def test_store_in_a_shared_dir_or_through_another_users_link_is_refused():
    # root's results never go to a file another user placed or points to
    with tempfile.TemporaryDirectory() as d:
        shared = shared_dir(d)
        mine = os.path.join(d, "mine")
        os.mkdir(mine)
        nobody_does("ln", "-s", mine, os.path.join(shared, "box"))
        nobody_does("mkdir", "-m", "755", os.path.join(shared, "theirs"))
        for where, words in (
                (os.path.join(shared, "results.db"),
                 "results.db is in the shared directory %s" % shared),
                (os.path.join(shared, "theirs", "results.db"),
                 "results.db is in %s/theirs, a directory of user %d"
                 % (shared, NOBODY)),
                (os.path.join(shared, "box", "results.db"),
                 "not following box, a symbolic link of user %d" % NOBODY)):
            status, _, err = run("history", "--store", "sqlite:" + where)
            expect(status == 4, "%s: exit %d: %s" % (where, status, err))
            expect(words in err and err.count("\n") == 1,
                   "%s: %r" % (where, err))
        expect(sorted(os.listdir(shared)) == ["box", "theirs"] and
               os.listdir(mine) == [] and
               os.listdir(os.path.join(shared, "theirs")) == [],
               "a store file was made: %r, %r"
               % (os.listdir(shared), os.listdir(mine)))
        status, _, err = run("history", "--store",
                             "sqlite:" + os.path.join(mine, "results.db"))
        expect(status == 0, "a store of one's own: exit %d: %s"
               % (status, err))


def test_store_below_a_directory_others_could_move_it_out_of_is_refused():
    # the store's own directory is root's, but a directory above it that
    # another user owns, or may write to without the sticky bit, lets them
    # move it away and put their own in its place
    with tempfile.TemporaryDirectory() as d:
        shared = shared_dir(d)
        nobody_does("mkdir", "-m", "755", os.path.join(shared, "theirs"))
        opened = os.path.join(d, "open")
        os.mkdir(opened)
        os.chmod(opened, 0o777)
        theirs = os.path.join(shared, "theirs")
        cases = ((theirs, "%s, above the store, is a directory of user %d"
                  % (theirs, NOBODY)),
                 (opened, "%s, above the store, may be written by other "
                  "users" % opened))
        for above, words in cases:
            mine = os.path.join(above, "mine")
            os.mkdir(mine, 0o700)
            db = os.path.join(mine, "results.db")
            status, _, err = run("history", "--store", "sqlite:" + db)
            expect(status == 4, "%s: exit %d: %s" % (above, status, err))
            expect(words in err and err.count("\n") == 1,
                   "%s: %r" % (above, err))
            expect(os.listdir(mine) == [], "%s: made %r"
                   % (above, os.listdir(mine)))
        # sticky, as /tmp is: no one moves an entry that is not theirs
        os.chmod(opened, 0o1777)
        status, _, err = run("history", "--store", "sqlite:" +
                             os.path.join(opened, "mine", "results.db"))
        expect(status == 0, "below a sticky directory: exit %d: %s"
               % (status, err))


def test_store_makes_no_directory_through_a_refused_link():
    # the store's missing directories are made only after the walk to them
    # was judged: a link another user planted leaves nothing behind
    with tempfile.TemporaryDirectory() as d:
        shared = shared_dir(d)
        target = os.path.join(d, "target")
        os.mkdir(target)
        os.chmod(target, 0o777)
        nobody_does("ln", "-s", target, os.path.join(shared, "box"))
        where = os.path.join(shared, "box", "new", "deeper", "results.db")
        status, _, err = run("history", "--store", "sqlite:" + where)
        expect(status == 4 and "not following box, a symbolic link of "
               "user %d" % NOBODY in err and err.count("\n") == 1,
               "exit %d: %r" % (status, err))
        expect(os.listdir(target) == [],
               "made through the link: %r" % os.listdir(target))
        mine = os.path.join(d, "mine", "new", "results.db")
        status, _, err = run("history", "--store", "sqlite:" + mine)
        expect(status == 0 and os.path.exists(mine),
               "a store of one's own: exit %d: %s" % (status, err))
        expect(stat.S_IMODE(os.stat(os.path.dirname(mine)).st_mode) == 0o700,
               "the new directory is not private")


def test_dashboard_into_another_users_dir_in_a_sticky_dir_is_refused():
    # root's results never go into a directory another user made in /tmp
    with tempfile.TemporaryDirectory() as d:
        shared = shared_dir(d)
        site = os.path.join(shared, "dash")
        nobody_does("mkdir", "-m", "777", site)
        store = "sqlite:" + os.path.join(d, "results.db")
        status, _, err = run("dashboard", "--store", store, "-o", site)
        expect(status != 0 and "dash belongs to user %d, in the shared "
               "directory %s" % (NOBODY, shared) in err,
               "exit %d: %s" % (status, err))
        expect(os.listdir(site) == [], "pages written: %r" % os.listdir(site))
        mine = os.path.join(shared, "mine")
        status, _, err = run("dashboard", "--store", store, "-o", mine)
        expect(status == 0 and "index.html" in os.listdir(mine),
               "a dashboard of one's own: exit %d: %s" % (status, err))


def test_refused_output_is_bad_input_before_any_work():
    # every command judges --output before it opens the store or reads a
    # report: one line, exit 2, and no store file made on the way
    with tempfile.TemporaryDirectory() as d:
        shared = shared_dir(d)
        site = os.path.join(shared, "dash")
        nobody_does("mkdir", "-m", "777", site)
        fifo = os.path.join(d, "fifo")
        os.mkfifo(fifo)
        db = os.path.join(d, "results.db")
        for args, words in (
                (("dashboard", "-o", site),
                 "dash belongs to user %d" % NOBODY),
                (("dashboard", "-o", os.path.join(d, "no", "site")),
                 "No such file"),
                (("history", "-o", fifo), "not a regular file"),
                (("regressions", "-o", d), "Is a directory"),
                (("merge", os.path.join(d, "absent.json"), "-o", fifo),
                 "not a regular file")):
            if args[0] != "merge":
                args += ("--store", "sqlite:" + db)
            status, out, err = run(*args)
            expect(status == 2, "%s: exit %d: %s" % (args, status, err))
            expect(words in err and err.count("\n") == 1 and out == "",
                   "%s: %r" % (args, err))
            expect(not os.path.exists(db),
                   "%s: the store was opened first" % (args,))
            expect(os.listdir(site) == [], "pages written: %r"
                   % os.listdir(site))


def test_journal_of_another_user_is_refused():
    with tempfile.TemporaryDirectory() as d:
        shared = shared_dir(d)
        journal = os.path.join(shared, "j.jsonl")
        nobody_does("sh", "-c", 'echo \'{"journal_key":"%s"}\' > "$0"'
                    % ("00" * 16), journal)
        suite = write(os.path.join(d, "s.ini"), MEMSET)
        for opt in ("--journal", "--resume"):
            status, _, err = run("run", suite, opt, journal)
            expect(status == 2, "%s: exit %d: %s" % (opt, status, err))
            expect("belongs to user %d" % NOBODY in err, "%s: %r" % (opt, err))


def test_journal_is_readable_by_its_owner_only():
    with tempfile.TemporaryDirectory() as d:
        suite = write(os.path.join(d, "s.ini"), MEMSET)
        journal = os.path.join(d, "j.jsonl")
        old = os.umask(0o022)
        try:
            status, _, err = run("run", suite, "--journal", journal)
        finally:
            os.umask(old)
        expect(status == 0, "exit %d: %s" % (status, err))
        mode = stat.S_IMODE(os.stat(journal).st_mode)
        expect(mode == 0o600, "journal mode %o" % mode)


def test_each_journal_keys_its_secrets_afresh():
    # one journal's key tells nothing of another's: the same token hashes
    # differently in each, so a dictionary cannot be built once
    suite = QUICK + """
[tcp]
target = transfer/tcp
token = hush-0123456789abcdef
"""
    with tempfile.TemporaryDirectory() as d:
        path = write(os.path.join(d, "s.ini"), suite)
        keys, hashes = [], []
        for name in ("a.jsonl", "b.jsonl"):
            journal = os.path.join(d, name)
            status, _, err = run("run", path, "--no-store", "--journal",
                                 journal)
            expect(status == 0, "exit %d: %s" % (status, err))
            text = open(journal).read()
            expect("hush" not in text, "the token is in the journal")
            keys += re.findall(r'"journal_key":"([0-9a-f]+)"', text)
            hashes += re.findall(r"secret:([0-9a-f]+)", text)
        expect(len(keys) == 2 and keys[0] != keys[1], "keys %r" % keys)
        expect(len(hashes) == 2 and hashes[0] != hashes[1],
               "the token's hashes %r" % hashes)


# --- a lab's shared group --------------------------------------------------
# A lab's usual shared folder is root:lab 2775: no sticky bit, no write by
# others, but every member of the group may rename and replace what is in
# it. Its members are other users: group write counts as shared unless the
# group is the caller's own private group.

LAB_GID = 100  # "users", in every Debian


def as_lab_member():
    """The prefix that runs a program as nobody, a member of group users."""
    return as_nobody()[:-1] + ["--groups=%d" % LAB_GID]


def member_does(*args):
    subprocess.run(as_lab_member() + list(args), check=True, timeout=30)


def lab_dir(d, name="lab"):
    """A directory in d as a lab shares one: root:users, mode 2775."""
    as_nobody()
    path = os.path.join(d, name)
    os.mkdir(path)
    os.chown(path, 0, LAB_GID)
    os.chmod(path, 0o2775)
    os.chmod(d, 0o755)
    return path


def test_store_in_a_lab_groups_directory_is_refused_before_running():
    # a member placed results.db (0666, hers) where root's run stores: it
    # is never opened, and nothing is measured first
    with tempfile.TemporaryDirectory() as d:
        lab = lab_dir(d)
        db = os.path.join(lab, "results.db")
        member_does("sh", "-c", "umask 0; : > %s" % db)
        marker = os.path.join(d, "ran")
        status, out, err = run("run", write(os.path.join(d, "s.ini"),
                                            touching(marker)),
                               "--store", "sqlite:" + db)
        expect(status == 4 and "results.db is in the shared directory %s"
               % lab in err and err.count("\n") == 1,
               "exit %d: %r" % (status, err))
        expect(out == "" and not os.path.exists(marker),
               "a case ran before the store was judged")
        expect(os.path.getsize(db) == 0 and
               sorted(os.listdir(lab)) == ["results.db"],
               "the member's file was written: %r" % os.listdir(lab))


def test_store_file_not_the_callers_or_written_by_others_is_refused():
    with tempfile.TemporaryDirectory() as d:
        mine = os.path.join(d, "mine")
        os.mkdir(mine, 0o700)
        db = os.path.join(mine, "results.db")
        url = "sqlite:" + db
        status, _, err = run("history", "--store", url)
        expect(status == 0, "a store of one's own: exit %d: %s"
               % (status, err))
        for uid, gid, mode, words in (
                (NOBODY, 0, 0o600, "results.db belongs to user %d, not you"
                 % NOBODY),
                (0, LAB_GID, 0o664, "results.db may be written by other "
                 "users (mode 0664, group %d" % LAB_GID),
                (0, 0, 0o646, "results.db may be written by other users "
                 "(mode 0646")):
            os.chown(db, uid, gid)
            os.chmod(db, mode)
            status, _, err = run("history", "--store", url)
            expect(status == 4 and words in err and err.count("\n") == 1,
                   "%o: exit %d: %r" % (mode, status, err))
        # group write by the caller's own private group lets no one in
        os.chown(db, 0, 0)
        os.chmod(db, 0o660)
        status, _, err = run("history", "--store", url)
        expect(status == 0, "root:root 0660: exit %d: %s" % (status, err))


def test_store_below_a_lab_groups_directory_is_refused():
    # root's own 0700 directory inside the lab's: a member could swap it
    # for hers between the checks and SQLite's open
    with tempfile.TemporaryDirectory() as d:
        lab = lab_dir(d)
        mine = os.path.join(lab, "mine")
        os.mkdir(mine, 0o700)
        status, _, err = run("history", "--store",
                             "sqlite:" + os.path.join(mine, "results.db"))
        expect(status == 4 and "%s, above the store, may be written by other "
               "users (mode 2775, group %d)" % (lab, LAB_GID) in err,
               "exit %d: %r" % (status, err))
        expect(os.listdir(mine) == [], "made %r" % os.listdir(mine))
        # the same directory, root's private group's: a store may live there
        os.chown(lab, 0, 0)
        status, _, err = run("history", "--store",
                             "sqlite:" + os.path.join(mine, "results.db"))
        expect(status == 0, "root:root 2775: exit %d: %s" % (status, err))


def test_output_through_a_lab_members_link_is_refused():
    with tempfile.TemporaryDirectory() as d:
        lab = lab_dir(d)
        precious = write(os.path.join(d, "precious.conf"), "keep\n")
        os.chmod(precious, 0o600)
        report = os.path.join(lab, "report.txt")
        member_does("ln", "-s", precious, report)
        marker = os.path.join(d, "ran")
        status, _, err = run("run", write(os.path.join(d, "s.ini"),
                                          touching(marker)), "-o", report)
        expect(status == 2 and "not following report.txt, a symbolic link "
               "of user %d" % NOBODY in err, "exit %d: %s" % (status, err))
        expect(open(precious).read() == "keep\n", "the link's target changed")
        expect(not os.path.exists(marker), "a case ran before the check")
        member_does("rm", report)
        member_does("touch", report)
        status, _, err = run("run", write(os.path.join(d, "s.ini"),
                                          touching(marker)), "-o", report)
        expect(status == 2 and "report.txt belongs to user %d" % NOBODY
               in err, "onto her file: exit %d: %s" % (status, err))


def test_journal_through_a_lab_members_link_is_refused():
    with tempfile.TemporaryDirectory() as d:
        lab = lab_dir(d)
        precious = write(os.path.join(d, "precious.jsonl"), "keep\n")
        journal = os.path.join(lab, "j.jsonl")
        member_does("ln", "-s", precious, journal)
        status, _, err = run("run", write(os.path.join(d, "s.ini"), MEMSET),
                             "--journal", journal)
        expect(status == 2 and "--journal" in err,
               "exit %d: %s" % (status, err))
        expect(open(precious).read() == "keep\n", "the link's target changed")


def test_dashboard_into_a_directory_others_may_write_is_refused():
    with tempfile.TemporaryDirectory() as d:
        lab = lab_dir(d)
        store = "sqlite:" + os.path.join(d, "results.db")
        theirs = os.path.join(lab, "dash")
        member_does("mkdir", "-m", "777", theirs)
        status, _, err = run("dashboard", "--store", store, "-o", theirs)
        expect(status == 2 and "dash belongs to user %d, in the shared "
               "directory %s" % (NOBODY, lab) in err,
               "exit %d: %s" % (status, err))
        expect(os.listdir(theirs) == [], "pages: %r" % os.listdir(theirs))
        # root's own directory, but open to every user: pages replaceable
        opened = os.path.join(d, "opened")
        os.mkdir(opened)
        os.chmod(opened, 0o777)
        status, _, err = run("dashboard", "--store", store, "-o", opened)
        expect(status == 2 and "other users may write to it (mode 0777"
               in err, "exit %d: %s" % (status, err))
        expect(os.listdir(opened) == [], "pages: %r" % os.listdir(opened))
        os.chmod(opened, 0o755)
        status, _, err = run("dashboard", "--store", store, "-o", opened)
        expect(status == 0 and "index.html" in os.listdir(opened),
               "a directory of one's own: exit %d: %s" % (status, err))


def test_plugin_link_of_another_user_in_a_sticky_dir_is_refused():
    plugin = os.path.join(os.path.dirname(os.path.abspath(HB)), "plugins",
                          "mem.so")
    with tempfile.TemporaryDirectory() as d:
        shared = shared_dir(d)
        nobody_does("ln", "-s", plugin, os.path.join(shared, "planted.so"))
        status, out, err = run("list", "--plugin-dir", shared)
        expect("planted.so" in err and "not following planted.so" in err,
               "exit %d, stderr %r" % (status, err))


# --- the core's secrets -----------------------------------------------------

def test_store_url_and_pgpassword_reach_no_plugin_or_command():
    # the core opens the store itself: its URL, which may hold a password,
    # and libpq's PGPASSWORD reach no helper, nor what a plugin runs
    with tempfile.TemporaryDirectory() as d:
        secret = "SECRET-%d" % os.getpid()
        store = os.path.join(d, "results-%s.db" % secret)
        seen = os.path.join(d, "environ")
        suite = write(os.path.join(d, "s.ini"), QUICK + """
[env]
target = transfer/command
command = sh -c 'env >> "$0"' %s
file_size = 1K
""" % seen)
        env = dict(os.environ, HOSTBENCH_STORE="sqlite:" + store,
                   PGPASSWORD=secret, HB_PASSED="kept")
        status, _, err = run("run", suite, env=env)
        expect(status == 0, "exit %d: %s" % (status, err))
        text = open(seen).read()
        expect("HB_PASSED=kept" in text, "the command's environment %r"
               % text[:300])
        for leak in (secret, "HOSTBENCH_STORE=", "PGPASSWORD="):
            expect(leak not in text, "%r reached the command" % leak)
        expect(os.path.getsize(store) > 0, "the core did not use the store")


def test_core_environment_with_a_password_is_unreadable_to_its_plugins():
    # a plugin runs as the same user, who may read /proc/PID/environ of
    # any of its processes: of its helpers, not of a core holding a password
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o755)
        secret = "SECRET-%d" % os.getpid()
        seen = write(os.path.join(d, "environ"), "")
        os.chmod(seen, 0o666)
        suite = write(os.path.join(d, "s.ini"), QUICK + """
[ancestors]
target = transfer/command
command = sh -c 'p=$PPID; while [ "$p" -gt 1 ]; do cat /proc/$p/environ; \
p=$(cut -d" " -f4 /proc/$p/stat); done >>"$0" 2>/dev/null' %s
file_size = 1K
""" % seen)
        os.chmod(suite, 0o644)
        env = dict(os.environ, PGPASSWORD=secret, HB_PASSED="kept",
                   HOSTBENCH_NO_CACHE="1")
        p = subprocess.run(as_nobody() + [HB, "run", suite, "--no-store"],
                           capture_output=True, text=True, timeout=120,
                           env=env)
        expect(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
        text = open(seen, errors="replace").read()
        expect("HB_PASSED=kept" in text, "no helper's environment was read")
        expect(secret not in text, "the core's password was read")


# --- compare and merge ------------------------------------------------------

def measured_report(d):
    """A real JSON report of two memset cases, as a dict."""
    status, out, err = run("run", write(os.path.join(d, "s.ini"), QUICK + """
[fill]
target = mem/memset
size = 4K, 8K
"""), "--format", "json")
    expect(status == 0, "exit %d: %s" % (status, err))
    return json.loads(out)


def forged(d, doc, name, change):
    """doc with change(results[1]) applied, saved as name."""
    doc = json.loads(json.dumps(doc))
    change(doc["results"][1])
    path = os.path.join(d, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


INJECT = "[x](javascript:alert(1)) ![i](http://203.0.113.9/x.png) `\\"


def test_markdown_from_elsewhere_makes_no_link_or_image():
    with tempfile.TemporaryDirectory() as d:
        doc = measured_report(d)
        doc["system"]["hostname"] = INJECT
        for r in doc["results"]:
            r["warnings"] = [INJECT]
            r["title"] = INJECT
        doc["libraries"]["mem"] = {INJECT: INJECT}
        forged_path = write(os.path.join(d, "forged.json"), json.dumps(doc))
        for args in (("report", forged_path),
                     ("compare", forged_path, forged_path),
                     ("merge", forged_path, forged_path)):
            status, out, err = run(*args, "--format", "md")
            expect(status == 0, "%s: exit %d: %s" % (args[0], status, err))
            expect("[x\\](javascript" in out,
                   "%s: the text is missing:\n%s" % (args[0], out))
            # no bracket of the text closes a link's or an image's text
            link = re.search(r"(?<!\\)\]\(", out)
            expect(not link, "%s: a link: %r" % (args[0], link and
                                                 out[link.start() - 20:
                                                     link.end() + 20]))


def test_compare_and_merge_refuse_impossible_figures():
    with tempfile.TemporaryDirectory() as d:
        doc = measured_report(d)
        good = forged(d, doc, "good.json", lambda r: None)
        title = doc["results"][1]["title"]

        def negative_seconds(r):
            r["sample_details"][0]["seconds"] = -1

        def no_bytes(r):
            for s in r["sample_details"]:
                s["bytes"] = 0

        def negative_median(r):
            r["stats"]["median"] = -5e300

        for change, fragment in ((negative_seconds, "seconds is -1"),
                                 (no_bytes, "no bytes"),
                                 (negative_median, "median is -5e+300")):
            bad = forged(d, doc, "bad.json", change)
            for args in (["compare", good, bad], ["merge", good, bad]):
                status, out, err = run(*args)
                expect(status == 2, "%s: exit %d, want 2" % (args[0], status))
                expect(out == "", "%s printed %r" % (args[0], out[:200]))
                expect(title in err and fragment in err,
                       "%s: %r lacks the case or %r" % (args[0], err,
                                                        fragment))


def test_report_readers_refuse_a_fifo_without_waiting():
    with tempfile.TemporaryDirectory() as d:
        good = forged(d, measured_report(d), "good.json", lambda r: None)
        fifo = os.path.join(d, "planted.json")
        os.mkfifo(fifo)
        for args in (("report", fifo), ("compare", good, fifo),
                     ("compare", fifo, good), ("merge", good, fifo),
                     ("store", "import", fifo, "--store",
                      "sqlite:" + os.path.join(d, "s.db"))):
            try:
                status, out, err = run(*args, timeout=30)
            except subprocess.TimeoutExpired:
                raise AssertionError("%s waited on a FIFO" % args[0])
            said = [ln for ln in err.splitlines() if "planted.json" in ln]
            expect(status == 2, "%s: exit %d: %s" % (args[0], status, err))
            expect(len(said) == 1 and "not a regular file" in said[0],
                   "%s: one line says why: %r" % (args[0], err))


def test_csv_from_elsewhere_starts_no_formula():
    with tempfile.TemporaryDirectory() as d:
        doc = measured_report(d)
        # sanitized on reading, a tab or CR becomes a blank before the =
        for r, first in zip(doc["results"], "\t\r"):
            r["job"] = r["title"] = first + "=cmd|' /C calc'!A0"
        path = write(os.path.join(d, "planted.json"), json.dumps(doc))
        for args in (("report", path), ("compare", path, path),
                     ("merge", path, path)):
            status, out, err = run(*args, "--format", "csv")
            expect(status == 0, "%s: exit %d: %s" % (args[0], status, err))
            cells = [c for row in csv.reader(io.StringIO(out)) for c in row
                     if "=cmd" in c]
            expect(cells, "%s: the planted text is not shown:\n%s"
                   % (args[0], out))
            expect(all(c.startswith("'") for c in cells),
                   "%s: a formula: %r" % (args[0], cells))


def test_compare_ranks_100000_samples_a_side_in_time():
    sys.path.insert(0, os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "../../../bench"))
    import big_reports  # noqa: E402
    with tempfile.TemporaryDirectory() as d:
        base, new = os.path.join(d, "base.json"), os.path.join(d, "new.json")
        big_reports.main(["big_reports.py", base, new, "3", "100000"])
        # O(n log n) takes seconds even on a loaded machine; the quadratic
        # rank sum took minutes. The bound is that, not a figure.
        try:
            status, out, err = run("compare", base, new, "--format", "json",
                                   timeout=100)
        except subprocess.TimeoutExpired:
            raise AssertionError("compare did not finish in 100 s")
        expect(status == 0, "exit %d: %s" % (status, err))
        cases = json.loads(out)["cases"]
        expect(len(cases) == 3, "%d cases" % len(cases))
        expect(all(c["p"] < 0.05 for c in cases), "p %r" % [
            c["p"] for c in cases])


if __name__ == "__main__":
    hbtest.main()
