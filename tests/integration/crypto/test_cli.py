#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The crypto plugins through the hostbench command line: every target on
every backend listed and run by a tiny suite (JSON checked), the decrypt
direction, a provider that does not exist, and a size CBC cannot take;
the openssl and ipsec-mb backends' queue depths, and what ipsec-mb skips.

Usage: test_cli.py TEST HOSTBENCH
HB_IPSECMB=1 in the environment says the ipsec-mb plugin was built (the
build sets it); without it the ipsec-mb tests skip.
"""
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect as check  # noqa: E402

SHARED = [
    "crypto/aes-256-gcm", "crypto/aes-128-gcm", "crypto/aes-256-ctr",
    "crypto/aes-192-ctr", "crypto/aes-128-ctr", "crypto/aes-256-cbc",
    "crypto/chacha20-poly1305", "crypto/blowfish-cbc",
    "crypto/aes-256-cbc-hmac-md5", "crypto/aes-256-cbc-hmac-sha1",
    "crypto/aes-256-cbc-hmac-sha256", "crypto/aes-256-ctr-poly1305",
    "mac/hmac-md5", "mac/hmac-sha1", "mac/hmac-sha256", "mac/poly1305",
    "hash/md5", "hash/sha1", "hash/sha256", "hash/sha512", "hash/sha3-256",
    "hash/blake2b-512",
]
XXHASH = ["hash/xxh3-64", "hash/xxh3-128", "hash/xxh64", "hash/xxh32"]
DIRECTED = [t for t in SHARED if not t.startswith("hash/")]
# What intel-ipsec-mb offers of the shared targets.
IPSECMB = [t for t in SHARED if t not in (
    "crypto/blowfish-cbc", "hash/md5", "hash/sha3-256", "hash/blake2b-512")]
IPSECMB_BUILT = os.environ.get("HB_IPSECMB") == "1"
HB = hbtest.args("HOSTBENCH")


def need_ipsecmb():
    if not IPSECMB_BUILT:
        raise hbtest.Skip("the ipsec-mb plugin is not built (no libipsec-mb)")


def backends_of(target):
    """Every built backend that offers target."""
    return ("openssl", "gcrypt") + (
        ("ipsec-mb",) if IPSECMB_BUILT and target in IPSECMB else ())

GLOBAL = "[global]\nduration = 20ms\nrepetitions = 2\nwarmup = 0\n\n"


def run(suite_text, *args):
    """Run a suite; return (exit status, parsed JSON or None, stderr)."""
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
        f.write(suite_text)
        path = f.name
    try:
        p = subprocess.run([HB, "run", path, "--format", "json",
                            *args], capture_output=True, text=True,
                           timeout=600)
    finally:
        os.unlink(path)
    doc = json.loads(p.stdout) if p.stdout.strip() else None
    return p.returncode, doc, p.stderr


def jobs(targets, backends, extra=""):
    """One job per target and backend (None: every backend of it)."""
    text = GLOBAL
    for t in targets:
        for b in backends or backends_of(t):
            text += f"[{t} {b}]\ntarget = {t}\nbackend = {b}\n{extra}\n"
    return text


def cases(targets):
    """How many cases jobs(targets, None) makes."""
    return sum(len(backends_of(t)) for t in targets)


def check_ok(doc, n, size):
    check(doc is not None, "no JSON on stdout")
    results = doc["results"]
    check(len(results) == n, f"{len(results)} results, want {n}")
    for r in results:
        name = f'{r["target"]} ({r["backend"]})'
        check(r["status"] == "ok", f'{name}: {r["status"]}: {r["reason"]}')
        check(r["params"]["size"] == size, f"{name}: size {r['params']}")
        check(r["stats"]["median"] > 0, f"{name}: median 0")
        check(all(s["bytes"] > 0 for s in r["sample_details"]),
              f"{name}: a sample without bytes")
        check("library" in r["info"], f"{name}: no library noted")
        if r["backend"] == "openssl":
            check(r["info"].get("provider") in ("default", "legacy"),
                  f"{name}: provider {r['info']}")
        for part in r.get("parts", []):
            check(part["status"] == "ok", f"{name}: part {part}")


def test_list_shows_every_target_per_backend():
    p = subprocess.run([HB, "list"], capture_output=True, text=True)
    check(p.returncode == 0, f"list exited {p.returncode}")
    lines = p.stdout.splitlines()
    header = next(line.split() for line in lines if line.startswith("target "))
    rows = {}
    for line in lines:
        words = line.split()
        if words and "/" in words[0] and len(words) == len(header):
            rows[words[0]] = dict(zip(header[1:], words[1:]))
    for t in SHARED:
        check(rows[t]["openssl"] == "yes*", f"{t}: openssl is the default")
        for b in backends_of(t):
            check(rows[t][b].startswith("yes"), f"{t}: {b} usable")
    for t in XXHASH:
        check(rows[t]["xxhash"].startswith("yes"), f"{t}: xxhash usable")


def test_every_target_encrypts_on_every_backend():
    text = jobs(SHARED, None, "size = 4K\n")
    text += jobs(XXHASH, ("xxhash",), "size = 4K\n")
    rc, doc, err = run(text)
    check(rc == 0, f"exit {rc}: {err}")
    check_ok(doc, cases(SHARED) + len(XXHASH), 4096)


def test_every_target_decrypts_on_every_backend():
    text = jobs(DIRECTED, None, "size = 4K\ndirection = decrypt\n")
    rc, doc, err = run(text)
    check(rc == 0, f"exit {rc}: {err}")
    check_ok(doc, cases(DIRECTED), 4096)
    check(all(r["params"]["direction"] == "decrypt" for r in doc["results"]),
          "direction not recorded")


def test_stream_mode_runs_on_every_backend():
    text = jobs(SHARED, ("openssl", "gcrypt"), "size = 1K\nmode = stream\n")
    rc, doc, err = run(text)
    check(rc == 0, f"exit {rc}: {err}")
    check_ok(doc, 2 * len(SHARED), 1024)
    check(all(r["params"]["mode"] == "stream" for r in doc["results"]),
          "mode not recorded")


def test_unknown_provider_fails_that_case_only():
    text = GLOBAL + (
        "[before]\ntarget = crypto/aes-256-gcm\nbackend = openssl\n"
        "size = 4K\n\n"
        "[vendor]\ntarget = crypto/aes-256-gcm\nbackend = openssl\n"
        "size = 4K\nprovider = nosuchprov+default\n\n"
        "[after]\ntarget = crypto/aes-256-gcm\nbackend = gcrypt\n"
        "size = 4K\n")
    rc, doc, err = run(text)
    check(rc == 1, f"exit {rc}, want 1: {err}")
    status = [r["status"] for r in doc["results"]]
    check(status == ["ok", "failed", "ok"], f"statuses {status}")
    reason = doc["results"][1]["reason"]
    check('loading OpenSSL provider "nosuchprov"' in reason, reason)
    check("could not load the shared library" in reason, reason)


def test_composite_parts_sample_for_half_its_max_time():
    # a precision no line reaches: each samples until its max_time
    rc, doc, err = run("""[global]
