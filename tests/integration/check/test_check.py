# SPDX-License-Identifier: Apache-2.0
"""hostbench check: conformance of a crypto backend against a reference.

Usage: test_check.py NAME HOSTBENCH FIXTURE_DIR
The fixtures openssl-ctr32, openssl-no-tag-check and openssl-async-iv
are the openssl backend with one deliberate bug each, which no
known-answer vector shows; openssl-no-work, -other-key, -other-data and
-wrong-tag cheat on the timed path only (their transform slot is right);
gcrypt-no-work does no work on its update calls, gcrypt-output-slot
does its work in the output slot instead; openssl-decrypt-timed decrypts
wrongly and openssl-stream-timed streams wrongly on the timed path only;
openssl-abi12 is built for ABI 1.2, before the core's buffers.
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


def check(*args, plugin_dir=None):
    """Exit status, the table's rows (without its last line), stderr."""
    rc, out, err = run_check(*args, plugin_dir=plugin_dir)
    rows = [line.split(None, 3) for line in out.splitlines()[2:]
            if not SUMMARY.match(line)]
    return rc, rows, err


SUMMARY = re.compile(r"^(\d+) ok, (\d+) failed, (\d+) skipped"
                     r"(?:, (\d+) not verifiable)?$")


def run_check(*args, plugin_dir=None):
    """The whole process: exit status, stdout lines, stderr."""
    cmd = [HB, "check", *args]
    if plugin_dir:
        cmd += ["-P", os.path.join(FIXTURES, plugin_dir)]
    env = dict(os.environ, HOSTBENCH_NO_CACHE="1")
    p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


def timed_rows(rows, check_name):
    return {r[0]: r for r in rows if len(r) > 2 and r[1] == check_name}


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


def test_failing_row_says_which_bytes_differed_and_where_to_look():
    rc, rows, err = check("openssl-ctr32", plugin_dir="openssl-ctr32")
    expect(rc == 1, f"exit {rc}: {err}")
    row = [r for r in rows if r[:2] == ["crypto/aes-256-ctr", "counter"]][0]
    expect(re.search(r"differs from the reference's at byte 32 of 64 "
                     r"\(0x[0-9a-f]{2}, the reference's 0x[0-9a-f]{2}\)",
                     row[3]) and "upper 96 bits" in row[3], row[3])
    rc, rows, err = check("openssl-no-tag-check",
                          plugin_dir="openssl-no-tag-check")
    row = [r for r in rows if r[:2] == ["crypto/aes-256-gcm", "tag"]][0]
    expect("byte 0 flipped" in row[3] and "HB_EVERIFY" in row[3], row[3])


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
    expect(all(c in ("async", "submit") for _, c in bad),
           f"only the rows in flight: {bad}")
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


def ipsec_mb_built():
    listing = subprocess.run([HB, "list"], capture_output=True, text=True,
                             env=dict(os.environ, HOSTBENCH_NO_CACHE="1"))
    return "ipsec-mb" in listing.stdout


def expect_timed_paths_verified(backend, *args, asynchronous=True):
    rc, rows, err = check(backend, *args)
    expect(rc == 0, f"{backend}: exit {rc}: {failures(rows)} {err}")
    targets = {r[0] for r in rows if len(r) > 2 and r[1] == "options"}
    runs, submits = timed_rows(rows, "run"), timed_rows(rows, "submit")
    expect(len(targets) >= 18, f"{backend}: {len(targets)} targets")
    for t in targets:
        expect(t in runs and runs[t][2] == "ok" and
               "equal the reference's" in runs[t][3],
               f"{backend} {t} run: {runs.get(t)}")
        want = "ok" if asynchronous else "skip"
        expect(t in submits and submits[t][2] == want,
               f"{backend} {t} submit: {submits.get(t)}")
        if asynchronous:
            expect("depth 1 and 16" in submits[t][3], submits[t])


def test_gcrypt_timed_path_is_verified():
    expect_timed_paths_verified("gcrypt", asynchronous=False)


