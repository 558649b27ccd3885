# SPDX-License-Identifier: Apache-2.0
"""hostbench check: conformance of a crypto backend against a reference.

Usage: test_check.py NAME HOSTBENCH FIXTURE_DIR
The fixtures openssl-ctr32, openssl-no-tag-check and openssl-async-iv
are the openssl backend with one deliberate bug each, which no
known-answer vector shows.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB, FIXTURES = hbtest.args("HOSTBENCH", "FIXTURE_DIR")


def check(*args, plugin_dir=None):
    cmd = [HB, "check", *args]
    if plugin_dir:
        cmd += ["-P", os.path.join(FIXTURES, plugin_dir)]
    env = dict(os.environ, HOSTBENCH_NO_CACHE="1")
    p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                       timeout=300)
    rows = [line.split(None, 3) for line in p.stdout.splitlines()[2:]]
    return p.returncode, rows, p.stderr


def failures(rows):
    return [(r[0], r[1]) for r in rows if len(r) > 2 and r[2] == "FAIL"]


def test_gcrypt_agrees_with_openssl():
    rc, rows, err = check("gcrypt")
    expect(rc == 0, f"exit {rc}: {failures(rows)} {err}")
    checks = {(r[0], r[1]) for r in rows}
    for want in [("crypto/aes-256-gcm", "sizes"),
                 ("crypto/aes-256-gcm", "decrypt"),
                 ("crypto/aes-256-gcm", "tag"),
                 ("crypto/aes-256-ctr", "counter"),
                 ("mac/hmac-sha256", "tag"),
                 ("hash/sha256", "sizes"),
                 ("crypto/aes-256-cbc", "options")]:
        expect(want in checks, f"{want} checked: {sorted(checks)[:5]}...")


def test_ipsec_mb_agrees_with_openssl():
    listing = subprocess.run([HB, "list"], capture_output=True, text=True,
                             env=dict(os.environ, HOSTBENCH_NO_CACHE="1"))
    if "ipsec-mb" not in listing.stdout:
        # the backend is built only where the library is
        raise hbtest.Skip("the ipsec-mb backend is not built")
    rc, rows, err = check("ipsec-mb")
    expect(rc == 0, f"exit {rc}: {failures(rows)} {err}")
    checks = {(r[0], r[1]) for r in rows}
    for want in [("crypto/aes-256-ctr", "counter"),
                 ("crypto/aes-256-gcm", "tag"),
                 ("crypto/aes-256-cbc", "decrypt"),
                 ("hash/sha256", "sizes")]:
        expect(want in checks, f"{want} checked")


def test_reference_may_be_another_backend():
    rc, rows, err = check("openssl", "--reference", "gcrypt")
    expect(rc == 0 and rows, f"exit {rc}: {failures(rows)} {err}")


def test_counter_carrying_32_bits_fails_naming_target_and_check():
    rc, rows, err = check("openssl-ctr32", plugin_dir="openssl-ctr32")
    expect(rc == 1, f"exit {rc}: {err}")
    bad = failures(rows)
    expect(("crypto/aes-256-ctr", "counter") in bad, bad)
    expect(all(c == "counter" for _, c in bad), f"only the counter: {bad}")


def test_decrypt_without_tag_check_fails_naming_target_and_check():
    rc, rows, err = check("openssl-no-tag-check",
                          plugin_dir="openssl-no-tag-check")
    expect(rc == 1, f"exit {rc}: {err}")
    bad = failures(rows)
    expect(("crypto/aes-256-gcm", "tag") in bad, bad)
    expect(("crypto/aes-256-cbc-hmac-sha256", "tag") in bad, bad)
    expect(all(c == "tag" for _, c in bad), f"only the tag: {bad}")


def test_openssl_messages_in_flight_pass_at_depth_1_and_16():
    rc, rows, err = check("openssl", "--reference", "gcrypt")
    expect(rc == 0, f"exit {rc}: {failures(rows)} {err}")
    rows = {(r[0], r[1]): r for r in rows if len(r) > 3}
    for target in ["crypto/aes-256-gcm", "crypto/aes-256-cbc-hmac-sha256",
                   "mac/poly1305", "hash/sha256"]:
        row = rows.get((target, "async"))
        expect(row and row[2] == "ok" and "depth 1 and 16" in row[3],
               f"{target} async: {row}")
    gcm = rows[("crypto/aes-256-gcm", "async")][3]
    expect("4 and 49 messages" in gcm and "decrypted and verified" in gcm,
           gcm)


def test_backend_without_async_path_skips_the_async_row():
    rc, rows, err = check("gcrypt")
    expect(rc == 0, f"exit {rc}: {failures(rows)} {err}")
    asyncs = [r for r in rows if len(r) > 3 and r[1] == "async"]
    expect(asyncs, "an async row per target")
    for r in asyncs:
        expect(r[2] == "skip" and
               "gcrypt has no asynchronous submit and poll" in r[3],
               f"{r[0]}: {r[2]} {r[3]}")


def test_async_path_wrong_above_depth_1_fails_naming_target_and_check():
    rc, rows, err = check("openssl-async-iv", plugin_dir="openssl-async-iv")
    expect(rc == 1, f"exit {rc}: {err}")
    bad = failures(rows)
    expect(("crypto/aes-256-gcm", "async") in bad, bad)
    expect(("crypto/aes-256-cbc-hmac-sha256", "async") not in bad,
           "a CBC decrypt has no tag to catch it")
    expect(all(c == "async" for _, c in bad), f"only the async row: {bad}")
    gcm = [r for r in rows if r[:2] == ["crypto/aes-256-gcm", "async"]][0]
    expect("depth 16" in gcm[3] and "tag mismatch" in gcm[3], gcm[3])


def test_backend_without_transform_is_not_checkable():
    rc, rows, err = check("xxhash")
    expect(rc == 2 and "not checkable" in err and not rows,
           f"exit {rc}: {err}")


def test_unknown_backend_is_bad_use():
    rc, _, err = check("nosuch")
    expect(rc == 2 and 'no backend "nosuch"' in err, f"exit {rc}: {err}")


def test_check_needs_one_backend():
    p = subprocess.run([HB, "check"], capture_output=True, text=True,
                       timeout=60)
    expect(p.returncode == 2 and "check needs one BACKEND" in p.stderr,
           p.stderr)


if __name__ == "__main__":
    hbtest.main()
