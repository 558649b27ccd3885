#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The openssl-speed preset against `openssl speed -evp`, cipher by cipher
and size by size (16, 64, 256, 1024, 8192 and 16384 bytes).

For each cipher and size the preset's OpenSSL job runs as the preset
writes it (its mode and rekey), one worker, S one-second samples, and
`openssl speed -mr -evp CIPHER -bytes SIZE -seconds S` runs right after
it; ROUNDS such pairs. Both figures are bytes per CPU-second: openssl
speed's own (its count over the user CPU time it reports), hostbench's
bytes over the CPU time of its samples, so a neighbour's load moves them
little; each pair runs back to back, and the ratio printed is the median
of the pairs' ratios hostbench / openssl speed (1.00: the same loop at the
same speed; the goal is within 5% at every size), beside the medians of
each side's figures.

Usage: bench/openssl_speed.py [BUILD_DIR] [SECONDS] [ROUNDS] [CIPHER...]
       (defaults: build 3 3, every cipher of the preset)
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PRESET = os.path.join(HERE, "..", "conf", "presets", "openssl-speed.ini")
SIZES = [16, 64, 256, 1024, 8192, 16384]
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


def suite_for(cipher, size, seconds):
    """[global] and the preset's OpenSSL job for cipher at one size, S
    repetitions."""
    out = []
    for name, lines in preset_sections():
        keys = dict(re.split(r"\s*=\s*", l, maxsplit=1) for l in lines)
        if name == "global":
            keys["repetitions"] = str(seconds)
            keys["size"] = str(size)
        elif name != cipher or keys.get("backend") != "openssl":
            continue
        out.append("[%s]\n%s\n" % (name, "\n".join(
            "%s = %s" % kv for kv in keys.items())))
    if len(out) != 2:
        sys.exit("bench/openssl_speed.py: no OpenSSL job [%s] in %s" %
                 (cipher, PRESET))
    return "\n".join(out)


def hostbench_rate(build, cipher, size, seconds, tmp):
    """Bytes per CPU-second of the preset's job at size."""
    ini = os.path.join(tmp, cipher + ".ini")
    with open(ini, "w") as f:
        f.write(suite_for(cipher, size, seconds))
    run = subprocess.run([os.path.join(build, "hostbench"), "run", ini,
                          "--format", "json", "--no-store"],
                         capture_output=True, text=True, check=False)
    try:
        r = json.loads(run.stdout)["results"][0]
    except (ValueError, KeyError, IndexError):
        sys.exit("bench/openssl_speed.py: hostbench %s %d: %s" %
                 (cipher, size, run.stderr.strip()[-300:]))
    if r["status"] != "ok":
        sys.exit("bench/openssl_speed.py: %s %d: %s" %
                 (cipher, size, r["reason"]))
    s = r["sample_details"]
    return sum(x["bytes"] for x in s) / sum(x["cpu_seconds"] for x in s)


def openssl_rate(cipher, size, seconds):
    """Bytes per user CPU-second at size, openssl speed's own figure."""
    run = subprocess.run(["openssl", "speed", "-mr", "-evp", cipher,
                          "-bytes", str(size), "-seconds", str(seconds)],
                         capture_output=True, text=True, check=False)
    out = run.stdout + run.stderr
    m = re.search(r"^\+R:(\d+):[^:]+:([0-9.]+)", out, re.M)
    if not m or float(m.group(2)) <= 0:
        sys.exit("bench/openssl_speed.py: openssl speed %s %d: %s" %
                 (cipher, size, out.strip()[-300:]))
    return int(m.group(1)) * size / float(m.group(2))


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..",
                                                                "build")
    seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    ciphers = sys.argv[4:] or CIPHERS
    print("%-18s %6s %13s %12s %6s" % ("cipher", "size", "openssl MB/cs",
                                        "hb MB/cs", "ratio"))
    with tempfile.TemporaryDirectory() as tmp:
        for cipher in ciphers:
            for size in SIZES:
                pairs = []
                for _ in range(rounds):
                    h = hostbench_rate(build, cipher, size, seconds, tmp)
                    pairs.append((openssl_rate(cipher, size, seconds), h))
                print("%-18s %6d %13.1f %12.1f %6.3f" % (
                    cipher, size,
                    statistics.median(p[0] for p in pairs) / 1e6,
                    statistics.median(p[1] for p in pairs) / 1e6,
                    statistics.median(p[1] / p[0] for p in pairs)))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
