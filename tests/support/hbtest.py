# SPDX-License-Identifier: Apache-2.0
"""The one runner of the python tests, and the checks they share.

A test script (tests/integration/AREA/test_WHAT.py) holds tests and their
helpers only: every `def test_NAME():` is one CTest test PREFIX.NAME,
registered by hb_script_tests (tests/CMakeLists.txt), which runs

    python3 test_WHAT.py NAME ARG...

The script ends with

    if __name__ == "__main__":
        hbtest.main()

and main runs test_NAME and exits with the status CTest reads:

    0   the test passed
    1   it failed: an exception, its traceback on stderr
    2   no such test, or too few arguments: the usage on stderr
    77  skipped (SKIP_STATUS, CTest's SKIP_RETURN_CODE): the test raised
        Skip, its reason on stderr, because this host lacks something the
        test needs (root, two CPUs, a library the build left out)

A check here holds under `python3 -O` too, which drops assert statements:
a test that only asserts would pass there whatever happens.

Scripts import it with tests/support on sys.path:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "../../support"))
    import hbtest  # noqa: E402
    from hbtest import expect  # noqa: E402
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

SKIP_STATUS = 77
FAIL_STATUS = 1
USAGE_STATUS = 2


class Skip(Exception):
    """Raised by a test this host cannot run; the message says what it
    lacks. Not for what CI can install: .ci/run installs that."""


def expect(cond, what):
    """Fail the test, with AssertionError(what), unless cond holds."""
    if not cond:
        raise AssertionError(what)


def unwrapped(text):
    """A text report with each line it wrapped at 80 columns (a fact or a
    footnote goes on 4 blanks in) joined again, as a reader takes it."""
    return re.sub(r"\n    ", " ", text)


def poll(cond, timeout=60.0, interval=0.02):
    """Call cond() until it returns something true, and return that; at the
    deadline return its last, false, value. The one wait of the tests: a
    test waits for a condition, never for a fixed time."""
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if got or time.monotonic() > deadline:
            return got
        time.sleep(interval)


def wait_for(cond, what, timeout=60.0, interval=0.02):
    """poll(cond), failing the test with "WHAT: not within TIMEOUT s" when
    the deadline passes (what may be a function: called then, it can say
    what the wait saw). The deadline is only a bound on a hang: a busy host
    makes the wait longer, never the test wrong."""
    got = poll(cond, timeout, interval)
    if not got:
        raise AssertionError(f"{what() if callable(what) else what}: "
                             f"not within {timeout:g} s")
    return got


def children(pid):
    """PIDs of the live (not zombie) processes whose parent is pid: the
    case processes of a hostbench run, say."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                state, ppid = f.read().rsplit(")", 1)[1].split()[:2]
        except (OSError, ValueError):
            continue  # gone while we looked
        if int(ppid) == pid and state != "Z":
            found.append(int(entry))
    return found


