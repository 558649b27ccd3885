#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The io targets through `hostbench run`: tiny cases of every target in
fresh directories, which must be exactly as before afterwards (names,
sizes, modes and mtimes of everything in them).

Usage: test_io_cli.py TEST HOSTBENCH CONF_DIR FSCRYPT_DIR
(FSCRYPT_DIR: the fscrypt_dir program, which makes an encrypted directory)
"""
import atexit
import json
import re
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect as check, unwrapped  # noqa: E402

HB, CONF, FSCRYPT_DIR = hbtest.args("HOSTBENCH", "CONF_DIR", "FSCRYPT_DIR")

TINY = """
[global]
duration = 50ms
repetitions = 2
warmup = 0
unit = MB/s
dir = {dirs}
"""

# Every target with small sizes; (section, target, keys, unit bytes).
JOBS = [
    ("fwrite", "io/fwrite", "file_size = 2M\nsize = 256K\nmin_free = 0\n"),
    ("fread", "io/fread", "file_size = 2M\nsize = 256K\n"),
    ("seq-write", "io/seq-write",
     "file_size = 2M\nsize = 256K\nparallel = 2\nfsync = end\n"),
    ("seq-read", "io/seq-read",
     "file_size = 2M\nsize = 256K\nparallel = 2\ndirect = true\n"),
    ("small write", "io/small-files", "files = 8\nparallel = 2\n"),
    ("small read", "io/small-files", "files = 8\nmode = read\n"),
]


# Every directory a test made, removed at exit even when a check failed.
MADE = []
atexit.register(lambda: [shutil.rmtree(d, ignore_errors=True)
                         for d in MADE if not os.path.ismount(d)])


def fresh_dir(base="/tmp", prefix="hbio-cli-"):
    d = tempfile.mkdtemp(prefix=prefix, dir=base)
    MADE.append(d)
    return d


def listing(d):
    """What a user would compare: every entry's name, mode, size, mtime."""
    out = []
    for name in sorted(os.listdir(d)):
        st = os.lstat(os.path.join(d, name))
        out.append((name, st.st_mode, st.st_size, st.st_mtime_ns))
    return out


def seeded_dir(base="/tmp"):
    """A fresh dir holding a user file and one named as the plugin names."""
    d = fresh_dir(base)
    for name in ("keep.txt", ".hostbench-1-0-0"):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write("keep me\n")
        os.utime(path, (1000000000, 1000000000))
    return d


def remove_seeded(d):
    for name in ("keep.txt", ".hostbench-1-0-0"):
        with open(os.path.join(d, name)) as f:
            check(f.read() == "keep me\n", "%s/%s changed" % (d, name))
        os.unlink(os.path.join(d, name))
    os.rmdir(d)


def write_suite(text):
    fd, path = tempfile.mkstemp(suffix=".ini", prefix="hbio-")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return path


def run(args, fmt="json"):
    p = subprocess.run([HB, "run"] + args + ["--format", fmt],
                       capture_output=True, text=True, timeout=300)
    sys.stderr.write(p.stderr)
    return p


def results(p):
    return json.loads(p.stdout)["results"]


def suite_of(dirs, jobs):
    text = TINY.format(dirs=", ".join(dirs))
    for section, target, keys in jobs:
        text += "\n[%s]\ntarget = %s\n%s" % (section, target, keys)
    return write_suite(text)


def test_every_target_runs_in_each_dir_and_leaves_it_as_found():
    dirs = [seeded_dir(), seeded_dir()]
    before = [listing(d) for d in dirs]
    suite = suite_of(dirs, JOBS)
    try:
        p = run([suite])
        check(p.returncode == 0, "exit status %d" % p.returncode)
        res = results(p)
        check(len(res) == 2 * len(JOBS), "%d results" % len(res))
        for r in res:
            what = "%s in %s" % (r["job"], r["params"].get("dir"))
            check(r["status"] == "ok", "%s: %s %s" % (what, r["status"],
                                                      r["reason"]))
            check(r["target"].startswith("io/"), what)
            check(r["params"]["dir"] in dirs, what + ": params.dir")
            check(len(r["samples"]) == 2, what + ": 2 samples")
            check(r["stats"]["median"] > 0, what + ": median")
            check(r["info"].get("text"), what + ": no text note")
            for s in r["sample_details"]:
                check(s["ops"] >= 1 and s["bytes"] > 0, what + ": sample")
        # each job ran once per directory, in suite order
        seen = sorted((r["job"], r["params"]["dir"]) for r in res)
        want = sorted((j[0], d) for j in JOBS for d in dirs)
        check(seen == want, "cases: %s" % seen)
        small = [r for r in res if r["target"] == "io/small-files"]
        for r in small:
            per_file = r["sample_details"][0]["bytes"] / \
                r["sample_details"][0]["ops"]
            check(per_file == 65536, "small-files bytes per file %g" %
                  per_file)
        for d, b in zip(dirs, before):
            check(listing(d) == b, "%s changed: %s" % (d, listing(d)))
    finally:
        os.unlink(suite)
    for d in dirs:
        remove_seeded(d)