def test_openssl_timed_paths_are_verified():
    expect_timed_paths_verified("openssl", "--reference", "gcrypt")


def test_ipsec_mb_timed_paths_are_verified():
    if not ipsec_mb_built():
        raise hbtest.Skip("the ipsec-mb backend is not built")
    expect_timed_paths_verified("ipsec-mb")


def expect_timed_cheat_fails(fixture, detail, spared=()):
    """Every target but spared (names, or groups "hash/") fails run and
    submit, and nothing else but its stream."""
    rc, rows, err = check(fixture, plugin_dir=fixture)
    expect(rc == 1, f"exit {rc}: {err}")
    bad = failures(rows)
    expect(bad and all(c in ("run", "submit", "stream") for _, c in bad),
           f"only the timed rows fail: {bad}")
    targets = {r[0] for r in rows if len(r) > 2 and r[1] == "options"}
    for t in targets:
        for path, name in (("run", "run()"),
                           ("submit", "submit/poll at depth 1")):
            row = timed_rows(rows, path)[t]
            if any(t == s or (s.endswith("/") and t.startswith(s))
                   for s in spared):
                expect(row[2] == "ok", f"{t} {path}: {row}")
                continue
            expect(row[2] == "FAIL" and row[3].startswith(name) and
                   "worker 0, message 0" in row[3] and
                   re.search(detail, row[3]), f"{t} {path}: {row}")


def test_timed_path_doing_no_work_fails_naming_path_and_target():
    expect_timed_cheat_fails("openssl-no-work",
                             r"wrote nothing into the core's buffer|"
                             r"(MAC|digest) differs")


def test_update_calls_doing_no_work_fail_the_run_row():
    rc, rows, err = check("gcrypt-no-work", plugin_dir="gcrypt-no-work")
    expect(rc == 1, f"exit {rc}: {err}")
    bad = failures(rows)
    expect(bad and all(c == "run" for _, c in bad), f"only run: {bad}")
    row = timed_rows(rows, "run")["crypto/aes-256-cbc"]
    expect(row[2] == "FAIL" and row[3].startswith(
        "run(), worker 0, message 0: the timed path wrote nothing into "
        "the core's buffer"), row)


def test_timed_path_with_another_key_fails_naming_path_and_target():
    expect_timed_cheat_fails(
        "openssl-other-key",
        r"output differs from the reference's at byte \d+|MAC differs",
        spared=("hash/",))


def test_timed_path_on_other_data_fails_naming_path_and_target():
    expect_timed_cheat_fails(
        "openssl-other-data",
        r"output differs from the reference's at byte 0 of 4096|"
        r"(MAC|digest) differs")


def test_timed_path_with_wrong_tags_fails_naming_path_and_target():
    expect_timed_cheat_fails(
        "openssl-wrong-tag",
        r"(tag|MAC|MAC \(over the ciphertext\)|digest) differs from "
        r"byte 0",
        spared=("crypto/aes-256-ctr", "crypto/aes-192-ctr",
                "crypto/aes-128-ctr", "crypto/aes-256-cbc",
                "crypto/blowfish-cbc"))


def test_plugin_before_core_buffers_is_not_verifiable_saying_what_to_add():
    rc, out, err = run_check("openssl-abi12", plugin_dir="openssl-abi12")
    expect(rc == 2, f"exit {rc}: {err}")
    rows = [line.split(None, 3) for line in out.splitlines()[2:-1]]
    timed = [r for r in rows
             if r[1] in ("run", "submit", "stream") and r[2] != "skip"]
    expect(timed and all(r[2] == "n/v" and
                         r[3].startswith("not verifiable") and
                         "HB_TARGET_VERIFIED" in r[3] and
                         "hb_case.buffers" in r[3] for r in timed),
           timed[:2])
    expect(not failures(rows), failures(rows))
    last = SUMMARY.match(out.splitlines()[-1])
    expect(last and int(last.group(4) or 0) == len(timed),
           out.splitlines()[-1])


