#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The scp preset against the loop it replaces (the reference's bench.sh):
for each cipher, three warm-up copies and three measured ones of a random
file to 127.0.0.1:/dev/null with `scp -v`, ssh's own "Bytes per second:
sent" read from each, the median kept; then conf/presets/scp-ciphers.ini
on the same file size and server, its figure (timed_by = ssh) and its
whole-command figure. Prints each cipher's ratio hostbench / loop (1.00:
the same figure); the two take turns, cipher by cipher, ROUNDS times, and
the median ratio is shown.

Runs its own sshd on a free loopback port with keys of its own (as root,
like tests/integration/transfer), stopped however the script ends.

Usage: bench/scp_loop.py [BUILD_DIR] [BYTES] [ROUNDS]
  (defaults: build 500000000 1)
"""
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "build")
BYTES = int(sys.argv[2]) if len(sys.argv) > 2 else 500000000
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 1
HB = os.path.join(BUILD, "hostbench")
PRESET = os.path.join(HERE, "..", "conf", "presets", "scp-ciphers.ini")
CIPHERS = ["aes128-ctr", "aes192-ctr", "aes256-ctr", "aes128-gcm@openssh.com",
           "aes256-gcm@openssh.com", "chacha20-poly1305@openssh.com"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_sshd(d):
    for name in ["host", "id"]:
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                        os.path.join(d, name)], check=True)
    shutil.copy(os.path.join(d, "id.pub"), os.path.join(d, "keys"))
    port = free_port()
    with open(os.path.join(d, "config"), "w") as f:
        f.write(f"ListenAddress 127.0.0.1:{port}\nHostKey {d}/host\n"
                f"AuthorizedKeysFile {d}/keys\nPasswordAuthentication no\n"
                f"StrictModes no\nSubsystem sftp internal-sftp\n")
    os.makedirs("/run/sshd", exist_ok=True)
    proc = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f",
                             os.path.join(d, "config")],
                            stderr=subprocess.DEVNULL)
    for _ in range(300):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc, port
        time.sleep(0.05)
    proc.kill()
    sys.exit("scp_loop: sshd did not listen")


def scp_args(d, port):
    return ["scp", "-B", "-v", "-P", str(port), "-i", f"{d}/id",
            "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null"]


def loop(d, port, cipher, path):
    """The reference loop: 3 warm-up copies, then ssh's figure of 3."""
    rates = []
    for i in range(6):
        p = subprocess.run(scp_args(d, port) + ["-c", cipher, "-o",
                                                "Compression=no", path,
                                                "127.0.0.1:/dev/null"],
                           capture_output=True, text=True, timeout=600)
        m = re.search(r"^Bytes per second: sent ([0-9.]+),", p.stderr, re.M)
        if p.returncode or not m:
            sys.exit(f"scp_loop: scp -c {cipher}: {p.stderr[-400:]}")
        if i >= 3:
            rates.append(float(m.group(1)))
    return statistics.median(rates)


def preset(d, port, cipher):
    """The preset on one cipher: (figure, whole command), bytes/s."""
    out = os.path.join(d, "r.json")
    cmd = " ".join(scp_args(d, port)) + \
        " -c {cipher} -o Compression=no {file} 127.0.0.1:/dev/null"
    p = subprocess.run([HB, "run", PRESET, "--no-store", "--format", "json",
                        "-o", out, "--set", f"scp.command={cmd}",
                        "--set", f"scp.cipher={cipher}",
                        "--set", f"scp.file_size={BYTES}"],
                       capture_output=True, text=True, timeout=1800)
    if p.returncode:
        sys.exit(f"scp_loop: hostbench: {p.stderr[-400:]}")
    r = json.load(open(out))["results"][0]
    whole = statistics.median(s["bytes"] / s["seconds"]
                              for s in r["sample_details"])
    return r["stats"]["median"], whole


def main():
    if os.geteuid() != 0 or not os.path.exists("/usr/sbin/sshd"):
        sys.exit("scp_loop: needs root and sshd (openssh-server)")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "file")
        with open(path, "wb") as f:
            f.write(os.urandom(BYTES))
        proc, port = start_sshd(d)
        try:
            print(f"{BYTES} bytes, {ROUNDS} round(s); MB/s (10^6 B/s)\n")
            print("| cipher | loop (ssh's figure) | hostbench | ratio | "
                  "hostbench whole command | ratio |")
            print("|---|--:|--:|--:|--:|--:|")
            for c in CIPHERS:
                rows = [(loop(d, port, c, path), *preset(d, port, c))
                        for _ in range(ROUNDS)]
                ref = statistics.median(r[0] for r in rows)
                fig = statistics.median(r[1] for r in rows)
                whole = statistics.median(r[2] for r in rows)
                print(f"| {c} | {ref / 1e6:.1f} | {fig / 1e6:.1f} | "
                      f"{statistics.median(r[1] / r[0] for r in rows):.2f} "
                      f"| {whole / 1e6:.1f} | "
                      f"{statistics.median(r[2] / r[0] for r in rows):.2f} |")
        finally:
            proc.terminate()
            proc.wait(timeout=5)


if __name__ == "__main__":
    main()