def in_case(pid):
    """Whether hostbench process pid runs a case now (its case helper)."""
    for c in children(pid):
        try:
            with open(f"/proc/{c}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if b"__helper" in argv and b"case" in argv:
            return True
    return False


def setuid_copy(exe, d):
    """A copy of exe in directory d (made readable to all), set-user-ID to
    the test's user: root's rights lent to whoever runs it. Skips where
    d's file system ignores set-ID bits."""
    if os.statvfs(d).f_flag & os.ST_NOSUID:
        raise Skip("%s is mounted nosuid" % d)
    os.chmod(d, 0o755)
    copy = os.path.join(d, os.path.basename(exe))
    shutil.copy(exe, copy)
    os.chmod(copy, 0o4755)
    return copy


# Headless Chromium as the tests load a page: no network worth the name
# (every host name resolves to nothing), no profile left behind.
CHROMIUM = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage",  # containers with a small /dev/shm
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--enable-logging=stderr", "--v=0"]


def chromium(page):
    """Load page (a file) in headless Chromium: (DOM after load, console
    lines). Skips when chromium is not installed."""
    exe = shutil.which("chromium")
    if not exe:
        raise Skip("chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="hb-chromium-") as profile:
        p = subprocess.run([exe, *CHROMIUM, "--user-data-dir=" + profile,
                            "--dump-dom", "file://" + os.path.abspath(page)],
                           capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0, f"chromium: exit {p.returncode}: {p.stderr}")
    console = [line for line in p.stderr.splitlines() if ":CONSOLE" in line]
    return p.stdout, console


def screenshot(page, png, width=1400, height=1000):
    """Load page (a file) in headless Chromium at width x height and save
    a screenshot at png; returns how many distinct colours its pixels
    hold (a blank page has one). Skips when chromium is not installed."""
    import zlib
    exe = shutil.which("chromium")
    if not exe:
        raise Skip("chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="hb-chromium-") as profile:
        p = subprocess.run([exe, *CHROMIUM, "--user-data-dir=" + profile,
                            f"--window-size={width},{height}",
                            "--hide-scrollbars", "--screenshot=" + png,
                            "file://" + os.path.abspath(page)],
                           capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0 and os.path.exists(png),
           f"chromium: exit {p.returncode}: {p.stderr}")
    data = open(png, "rb").read()
    expect(data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG")
    at, idat, w = 8, b"", 0
    while at < len(data):
        n = int.from_bytes(data[at:at + 4], "big")
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + n]
        if kind == b"IHDR":
            w, depth, ctype = (int.from_bytes(body[:4], "big"), body[8],
                               body[9])
            expect(depth == 8 and ctype in (2, 6), f"PNG type {ctype}")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    return len(_png_colours(zlib.decompress(idat), w, bpp))


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def _png_colours(raw, w, bpp):
    """The distinct RGB colours of every 7th pixel of a PNG's filtered
    rows (raw: its IDAT data inflated), each row unfiltered (RFC 2083)."""
    stride, prev, colours = w * bpp, bytearray(w * bpp), set()
    for at in range(0, len(raw), stride + 1):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        for i in range(len(line)):
            a = line[i - bpp] if i >= bpp else 0
            c = prev[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + (0, a, prev[i], (a + prev[i]) // 2,
                                  _paeth(a, prev[i], c))[kind]) & 0xff
        for x in range(0, stride - bpp + 1, bpp * 7):
            colours.add(bytes(line[x:x + 3]))
        prev = line
    return colours


def _usage(names, why):
    script = sys.argv[0]
    listed = "\n  ".join(names) if names else "(none)"
    sys.stderr.write(f"{script}: {why}\nusage: {script} TEST [ARG...]\n"
                     f"tests:\n  {listed}\n")
    sys.exit(USAGE_STATUS)


def args(*names):
    """The script's arguments after the test name, one per name in names
    (their meaning, for the usage line); exits 2 when there are fewer."""
    got = sys.argv[2:2 + len(names)]
    if len(got) < len(names):
        sys.stderr.write(f"usage: {sys.argv[0]} TEST {' '.join(names)}\n")
        sys.exit(USAGE_STATUS)
    return got[0] if len(names) == 1 else tuple(got)


# What main() removes when the test has ended, however it ended.
_scratch = []


def scratch(prefix):
    """A new temporary directory named prefix..., for the script's tests;
    main() removes it, and all in it, when the test has ended."""
    d = tempfile.mkdtemp(prefix=prefix)
    _scratch.append(d)
    return d


def _run(test, name):
    """Run test (named name): its exit status (0, 1 or 77, see above)."""
    try:
        test()
    except Skip as e:
        sys.stderr.write(f"SKIP {name}: {e}\n")
        return SKIP_STATUS
    except Exception:  # every failure is the test's: report it, exit 1
        traceback.print_exc()
        sys.stderr.write(f"FAIL {name}\n")
        return FAIL_STATUS
    return 0


def main():
    """Run the test named by the first argument in the __main__ script,
    remove its scratch directories and exit with its status (0, 1, 2 or
    77, see above)."""
    script = sys.modules["__main__"]
    names = sorted(n[5:] for n in vars(script) if n.startswith("test_"))
    try:
        if len(sys.argv) < 2:
            _usage(names, "which test?")
        name = sys.argv[1]
        test = getattr(script, "test_" + name, None)
        if not callable(test):
            _usage(names, f"no test {name}")
        status = _run(test, name)
    finally:
        for d in _scratch:
            shutil.rmtree(d, ignore_errors=True)
    sys.exit(status)