def test_text_report_says_free_space_and_file_size():
    d = seeded_dir()
    suite = suite_of([d], JOBS[:2])
    try:
        p = run([suite], fmt="text")
        check(p.returncode == 0, "exit status %d" % p.returncode)
        check("free space " in p.stdout and ("at %s" % d) in p.stdout,
              "no free space note in:\n" + p.stdout)
        check("file size 2.00MiB" in p.stdout,
              "no file size note in:\n" + p.stdout)
    finally:
        os.unlink(suite)
    remove_seeded(d)


def refused(suite, want):
    """The suite is refused before anything runs, with want on stderr."""
    p = run([suite])
    check(p.returncode == 2, "exit status %d" % p.returncode)
    check(p.stdout == "", "stdout: %r" % p.stdout[:200])
    check(want in p.stderr, "stderr: %r" % p.stderr)


def test_missing_dir_refuses_the_suite_naming_it():
    suite = suite_of(["/nonexistent/hbio"], JOBS[2:3])
    try:
        refused(suite, "[seq-write] dir /nonexistent/hbio: "
                "No such file or directory")
    finally:
        os.unlink(suite)


def test_bad_dir_is_reported_at_the_line_of_its_key():
    # [global] dir on line 7; the job's own dir on line 12 of its file
    suite = suite_of(["/nonexistent/hbio-global"], [])
    with open(suite, "a") as f:
        f.write("\n[w]\ntarget = io/fwrite\nfile_size = 1M\n"
                "dir = /nonexistent/hbio-job\n")
    try:
        lines = open(suite).read().split("\n")
        check(lines[11] == "dir = /nonexistent/hbio-job", repr(lines))
        refused(suite, "%s:12: [w] dir /nonexistent/hbio-job: No such" % suite)
        p = run([suite, "--set", "w.dir=/nonexistent/hbio-set"])
        check(p.returncode == 2 and p.stderr.startswith(
            "hostbench: --set w.dir=/nonexistent/hbio-set: [w] dir "), p.stderr)
    finally:
        os.unlink(suite)
    suite = suite_of(["/nonexistent/hbio-global"], JOBS[2:3])
    try:
        refused(suite, "%s:7: [seq-write] dir /nonexistent/hbio-global" %
                suite)
    finally:
        os.unlink(suite)


def test_file_as_dir_refuses_the_suite_naming_it():
    f = os.path.join(fresh_dir(), "file")
    open(f, "w").close()
    suite = suite_of([f], JOBS[:1])
    try:
        refused(suite, "[fwrite] dir %s: Not a directory" % f)
    finally:
        os.unlink(suite)


def test_readonly_dir_refuses_the_suite_naming_it():
    d = fresh_dir(prefix="hbio-cli-ro-")
    mounted = False
    if os.geteuid() == 0:
        # root writes through any mode: only a read-only mount stops it
        m = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m",
                            "tmpfs", d], capture_output=True, text=True)
        if m.returncode != 0:
            raise hbtest.Skip("cannot mount read-only tmpfs: %s" % m.stderr)
        mounted = True
        why = "Read-only file system"
    else:
        os.chmod(d, 0o500)
        why = "Permission denied"
    suite = suite_of([d], JOBS[:1])
    try:
        refused(suite, "[fwrite] dir %s: not writable: %s" % (d, why))
    finally:
        os.unlink(suite)
        if mounted:
            subprocess.run(["umount", d], check=True)