precision = 0.001%
min_repetitions = 2
max_time = 1s
duration = 100ms
warmup = 0
[c]
target = crypto/aes-256-cbc-hmac-sha256
backend = openssl
size = 16K
""", "--no-store")
    check(rc == 0, f"exit {rc}: {err}")
    whole = doc["results"][0]
    kept = [sum(d["seconds"] for d in r["sample_details"])
            for r in [whole, *whole["parts"]]]
    longest = [max(d["seconds"] for d in r["sample_details"])
               for r in [whole, *whole["parts"]]]
    check(len(kept) == 3, f"a line and its two halves: {kept}")
    for part, most in zip(kept[1:], longest[1:]):
        # it stops at the first sample's end after 0.5 s of samples
        check(part <= 0.5 + most + 0.01 and part < kept[0],
               f"a half kept {part:.3f} s of samples, the line {kept[0]:.3f}")


def test_cbc_size_off_the_block_is_refused():
    """Refused before anything runs: exit 2, one line, nothing measured."""
    text = GLOBAL + (
        "[ctr]\ntarget = crypto/aes-256-ctr\nbackend = openssl\n"
        "size = 1000\n\n"
        "[cbc]\ntarget = crypto/aes-256-cbc\nbackend = openssl, gcrypt\n"
        "size = 1000\n")
    rc, doc, err = run(text)
    check(rc == 2, f"exit {rc}, want 2: {err}")
    check(doc is None, "nothing on stdout")
    line = err.strip()
    check("\n" not in line and "[cbc]" in line and
          "not a multiple of 16" in line, line)


def pk_refused(key_line, want):
    """A pk job with key_line: refused before anything runs, exit 2."""
    text = GLOBAL + (
        "[ok]\ntarget = pk/ecdh\nbackend = openssl\n\n"
        f"[bad]\ntarget = pk/ecdsa-sign\nbackend = openssl, gcrypt\n"
        f"{key_line}\n")
    rc, doc, err = run(text)
    check(rc == 2, f"exit {rc}, want 2: {err}")
    check(doc is None, "nothing on stdout")
    line = err.strip()
    check("\n" not in line and "[bad]" in line, line)
    for word in want:
        check(word in line, f"{word!r} not in: {line}")


def test_pk_unknown_curve_is_refused_with_the_allowed_list():
    pk_refused("curve = p255", ("p255", "p256", "p384", "p521"))


def test_pk_unknown_bits_is_refused_with_the_allowed_list():
    text = GLOBAL + ("[bad]\ntarget = pk/rsa-sign\nbackend = openssl\n"
                     "bits = 1000\n")
    rc, doc, err = run(text)
    check(rc == 2, f"exit {rc}, want 2: {err}")
    check(doc is None, "nothing on stdout")
    for word in ("1000", "2048", "3072", "4096", "7680", "15360"):
        check(word in err, f"{word!r} not in: {err}")


def test_pk_queue_depth_is_refused_on_gcrypt():
    pk_refused("queue_depth = 4",
               ("queue_depth", "gcrypt", "no asynchronous"))


def test_pk_openssl_keeps_sixteen_in_flight():
    text = GLOBAL + ("unit = ops/s\n\n[ecdh]\ntarget = pk/ecdh\n"
                     "backend = openssl\ncurve = x25519\n"
                     "queue_depth = 1, 16\n")
    rc, doc, err = run(text)
    check(rc == 0, f"exit {rc}: {err}")
    depths = [r["params"].get("queue_depth") for r in doc["results"]]
    check(depths == [1, 16], f"queue depths {depths}")
    for r in doc["results"]:
        check(r["status"] == "ok", f'{r["status"]}: {r["reason"]}')
        check(r["ops_stats"]["median"] > 0, "median 0 ops/s")


def test_pk_targets_report_operations_per_second():
    text = GLOBAL + "unit = ops/s\n\n"
    for t, extra in (("pk/rsa-sign", ""), ("pk/rsa-verify", ""),
                     ("pk/ecdsa-sign", "curve = p256"),
                     ("pk/ecdsa-verify", "curve = p384"),
                     ("pk/ecdh", "curve = x25519"),
                     ("pk/eddsa-sign", "curve = ed25519"),
                     ("pk/eddsa-verify", "curve = ed448")):
        text += (f"[{t}]\ntarget = {t}\nbackend = openssl, gcrypt\n"
                 f"{extra}\n\n")
    rc, doc, err = run(text)
    check(rc == 0, f"exit {rc}: {err}")
    check(len(doc["results"]) == 14, f'{len(doc["results"])} results')
    for r in doc["results"]:
        name = f'{r["target"]} ({r["backend"]})'
        check(r["status"] == "ok", f'{name}: {r["status"]}: {r["reason"]}')
        check(r["params"]["parallel"] == 1, f"{name}: {r['params']}")
        check(r["ops_stats"]["median"] > 0, f"{name}: median 0 ops/s")
        check(all(s["ops"] > 0 for s in r["sample_details"]),
              f"{name}: a sample without operations")


def test_pk_is_counted_in_operations_whatever_the_unit():
    """A byte unit cannot show operations: md and csv say ops/s, not 0."""
    for unit in ("", "unit = MB/s\n"):
        text = GLOBAL + unit + ("\n[ecdh]\ntarget = pk/ecdh\n"
                                "backend = openssl\ncurve = x25519\n")
        with tempfile.NamedTemporaryFile("w", suffix=".ini",
                                         delete=False) as f:
            f.write(text)
            path = f.name
        try:
            out = {fmt: subprocess.run(
                [HB, "run", path, "--format", fmt],
                capture_output=True, text=True, timeout=600)
                for fmt in ("md", "csv")}
        finally:
            os.unlink(path)
        for fmt, p in out.items():
            check(p.returncode == 0, f"{fmt}: exit {p.returncode}: {p.stderr}")
        row = [x for x in out["md"].stdout.splitlines()
               if x.startswith("| ecdh |")]
        check(len(row) == 1, f"{unit!r}: md rows {row}")
        cells = [c.strip() for c in row[0].strip("|").split("|")]
        # Case, Backend, Median, CI95, Per CPU-s, Unit, ...
        check(cells[5] == "ops/s" and float(cells[2]) > 1000,
              f"{unit!r}: md row {row[0]}")
        rows = list(csv.DictReader(io.StringIO(out["csv"].stdout)))
        check(len(rows) == 1 and rows[0]["unit"] == "ops/s"
              and float(rows[0]["median"]) > 1000, f"{unit!r}: csv {rows}")


def test_pk_seeded_ed448_skips_on_gcrypt_with_the_reason():
    """A key the library cannot make: skipped, with its reason; not failed."""
    text = GLOBAL + ("[ed448]\ntarget = pk/eddsa-verify\n"
                     "backend = openssl, gcrypt\ncurve = ed448\n"
                     "key_seed = 5\n")
    rc, doc, err = run(text)
    check(rc == 0, f"exit {rc}, a skip is no failure: {err}")
    status = {r["backend"]: r for r in doc["results"]}
    check(status["openssl"]["status"] == "ok", f'{status["openssl"]}')
    check(status["gcrypt"]["status"] == "skipped", f'{status["gcrypt"]}')
    check("Ed448 public key" in status["gcrypt"]["reason"],
          status["gcrypt"]["reason"])


def test_pk_text_report_pairs_sign_and_verify_on_one_line():
    """openssl speed's layout: sign, verify, sign/s, verify/s, then the
    widest interval of the two."""
    text = GLOBAL + "unit = ops/s\n\n"
    for t in ("pk/ecdsa-sign", "pk/ecdsa-verify", "pk/ecdh"):
        text += f"[{t}]\ntarget = {t}\nbackend = openssl\n\n"
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        p = subprocess.run([HB, "run", path], capture_output=True,
                           text=True, timeout=600)
    finally:
        os.unlink(path)
    check(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    lines = p.stdout.splitlines()
    check(any("Public Key Performance" in x for x in lines), p.stdout)
    row = [x for x in lines if x.startswith("256 bits ecdsa (nistp256)")]
    check(len(row) == 1, f"one ecdsa line: {row}")
    words = row[0].split()
    # label (5 words), sign s, verify s, sign/s, verify/s, CI95
    check(re.fullmatch(r"±\d+\.\d%", words[9]) is not None, row[0])
    sign_s, verify_s = float(words[5][:-1]), float(words[6][:-1])
    sign_rate, verify_rate = float(words[7]), float(words[8])
    # seconds are printed to the microsecond: equal to 1/rate to within it
    check(abs(sign_s - 1 / sign_rate) <= 0.6e-6, row[0])
    check(abs(verify_s - 1 / verify_rate) <= 0.6e-6, row[0])
    ecdh = [x for x in lines if x.startswith("256 bits ecdh (nistp256)")]
    check(len(ecdh) == 1 and float(ecdh[0].split()[6]) > 0, f"{ecdh}")


def test_ipsec_mb_skips_stream_mode_with_the_reason():
    need_ipsecmb()
    rc, doc, err = run(jobs(["crypto/aes-256-gcm"], ("ipsec-mb",),
                                       "size = 1K\nmode = stream\n"))
    check(rc == 0, f"exit {rc}, a skip is no failure: {err}")
    r = doc["results"][0]
    check(r["status"] == "skipped" and "no stream mode" in r["reason"],
          f'{r["status"]}: {r["reason"]}')


def test_ipsec_mb_skips_a_hash_longer_than_one_job():
    need_ipsecmb()
    rc, doc, err = run(jobs(["mac/hmac-sha1", "hash/sha256"],
                                       ("ipsec-mb",), "size = 64K\n"))
    check(rc == 0, f"exit {rc}: {err}")
    for r in doc["results"]:
        check(r["status"] == "skipped", f'{r["target"]}: {r["status"]}')
        check("at most 65534 bytes" in r["reason"], r["reason"])


def test_ipsec_mb_depth_16_fills_the_lanes():
    """AES-CBC encrypt is serial per message: one message in flight uses
    one lane of the multi-buffer manager, sixteen fill them. Compared per
    CPU-second, in one run, so a busy neighbour does not decide it."""
    need_ipsecmb()
    rc, doc, err = run(GLOBAL.replace("20ms", "100ms") +
                       "[cbc]\ntarget = crypto/aes-256-cbc\n"
                       "backend = ipsec-mb\nsize = 16K\n"
                       "queue_depth = 1, 16\n")
    check(rc == 0, f"exit {rc}: {err}")
    one, sixteen = doc["results"]
    check(one["status"] == "ok" and sixteen["status"] == "ok",
          f'{one["status"]}, {sixteen["status"]}')
    check((one["params"]["queue_depth"], sixteen["params"]["queue_depth"])
          == (1, 16), "a case per depth")
    if one["info"].get("arch") in ("sse", "no-aesni"):
        raise hbtest.Skip(
            f'{one["info"]["arch"]}: too few lanes to ask for 4x')
    ratio = sixteen["bytes_per_cpu_second"] / one["bytes_per_cpu_second"]
    check(ratio >= 4, f"depth 16 / depth 1 = {ratio:.1f} per CPU-second, "
          "want at least 4")
    check(sixteen["latency"]["count"] > 0, "latency counted")


def test_openssl_runs_at_depth_1_and_16():
    """Each message in its own OpenSSL ASYNC_JOB, sixteen in flight: both
    cases pass their known answers (setup, on the same path), report the
    latency of every message, and the CPU does the same work at either
    depth (per CPU-second, in one run: not a speed test)."""
    rc, doc, err = run(GLOBAL.replace("20ms", "100ms") +
                       "[gcm]\ntarget = crypto/aes-256-gcm\n"
                       "backend = openssl\nsize = 16K\n"
                       "queue_depth = 1, 16\n")
    check(rc == 0, f"exit {rc}: {err}")
    check_ok(doc, 2, 16384)
    one, sixteen = doc["results"]
    check((one["params"]["queue_depth"], sixteen["params"]["queue_depth"])
          == (1, 16), "a case per depth")
    for r in (one, sixteen):
        lat = r.get("latency") or {}
        check(lat.get("count", 0) > 0 and 0 < lat["p50"] <= lat["max"],
              f'depth {r["params"]["queue_depth"]}: latency {lat}')
    # a job switch per message costs more under a sanitizer's fibres;
    # work skipped or done twice over sixteen jobs is far outside 3x
    ratio = sixteen["bytes_per_cpu_second"] / one["bytes_per_cpu_second"]
    check(1 / 3 <= ratio <= 3, f"depth 16 / depth 1 = {ratio:.2f} per "
          "CPU-second, want 1/3 to 3")


def test_openssl_without_queue_depth_runs_one_message_at_a_time():
    """Without queue_depth a CPU target that has run() takes it, untimed
    per message, as `openssl speed` without -async_jobs: no latency and
    no depth in the result; queue_depth = 1 asks for the timed path."""
    rc, doc, err = run(GLOBAL + (
        "[plain]\ntarget = crypto/aes-256-gcm\nbackend = openssl\n"
        "size = 1K\n\n[timed]\ntarget = crypto/aes-256-gcm\n"
        "backend = openssl\nsize = 1K\nqueue_depth = 1\n"))
    check(rc == 0, f"exit {rc}: {err}")
    check_ok(doc, 2, 1024)
    plain, timed = doc["results"]
    check("latency" not in plain and "queue_depth" not in plain["params"],
          f'default: {plain.get("latency")} {plain["params"]}')
    check(timed["params"].get("queue_depth") == 1 and
          timed.get("latency", {}).get("count", 0) > 0,
          f'queue_depth = 1: {timed.get("latency")} {timed["params"]}')


def test_openssl_decrypts_sixteen_in_flight():
    """Every message's tag and MAC checked, sixteen in flight."""
    text = jobs(["crypto/aes-256-gcm", "crypto/aes-256-cbc-hmac-sha256",
                 "crypto/aes-256-ctr-poly1305"], ("openssl",),
                "size = 4K\ndirection = decrypt\nqueue_depth = 16\n")
    rc, doc, err = run(text)
    check(rc == 0, f"exit {rc}: {err}")
    check_ok(doc, 3, 4096)
    check(all(r["params"]["queue_depth"] == 16 for r in doc["results"]),
          "depth recorded")