def test_summary_line_counts_the_rows():
    rc, out, err = run_check("gcrypt")
    expect(rc == 0, f"exit {rc}: {err}")
    lines = out.splitlines()
    last = SUMMARY.match(lines[-1])
    expect(last, f"last line: {lines[-1]!r}")
    cells = [line.split(None, 3)[2] for line in lines[2:-1]]
    expect((int(last.group(1)), int(last.group(2)), int(last.group(3))) ==
           (cells.count("ok"), cells.count("FAIL"), cells.count("skip")),
           f"{lines[-1]} for {len(cells)} rows")


def test_check_help_is_its_own():
    p = subprocess.run([HB, "check", "--help"], capture_output=True,
                       text=True, timeout=60)
    expect(p.returncode == 0, p.stderr)
    expect(p.stdout.startswith("Usage: hostbench check BACKEND"),
           p.stdout[:80])
    for row in ("options", "sizes", "run", "submit", "async", "n/v"):
        expect(re.search(rf"\b{re.escape(row)}\b", p.stdout), row)
    expect("Commands:" not in p.stdout, "not the global help")


def test_json_format_is_one_document_for_ci():
    rc, out, err = run_check("openssl-other-key",
                             "--format", "json",
                             plugin_dir="openssl-other-key")
    expect(rc == 1, f"exit {rc}: {err}")
    doc = json.loads(out)
    expect(doc["check_version"] == 1 and doc["exit"] == 1 and
           doc["verdict"] == "failed", {k: doc[k] for k in doc
                                        if k != "rows"})
    expect(doc["subject"]["backend"] == "openssl-other-key" and
           doc["subject"]["abi"] == "1.4" and
           doc["reference"]["backend"] == "openssl", doc["subject"])
    statuses = [r["status"] for r in doc["rows"]]
    expect(doc["summary"] == {"ok": statuses.count("ok"),
                              "failed": statuses.count("failed"),
                              "skipped": statuses.count("skipped"),
                              "not_verifiable":
                              statuses.count("not verifiable")},
           doc["summary"])
    row = [r for r in doc["rows"] if r["target"] == "crypto/aes-256-gcm"
           and r["check"] == "run"][0]
    expect(row["status"] == "failed" and
           row["detail"].startswith("run(), worker 0"), row)


def fixture_failing_only(fixture, checks):
    """The rows of fixture, which must fail and only on checks."""
    rc, rows, err = check(fixture, plugin_dir=fixture)
    expect(rc == 1, f"exit {rc}: {err}")
    bad = failures(rows)
    expect(bad and all(c in checks for _, c in bad), f"only {checks}: {bad}")
    return rows


def test_output_slot_doing_the_timed_paths_work_fails_check():
    rows = fixture_failing_only("gcrypt-output-slot", ("run",))
    row = timed_rows(rows, "run")["crypto/aes-256-gcm"]
    expect(row[2] == "FAIL" and
           "its output did not come from the timed path" in row[3], row)


def test_decrypt_wrong_only_when_timed_fails_run_and_submit():
    rows = fixture_failing_only("openssl-decrypt-timed", ("run", "submit"))
    for path, name in (("run", "run() decrypting"),
                       ("submit", "submit/poll at depth 1 decrypting")):
        for target in ("crypto/aes-256-gcm", "crypto/aes-256-cbc",
                       "crypto/aes-256-cbc-hmac-sha256",
                       "crypto/chacha20-poly1305"):
            row = timed_rows(rows, path)[target]
            expect(row[2] == "FAIL" and row[3].startswith(name) and
                   "its plaintext differs from the worker's data as "
                   "filled, at byte 0 of 4096" in row[3],
                   f"{target} {path}: {row}")


def test_stream_wrong_only_when_timed_fails_the_stream_row():
    rows = fixture_failing_only("openssl-stream-timed", ("stream",))
    row = timed_rows(rows, "stream")["crypto/aes-256-ctr"]
    expect(row[2] == "FAIL" and
           row[3].startswith("run() in stream mode, worker 0, buffer 0") and
           "at byte 4095 of 4096" in row[3], row)


