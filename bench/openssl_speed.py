#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The openssl-speed preset against `openssl speed -evp`, cipher by cipher
and size by size (16, 64, 256, 1024, 8192 and 16384 bytes).

For each cipher the preset's OpenSSL job runs as the preset writes it (its
mode and rekey), one worker, and `openssl speed -mr -evp CIPHER -seconds S`
runs in turn; ROUNDS alternating rounds, the best of each side kept. Both
figures are bytes per CPU-second: openssl speed's own (its count over the
user CPU time it reports), hostbench's bytes over the CPU time of its
samples. A neighbour's load does not move them. The ratio hostbench /
openssl speed should be 1.00 within 5% at every size.

Usage: bench/openssl_speed.py [BUILD_DIR] [SECONDS] [ROUNDS] [CIPHER...]
       (defaults: build 3 3, every cipher of the preset)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PRESET = os.path.join(HERE, "..", "conf", "presets", "openssl-speed.ini")
CIPHERS = ["aes-256-gcm", "aes-128-gcm", "aes-256-ctr", "aes-256-cbc",
           "chacha20-poly1305"]


def preset_sections():
    """The preset's sections in order: (name, [lines])."""
    sections, name, lines = [], None, []
    with open(PRESET) as f:
        for line in f:
            m = re.match(r"\s*\[([^\]]+)\]", line)
            if m:
                if name is not None:
                    sections.append((name, lines))
                name, lines = m.group(1), []
            elif name is not None and line.strip() and \
                    not line.lstrip().startswith(";"):
                lines.append(line.strip())
    if name is not None:
        sections.append((name, lines))
    return sections


def suite_for(cipher, seconds):
    """[global] and the preset's OpenSSL job for cipher, S repetitions."""
    out = []
    for name, lines in preset_sections():
        keys = dict(re.split(r"\s*=\s*", l, maxsplit=1) for l in lines)
        if name == "global":
            keys["repetitions"] = str(seconds)
        elif name != cipher or keys.get("backend") != "openssl":
            continue
        out.append("[%s]\n%s\n" % (name, "\n".join(
            "%s = %s" % kv for kv in keys.items())))
    if len(out) != 2:
        sys.exit("bench/openssl_speed.py: no OpenSSL job [%s] in %s" %
                 (cipher, PRESET))
    return "\n".join(out)


def hostbench_rates(build, cipher, seconds, tmp):
    """{size: bytes per CPU-second} of the preset's job."""
    ini = os.path.join(tmp, cipher + ".ini")
    with open(ini, "w") as f:
        f.write(suite_for(cipher, seconds))
    run = subprocess.run([os.path.join(build, "hostbench"), "run", ini,
                          "--format", "json", "--no-store"],
                         capture_output=True, text=True, check=False)
    rates = {}
    for r in json.loads(run.stdout)["results"]:
        if r["status"] != "ok":
            sys.exit("bench/openssl_speed.py: %s %s: %s" %
                     (cipher, r["params"]["size"], r["reason"]))
        s = r["sample_details"]
        rates[int(r["params"]["size"])] = \
            sum(x["bytes"] for x in s) / sum(x["cpu_seconds"] for x in s)
    return rates


def openssl_rates(cipher, seconds):
    """{size: bytes per user CPU-second}, openssl speed's own figures."""
    run = subprocess.run(["openssl", "speed", "-mr", "-evp", cipher,
                          "-seconds", str(seconds)],
                         capture_output=True, text=True, check=False)
    out = run.stdout + run.stderr
    sizes = [int(x) for x in re.findall(r"^\+DT:[^:]+:\d+:(\d+)", out, re.M)]
    runs = re.findall(r"^\+R:(\d+):[^:]+:([0-9.]+)", out, re.M)
    if not runs or len(runs) != len(sizes):
        sys.exit("bench/openssl_speed.py: openssl speed %s: %s" %
                 (cipher, out.strip()[-300:]))
    return {size: int(n) * size / float(t)
            for size, (n, t) in zip(sizes, runs) if float(t) > 0}


def best(a, b):
    return {k: max(a.get(k, 0), b.get(k, 0)) for k in set(a) | set(b)}


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..",
                                                                "build")
    seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    ciphers = sys.argv[4:] or CIPHERS
    print("%-18s %6s %12s %12s %6s" % ("cipher", "size", "openssl MB/cs",
                                        "hb MB/cs", "ratio"))
    with tempfile.TemporaryDirectory() as tmp:
        for cipher in ciphers:
            ref, hb = {}, {}
            for _ in range(rounds):
                ref = best(ref, openssl_rates(cipher, seconds))
                hb = best(hb, hostbench_rates(build, cipher, seconds, tmp))
            for size in sorted(ref):
                r, h = ref[size], hb.get(size, 0)
                print("%-18s %6d %12.1f %12.1f %6.3f" %
                      (cipher, size, r / 1e6, h / 1e6, h / r if r else 0))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