def interrupt_mid_case(isolate):
    """SIGINT while small-files runs; dir must be as before afterwards."""
    d = seeded_dir()
    before = listing(d)
    suite = write_suite("""
[small write]
target = io/small-files
dir = %s
files = 50
parallel = 2
duration = 2s
repetitions = 20
warmup = 0
isolate = %s
""" % (d, isolate))
    p = subprocess.Popen([HB, "run", suite, "--format", "json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        # both workers made their 50 files: the case is on, and whenever
        # the signal comes from then on, the dir must end as found
        hbtest.wait_for(lambda: len(os.listdir(d)) == 2 + 100,
                        "both workers made their files", timeout=30,
                        interval=0.01)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        sys.stderr.write(err.decode())
        check(p.returncode == 130, "exit status %d, want 130 (SIGINT)"
              % p.returncode)
        res = json.loads(out)["results"]
        check(res[0]["status"] == "skipped" and
              "interrupted" in res[0]["reason"], "result: %s %s" % (
                  res[0]["status"], res[0]["reason"]))
        check(listing(d) == before, "%s left: %s" % (d, listing(d)))
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        os.unlink(suite)
    remove_seeded(d)


def test_interrupt_leaves_dir_as_found():
    # the case's process is killed: the core removes the files by name
    interrupt_mid_case("yes")


def test_interrupt_without_isolation_leaves_dir_as_found():
    # the case stops after its sample and teardown removes the files
    interrupt_mid_case("no")


def test_direct_on_tmpfs_skips_with_reason_or_runs():
    if not os.path.isdir("/dev/shm"):
        raise hbtest.Skip("no /dev/shm")
    d = fresh_dir("/dev/shm")
    suite = suite_of([d], JOBS[3:4])
    try:
        p = run([suite])
        r = results(p)[0]
        # tmpfs has O_DIRECT since Linux 6.6; before, it refuses it
        if r["status"] == "skipped":
            check("O_DIRECT not supported by the filesystem at %s" % d
                  in r["reason"], r["reason"])
        else:
            check(r["status"] == "ok", "%s %s" % (r["status"], r["reason"]))
            check(r["info"].get("cache") == "none (direct)", r["info"])
        check(os.listdir(d) == [], "left: %s" % os.listdir(d))
    finally:
        os.unlink(suite)


def test_buffered_read_on_tmpfs_is_flagged_as_cached():
    if not os.path.isdir("/dev/shm"):
        raise hbtest.Skip("no /dev/shm")
    d = fresh_dir("/dev/shm")
    suite = suite_of([d], JOBS[1:2])
    try:
        r = results(run([suite]))[0]
        check(r["status"] == "ok", "%s %s" % (r["status"], r["reason"]))
        check(any("served from memory" in w for w in r["warnings"]),
              "warnings: %s" % r["warnings"])
    finally:
        os.unlink(suite)


def sh(*cmd):
    """Run cmd; its stdout, stripped; raises with its stderr on failure."""
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, "%s: exit %d: %s" % (cmd, p.returncode,
                                                   p.stderr))
    return p.stdout.strip()


def fscrypt_skip_reason():
    """Why this host cannot hold an fscrypt directory, or None."""
    if os.geteuid() != 0:
        return "needs root (a loop device and a mount)"
    if not os.path.exists("/sys/fs/ext4/features/encryption"):
        return ("this kernel has no fscrypt for ext4 "
                "(/sys/fs/ext4/features/encryption is missing)")
    if not os.path.exists("/dev/loop-control"):
        return "no loop devices (/dev/loop-control is missing)"
    return None


DIRECT_JOBS = [
    ("seq-write", "io/seq-write",
     "file_size = 4M\nsize = 256K\ndirect = true\n"),
    ("seq-read", "io/seq-read",
     "file_size = 4M\nsize = 256K\ndirect = true\n"),
    ("small read", "io/small-files",
     "files = 8\nmode = read\ndirect = true\n"),
]


def test_odirect_served_by_the_page_cache_is_flagged_on_fscrypt():
    """On an encrypted ext4 directory (fscrypt without inline encryption)
    the kernel takes O_DIRECT and serves it through the page cache: every
    direct figure there says so; the same cases on the plain directory of
    the same filesystem do not."""
    reason = fscrypt_skip_reason()
    if reason:
        raise hbtest.Skip(reason)
    top = fresh_dir()
    image, mnt = os.path.join(top, "ext4.img"), os.path.join(top, "mnt")
    os.mkdir(mnt)
    with open(image, "wb") as f:
        f.truncate(128 << 20)
    sh("mkfs.ext4", "-q", "-F", "-O", "encrypt", image)
    loop = sh("losetup", "--find", "--show", image)
    mounted = False
    try:
        # direct I/O to the image where its file system allows it: a loop
        # device without it serves O_DIRECT from the image's page cache
        subprocess.run(["losetup", "--direct-io=on", loop],
                       capture_output=True, timeout=120)
        dio_file = "/sys/block/%s/loop/dio" % os.path.basename(loop)
        loop_dio = open(dio_file).read().strip() == "1"
        sh("mount", "-t", "ext4", loop, mnt)
        mounted = True
        plain, secret = os.path.join(mnt, "plain"), os.path.join(mnt, "enc")
        os.mkdir(plain)
        sh(FSCRYPT_DIR, mnt, secret)
        suite = suite_of([plain, secret], DIRECT_JOBS)
        try:
            p = run([suite])
        finally:
            os.unlink(suite)
        check(p.returncode == 0, "exit %d" % p.returncode)
        res = results(p)
        check(len(res) == 2 * len(DIRECT_JOBS), "%d results" % len(res))
        flag = "O_DIRECT not honoured: page-cache figures"
        for r in res:
            check(r["status"] == "ok", "%s: %s %s" % (r["job"], r["status"],
                                                     r["reason"]))
            where = r["params"]["dir"]
            flagged = [w for w in r["warnings"] if w.startswith(flag)]
            if where == secret:
                check(flagged and r["info"].get("direct", "").startswith(
                    "not honoured"), "%s in %s: %s %s" % (
                        r["job"], where, r["warnings"], r["info"]))
                check("O_DIRECT" not in r["info"].get("text", ""),
                      r["info"])
            elif loop_dio:
                check(not flagged and r["info"].get("direct") == "honoured",
                      "%s in %s: %s %s" % (r["job"], where, r["warnings"],
                                           r["info"]))
            else:
                check(any("a loop device without direct I/O" in w
                          for w in flagged), "%s in %s, loop without "
                      "dio: %s" % (r["job"], where, r["warnings"]))
        # the flag is beside the figure in the text report too, and the
        # A/B table gives no % where a side is the page cache's
        suite = suite_of([plain, secret], DIRECT_JOBS[1:2])
        try:
            text = unwrapped(run([suite], fmt="text").stdout)
        finally:
            os.unlink(suite)
        check(flag in text, text)
        check("not comparable: O_DIRECT not honoured on" in text, text)
        check(not re.search(r"[-+]\d+\.\d\d%", text), text)
    finally:
        if mounted:
            subprocess.run(["umount", mnt], timeout=120)
        subprocess.run(["losetup", "-d", loop], timeout=120)


def test_presets_run_on_two_dirs():
    dirs = [seeded_dir(), seeded_dir()]
    before = [listing(d) for d in dirs]
    for preset in ("cte-large.ini", "cte-small.ini"):
        p = run([os.path.join(CONF, "presets", preset),
                 "--set", "dir=%s,%s" % tuple(dirs),
                 "--set", "file_size=" +
                 ("4M" if "large" in preset else "64K"),
                 "--set", "duration=50ms", "--set", "repetitions=1",
                 "--set", "warmup=0"])
        check(p.returncode == 0, "%s: exit status %d" %
              (preset, p.returncode))
        res = results(p)
        check(len(res) == 4, "%s: %d results" % (preset, len(res)))
        for r in res:
            check(r["status"] == "ok", "%s: %s %s %s" % (
                preset, r["job"], r["status"], r["reason"]))
            check(r["params"]["direct"] in ("true", True, 1, "1"),
                  "%s: direct %r" % (preset, r["params"]["direct"]))
            check(r["params"]["parallel"] in (4, "4") or
                  r.get("parallel") == 4, "%s: parallel" % preset)
        check(sorted(r["params"]["dir"] for r in res) ==
              sorted(dirs * 2), "%s: dirs" % preset)
    for d, b in zip(dirs, before):
        check(listing(d) == b, "%s changed" % d)
    for d in dirs:
        remove_seeded(d)


if __name__ == "__main__":
    hbtest.main()