def test_unit_written_after_poll_handed_it_back_fails_naming_the_rule():
    rows = fixture_failing_only("openssl-scribble", ("run", "submit"))
    row = timed_rows(rows, "submit")["crypto/aes-256-ctr"]
    expect(row[2] == "FAIL" and row[3].startswith(
        "submit/poll at depth 16, worker 0") and
        "changed after poll handed it back: a plugin holds each unit's "
        "buffers until poll hands it back" in row[3], row)


def test_completion_under_a_wrong_tag_names_the_tag_and_those_expected():
    rows = fixture_failing_only("openssl-wrong-completion",
                                ("submit", "async"))
    row = timed_rows(rows, "submit")["crypto/aes-256-gcm"]
    expect(row[2] == "FAIL" and row[3].startswith(
        "submit/poll at depth 1, worker 0: depth 1: poll handed back tag "
        "16, which is not in flight (the tags in flight: 0)"), row)
    row = timed_rows(rows, "async")["crypto/aes-256-gcm"]
    expect("poll handed back tag 16, which is not in flight" in row[3], row)


def check_into_file(name, *args):
    """check gcrypt with -o into a scratch directory: the directory, the
    file's text; nothing on stdout."""
    d = hbtest.scratch("check-output")
    path = os.path.join(d, name)
    rc, out, err = run_check("gcrypt", *args, "-o", path)
    expect(rc == 0 and out == "", f"exit {rc}: stdout {out[:80]!r} {err}")
    with open(path) as f:
        return d, f.read()


def test_json_check_goes_to_the_output_file_whole():
    d, text = check_into_file("check.json", "--format", "json")
    doc = json.loads(text)
    expect(doc["verdict"] == "conformant" and doc["exit"] == 0,
           doc["verdict"])
    expect(os.listdir(d) == ["check.json"], os.listdir(d))


def test_text_check_goes_to_the_output_file():
    _, text = check_into_file("check.txt")
    lines = text.splitlines()
    expect(lines[0] == "gcrypt against openssl" and
           SUMMARY.match(lines[-1]), lines[:1] + lines[-1:])


def test_sizes_row_that_left_sizes_out_says_so_in_its_verdict():
    if not ipsec_mb_built():
        raise hbtest.Skip("the ipsec-mb backend is not built")
    rc, out, err = run_check("ipsec-mb")
    expect(rc == 0, f"exit {rc}: {err}")
    line = [x for x in out.splitlines()
            if x.startswith("hash/sha256 ") and " sizes " in x][0]
    expect(re.search(r" sizes +ok \(sizes >= 65537 B not offered\) ",
                     line), line)
    line = [x for x in out.splitlines()
            if x.startswith("crypto/aes-256-gcm ") and " sizes " in x][0]
    expect(re.search(r" sizes +ok +10 sizes", line), line)


def test_list_shows_each_plugins_abi_and_what_check_can_do():
    rc, out, err = run_list("-P", os.path.join(FIXTURES, "openssl-abi12"))
    expect(rc == 0, f"exit {rc}: {err}")
    lines = out.splitlines()
    expect(any(re.match(r"^ +ABI 1\.4; check: verifiable ", x)
               for x in lines), "a 1.4 backend")
    old = [x for x in lines if "ABI 1.2; check: not verifiable" in x]
    expect(old and "rebuild it for ABI 1.4" in old[0], old)


def run_list(*args):
    p = subprocess.run([HB, "list", *args], capture_output=True, text=True,
                       timeout=120,
                       env=dict(os.environ, HOSTBENCH_NO_CACHE="1"))
    return p.returncode, p.stdout, p.stderr


def test_check_refuses_a_format_it_has_no_writer_for():
    rc, out, err = run_check("gcrypt", "--format", "csv")
    expect(rc == 2 and not out and "text or json" in err,
           f"exit {rc}: {err}")


if __name__ == "__main__":
    hbtest.main()