def test_openssl_stream_mode_above_depth_1_is_refused():
    """One endless message has one buffer in flight: refused before
    anything runs, exit 2, one line naming the section."""
    rc, doc, err = run(GLOBAL + (
        "[s]\ntarget = crypto/aes-256-gcm\nbackend = openssl\n"
        "mode = stream\nqueue_depth = 1, 4\n"))
    check(rc == 2 and doc is None, f"exit {rc}, want 2: {err}")
    line = err.strip()
    check("\n" not in line and "[s]" in line and "mode = stream" in line
          and "queue_depth 4" in line, line)


# OPENSSL_ia32cap with AES-NI and PCLMULQDQ masked off: bits 57 and 33 of
# the first vector (CPUID leaf 1, ECX bits 25 and 1). ":~0" keeps the
# second (leaf 7: SHA-NI, AVX2, AVX-512, VAES, VPCLMULQDQ) as detected;
# OpenSSL 3.0 zeroes it when the mask has no ':' part (BARE_MASK).
NO_AESNI = "~0x200000200000000:~0"
BARE_MASK = "~0x200000200000000"


def gcm_report(tmp, name, env_extra):
    """A tiny AES-256-GCM run on OpenSSL with env_extra in its environment,
    saved as tmp/name.json; returns (path, parsed JSON)."""
    suite = os.path.join(tmp, "gcm.ini")
    with open(suite, "w") as f:
        f.write(GLOBAL + "[gcm]\ntarget = crypto/aes-256-gcm\n"
                "backend = openssl\nsize = 16K\n")
    out = os.path.join(tmp, name + ".json")
    env = dict(os.environ)
    env.pop("OPENSSL_ia32cap", None)
    env.update(env_extra)
    p = subprocess.run([HB, "run", suite, "--format", "json", "--no-store",
                        "--output", out], capture_output=True, text=True,
                       env=env, timeout=600)
    check(p.returncode == 0, f"{name}: exit {p.returncode}: {p.stderr}")
    with open(out) as f:
        return out, json.load(f)


