# SPDX-License-Identifier: Apache-2.0
"""Every run verifies itself: after each kept sample a few of each
worker's messages, drawn then, are read from the core's buffers and
compared with openssl's transform; a mismatch fails the case.

Usage: test_verify.py NAME HOSTBENCH FIXTURE_DIR
openssl-every-third gets every third timed message wrong,
openssl-decrypt-timed every timed plaintext, openssl-abi12 is built for
ABI 1.2, before the core's buffers.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB, FIXTURES = hbtest.args("HOSTBENCH", "FIXTURE_DIR")

# 30 samples of 2 workers: 60 units drawn, each wrong one time in 3 or
# more with openssl-every-third (1 or 2 of the last 4 of a sample)
GLOBAL = "[global]\nduration = 20ms\nrepetitions = 30\nwarmup = 0\n\n"


def run(job, plugin_dir=None):
    """Run one job; the exit status and the results of its JSON report."""
    d = hbtest.scratch("verify")
    suite = os.path.join(d, "s.ini")
    with open(suite, "w") as f:
        f.write(GLOBAL + job)
    cmd = [HB, "run", suite, "--format", "json", "--no-store"]
    if plugin_dir:
        cmd += ["-P", os.path.join(FIXTURES, plugin_dir)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, HOSTBENCH_NO_CACHE="1"))
    return p.returncode, json.loads(p.stdout)["results"], p.stderr


def test_run_whose_sampled_message_is_wrong_fails_the_case():
    rc, results, err = run("[gcm]\ntarget = crypto/aes-256-gcm\n"
                           "backend = openssl-every-third\nsize = 4K\n"
                           "parallel = 2\n", "openssl-every-third")
    expect(rc == 1, f"exit {rc}: {err}")
    r = results[0]
    expect(r["status"] == "failed" and
           re.search(r"worker \d: message \d+, verified after the sample: "
                     r"its output differs from the reference's at byte 0 "
                     r"of 4096 \(0x[0-9a-f]{2}, the reference's "
                     r"0x[0-9a-f]{2}\)", r["reason"]), r["reason"])


def test_run_whose_timed_decrypt_is_wrong_fails_the_case():
    rc, results, err = run("[gcm]\ntarget = crypto/aes-256-gcm\n"
                           "backend = openssl-decrypt-timed\nsize = 4K\n"
                           "direction = decrypt\nqueue_depth = 1, 16\n",
                           "openssl-decrypt-timed")
    expect(rc == 1, f"exit {rc}: {err}")
    for r in results:
        expect(r["status"] == "failed" and
               "its plaintext differs from the worker's data as filled, "
               "at byte 0 of 4096" in r["reason"], r["reason"])


def test_run_of_a_builtin_says_what_it_verified():
    rc, results, err = run("".join(
        f"[{t}]\ntarget = {t}\nbackend = openssl, gcrypt\nsize = 4K\n\n"
        for t in ("crypto/aes-256-gcm", "mac/hmac-sha256", "hash/sha256")))
    expect(rc == 0, f"exit {rc}: {err}")
    for r in results:
        verified = r["info"].get("verified", "")
        m = re.match(r"(\d+) messages against openssl after the samples",
                     verified)
        expect(r["status"] == "ok" and m and int(m.group(1)) == 30,
               f"{r['target']} {r['backend']}: {verified!r}")


def test_plugin_before_the_core_buffers_runs_unverified_and_flagged():
    rc, results, err = run("[gcm]\ntarget = crypto/aes-256-gcm\n"
                           "backend = openssl-abi12\nsize = 4K\n",
                           "openssl-abi12")
    expect(rc == 0, f"exit {rc}: {err}")
    r = results[0]
    expect(r["status"] == "ok" and "verified" not in r["info"] and
           any(w.startswith("not verified: openssl-abi12 is built for "
                            "ABI 1.2") for w in r["warnings"]),
           r["warnings"])


if __name__ == "__main__":
    hbtest.main()