def need_aes_ni(doc):
    if "aes" not in doc["system"].get("cpu_flags", []):
        raise hbtest.Skip("this CPU has no AES-NI to turn off")


def test_each_backend_records_the_cpu_features_it_uses():
    with tempfile.TemporaryDirectory() as tmp:
        _, doc = gcm_report(tmp, "base", {})
    libs = doc["libraries"]
    ossl = libs["openssl"]["OpenSSL CPU"]
    check(re.match(r"AES-NI (on|off), ", ossl), ossl)
    check("; OPENSSL_ia32cap=0x" in ossl and "env:" not in ossl, ossl)
    gc = libs["gcrypt"]["libgcrypt CPU"]
    check(re.match(r"AES-NI (on|off), ", gc) and "; hwflist " in gc, gc)
    if IPSECMB_BUILT:
        mb = libs["ipsec-mb"]["intel-ipsec-mb CPU"]
        check(re.search(r"; arch \w+", mb), mb)
    if "aes" in doc["system"].get("cpu_flags", []):
        check(ossl.startswith("AES-NI on, "), ossl)


def test_openssl_ia32cap_turns_aes_ni_off_in_the_report():
    with tempfile.TemporaryDirectory() as tmp:
        _, base = gcm_report(tmp, "base", {})
        need_aes_ni(base)
        path, masked = gcm_report(tmp, "masked",
                                  {"OPENSSL_ia32cap": NO_AESNI})
        line = masked["libraries"]["openssl"]["OpenSSL CPU"]
        check(line.startswith("AES-NI off, "), line)
        check("PCLMULQDQ off" in line, line)
        check("env:" + NO_AESNI in line, line)
        # the leaf 7 features stay as they were: SHA-NI, AVX2
        ossl = base["libraries"]["openssl"]["OpenSSL CPU"]
        for feature in ("SHA-NI", "AVX2"):
            on = feature + " on" in ossl
            check((feature + " on" in line) == on, f"{feature}: {line}")
        # libgcrypt is not told anything: it still uses AES-NI
        gc = masked["libraries"]["gcrypt"]["libgcrypt CPU"]
        check(gc.startswith("AES-NI on, "), gc)
        text = subprocess.run([HB, "report", path], capture_output=True,
                              text=True)
        check(text.returncode == 0, text.stderr)
        aes = next((l for l in text.stdout.splitlines()
                    if l.startswith("AES ")), "")
        check("AES-NI ON (off for OpenSSL)" in aes, aes)
        check("off for libgcrypt" not in aes.split("VAES")[0], aes)
        plain = subprocess.run([HB, "report", os.path.join(tmp, "base.json")],
                               capture_output=True, text=True).stdout
        aes = next((l for l in plain.splitlines() if l.startswith("AES ")),
                   "")
        check("AES-NI ON," in aes, aes)


def test_openssl_ia32cap_without_its_second_vector_turns_sha_ni_off():
    """A mask of the first vector alone zeroes OpenSSL 3.0's second: SHA-NI,
    AVX2 and AVX-512 off too, so SHA-256 takes its slow path; the report
    says so."""
    with tempfile.TemporaryDirectory() as tmp:
        _, base = gcm_report(tmp, "base", {})
        _, masked = gcm_report(tmp, "bare", {"OPENSSL_ia32cap": BARE_MASK})
    ossl = base["libraries"]["openssl"]["OpenSSL CPU"]
    line = masked["libraries"]["openssl"]["OpenSSL CPU"]
    check(re.search(r"OPENSSL_ia32cap=0x[0-9a-f]+:0x0 env:", line), line)
    for feature in ("SHA-NI", "AVX2", "AVX-512", "VAES", "VPCLMULQDQ"):
        check(feature + " off" in line, f"{feature}: {line}")
    check("SHA-NI on" in ossl or "sha_ni" not in
          base["system"].get("cpu_flags", []), ossl)


def test_openssl_ia32cap_openssl_cannot_read_is_refused_before_running():
    """OpenSSL reads text it cannot parse as a mask of 0: every capability
    off, without a word. hostbench refuses it at its name, exit 2, before
    the first measurement; a mask OpenSSL reads whole still runs."""
    with tempfile.TemporaryDirectory() as tmp:
        marker = os.path.join(tmp, "ran")
        suite = os.path.join(tmp, "s.ini")
        with open(suite, "w") as f:
            f.write("[global]\nduration = 10ms\nrepetitions = 2\n"
                    "warmup = 0\n[touch]\ntarget = transfer/command\n"
                    "command = touch %s\nfile_size = 1K\n[gcm]\n"
                    "target = crypto/aes-256-gcm\nbackend = openssl\n"
                    "size = 1K\n" % marker)
        for bad in ("garbage", "", "0x", "~", "0x1:zz", "12abc", "09",
                    "~0x200000200000000:"):
            env = dict(os.environ, OPENSSL_ia32cap=bad)
            p = subprocess.run([HB, "run", suite, "--no-store"], env=env,
                               capture_output=True, text=True, timeout=120)
            check(p.returncode == 2, f"{bad!r}: exit {p.returncode}: "
                  f"{p.stderr}")
            check('OPENSSL_ia32cap="%s" is not a capability mask' % bad
                  in p.stderr and p.stderr.count("\n") == 1,
                  f"{bad!r}: {p.stderr!r}")
            check(not os.path.exists(marker), f"{bad!r}: a case ran first")
        for good in (NO_AESNI, "0x1:0x2", "~0:~0", "07"):
            env = dict(os.environ, OPENSSL_ia32cap=good)
            p = subprocess.run([HB, "run", suite, "--no-store"], env=env,
                               capture_output=True, text=True, timeout=120)
            check(p.returncode == 0, f"{good!r}: exit {p.returncode}: "
                  f"{p.stderr}")


def test_compare_lists_openssl_ia32cap_under_differs():
    with tempfile.TemporaryDirectory() as tmp:
        base, doc = gcm_report(tmp, "base", {})
        need_aes_ni(doc)
        new, _ = gcm_report(tmp, "masked", {"OPENSSL_ia32cap": NO_AESNI})
        p = subprocess.run([HB, "compare", base, new], capture_output=True,
                           text=True)
        check(p.returncode == 0, f"compare exited {p.returncode}: {p.stderr}")
        differs = next((l for l in p.stdout.splitlines()
                        if l.startswith("Differs:")), "")
        check("Library OpenSSL CPU (openssl)" in differs, differs)
        check("libgcrypt CPU" not in differs, differs)
        ctx = next((l for l in p.stdout.splitlines()
                    if "Library OpenSSL CPU (openssl)" in l and "->" in l),
                   "")
        check(re.search(r"AES-NI on, .* -> AES-NI off, ", ctx), ctx)
        same = subprocess.run([HB, "compare", base, base],
                              capture_output=True, text=True).stdout
        check("Differs: nothing" in same, same)


if __name__ == "__main__":
    hbtest.main()
