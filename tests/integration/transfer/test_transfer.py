#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Integration tests of the transfer plugin and hostbench-serve.

Each test_* function is one CTest test (integration.transfer.<name>). The
targets run through transfer-driver, a minimal host for the plugin, against
the loopback receiver, a hostbench-serve started here on a free port, or
small misbehaving peers written below. Every test also checks that it left
no process and no file behind.
"""
import contextlib
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

BUILD = os.environ.get("HB_BUILD_DIR", "")
DRIVER = os.environ.get("HB_DRIVER", "")
PLUGIN = os.environ.get("HB_TRANSFER_PLUGIN", "")
HOLDER = os.environ.get("HB_HOLDER", "")
SERVE = os.path.join(BUILD, "hostbench-serve")
HOSTBENCH = os.path.join(BUILD, "hostbench")

# A token passes the rule of plugins/transfer/protocol/token.h: 16
# characters or more, 6 or more of them different.
TOKEN = "sekrit-0123456789abcdef"
WRONG = "guess-0123456789abcdef"

TLS13_SUITES = ["TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256",
                "TLS_CHACHA20_POLY1305_SHA256"]


def token_env():
    """The environment with HOSTBENCH_TOKEN=TOKEN: a peer's token where a
    test names none."""
    return dict(os.environ, HOSTBENCH_TOKEN=TOKEN)


def drive(target, *params, workers=1, iterations=20, rounds=1, cwd=None):
    """Run one case through the driver; return its JSON result."""
    args = [DRIVER, "-p", str(workers), "-n", str(iterations), "-r",
            str(rounds), PLUGIN, target] + list(params)
    out = subprocess.run(args, capture_output=True, text=True, timeout=60,
                         cwd=cwd, env=token_env())
    try:
        return json.loads(out.stdout)
    except ValueError:
        raise AssertionError("driver printed no result: %r %r"
                             % (out.stdout, out.stderr))


def expect_ok(r):
    expect(r["status"] == "ok", "case failed: %s" % r["reason"])


def expect_failed(r, *fragments):
    expect(r["status"] == "failed", "case did not fail: %r" % r)
    for f in fragments:
        expect(f in r["reason"], "reason %r lacks %r" % (r["reason"], f))


def listening(port):
    """Whether something accepts connections on 127.0.0.1:port."""
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """hostbench-serve on 127.0.0.1 with a free port, stopped by its PID."""

    def __init__(self, token=TOKEN, *extra, via_cli=False):
        self.log = tempfile.TemporaryFile(mode="w+")
        cmd = [HOSTBENCH, "serve"] if via_cli else [SERVE]
        self.proc = subprocess.Popen(
            cmd + ["--listen", "127.0.0.1:0", "--token", token] +
            list(extra), stderr=self.log)
        # Making its RSA and EC keys takes a while on a busy machine.
        m = hbtest.wait_for(
            lambda: re.search(r"listening on 127\.0\.0\.1:(\d+)",
                              self.text()),
            lambda: "hostbench-serve did not start: " + self.text())
        self.port = int(m.group(1))
        self.peer = "peer=127.0.0.1:%d" % self.port

    def text(self):
        self.log.seek(0)
        return self.log.read()

    def alive(self):
        return self.proc.poll() is None

    def wait_log(self, pattern, seconds=10, count=1):
        """Whether count log lines match pattern within seconds."""
        return bool(hbtest.poll(
            lambda: len(re.findall(pattern, self.text())) >= count, seconds))

    def stop(self):
        """SIGTERM; the log stays readable (its last lines too)."""
        self.proc.terminate()
        self.proc.wait(timeout=5)


def children_matching(marker):
    """PIDs of live processes whose command line holds marker."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if marker.encode() in f.read():
                    pids.append(int(pid))
        except OSError:
            pass
    return pids


# --- tcp ---------------------------------------------------------------

def test_tcp_counts_bytes_received():
    r = drive("transfer/tcp", "size=64K", iterations=50, rounds=2)
    expect_ok(r)
    expect(r["bytes"] == 2 * 50 * 65536, "bytes %d" % r["bytes"])
    expect(r["ops"] == 100, "ops %d" % r["ops"])
    expect(r["notes"]["peer"].startswith("127.0.0.1:"), "peer note")


def test_tcp_two_streams_each_count():
    r = drive("transfer/tcp", "size=32K", "nodelay=true", "sndbuf=1M",
              "rcvbuf=1M", workers=2, iterations=40)
    expect_ok(r)
    expect(r["bytes"] == 2 * 40 * 32768, "bytes %d" % r["bytes"])


def test_tcp_zerocopy_runs_or_skips_with_reason():
    r = drive("transfer/tcp", "size=64K", "zerocopy=true", iterations=30)
    if r["status"] == "skipped":
        expect("zerocopy" in r["reason"], "skip reason " + r["reason"])
        return
    expect_ok(r)
    expect(r["bytes"] == 30 * 65536, "bytes %d" % r["bytes"])
    expect("zerocopy" in r["notes"], "zerocopy note")


# --- tls ---------------------------------------------------------------

def test_tls13_each_suite_negotiates_it():
    for suite in TLS13_SUITES:
        r = drive("transfer/tls", "size=16K", "cipher=" + suite,
                  iterations=20)
        expect_ok(r)
        expect(r["notes"]["cipher"] == suite, "cipher %r" % r["notes"])
        expect(r["notes"]["tls_version"] == "TLSv1.3", "version")
        expect(r["bytes"] == 20 * 16384, "bytes %d" % r["bytes"])


def test_tls12_suite_negotiates_it():
    # key = auto picks an EC certificate for the ECDSA suite.
    for suite in ["ECDHE-RSA-AES256-GCM-SHA384",
                  "ECDHE-ECDSA-CHACHA20-POLY1305"]:
        r = drive("transfer/tls", "tls_version=1.2", "cipher=" + suite,
                  "size=8K", iterations=10)
        expect_ok(r)
        expect(r["notes"]["cipher"] == suite, "cipher %r" % r["notes"])
        expect(r["notes"]["tls_version"] == "TLSv1.2", "version")


def test_tls_unknown_cipher_fails():
    r = drive("transfer/tls", "cipher=TLS_ROT13_SHA1")
    expect_failed(r, "TLS_ROT13_SHA1", "no such TLS 1.3 suite")
    r = drive("transfer/tls", "tls_version=1.2", "cipher=NOT-A-CIPHER")
    expect_failed(r, "NOT-A-CIPHER", "no such TLS 1.2 suite")


def test_tls_suite_of_other_version_fails():
    r = drive("transfer/tls", "cipher=ECDHE-RSA-AES128-GCM-SHA256")
    expect_failed(r, "not a TLS 1.3 suite")


def test_tls_handshake_counts_handshakes():
    r = drive("transfer/tls-handshake", iterations=30)
    expect_ok(r)
    expect(r["ops"] == 30 and r["bytes"] == 0, "ops %d" % r["ops"])
    expect(r["notes"]["tls_version"] == "TLSv1.3", "version")


def test_tls_handshake_resumes_when_asked():
    for version in ["1.3", "1.2"]:
        r = drive("transfer/tls-handshake", "resume=true",
                  "tls_version=" + version, iterations=30)
        expect_ok(r)
        expect(r["notes"].get("resumed") == "yes", "resumed %r" % r)
        expect(r["ops"] == 30, "ops %d" % r["ops"])


# --- command -----------------------------------------------------------

def test_command_reports_file_size_per_run():
    with tempfile.TemporaryDirectory() as d:
        r = drive("transfer/command", "command=cat {file}",
                  "file_size=1M", "file_dir=" + d, iterations=3)
        expect_ok(r)
        expect(r["bytes"] == 3 << 20 and r["ops"] == 3, "counts %r" % r)
        expect(r["notes"]["command"].startswith("cat " + d), "note")
        expect(os.listdir(d) == [], "left files: %r" % os.listdir(d))


def test_command_file_holds_file_size_random_bytes():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "copy")
        r = drive("transfer/command", "command=cp {file} {out}",
                  "out=" + out, "file_size=256K", "file_dir=" + d)
        expect_ok(r)
        data = open(out, "rb").read()
        expect(len(data) == 256 << 10, "size %d" % len(data))
        expect(len(set(data[:4096])) > 200, "file is not random")


def test_command_expands_extra_keys_per_case():
    with tempfile.TemporaryDirectory() as d:
        for cipher in ["aes128-ctr", "chacha20-poly1305@openssh.com"]:
            r = drive("transfer/command", "command=touch {d}/{cipher}",
                      "d=" + d, "cipher=" + cipher, "file_size=1K")
            expect_ok(r)
        expect(sorted(os.listdir(d)) ==
               ["aes128-ctr", "chacha20-poly1305@openssh.com"],
               "files %r" % os.listdir(d))


def test_command_unknown_placeholder_fails_before_running():
    with tempfile.TemporaryDirectory() as d:
        r = drive("transfer/command", "command=touch {d}/ran {missing}",
                  "d=" + d, "file_dir=" + d)
        expect_failed(r, "{missing}", "no parameter")
        expect(os.listdir(d) == [], "something ran: %r" % os.listdir(d))


def test_command_values_are_never_split_or_run_by_a_shell():
    with tempfile.TemporaryDirectory() as d:
        evil = "a b; touch pwned $(touch pwned2) `touch pwned3` > x"
        r = drive("transfer/command", "command=touch {x}", "x=" + evil,
                  "file_size=1K", cwd=d)
        expect_ok(r)
        expect(os.listdir(d) == [evil], "files %r" % os.listdir(d))


def test_command_quotes_split_like_a_shell():
    with tempfile.TemporaryDirectory() as d:
        r = drive("transfer/command",
                  "command=touch '%s/one word' \"%s/two\\\"q\" %s/three\\ x"
                  % (d, d, d), "file_size=1K")
        expect_ok(r)
        expect(sorted(os.listdir(d)) == ["one word", "three x", 'two"q'],
               "files %r" % os.listdir(d))


def test_command_missing_program_fails():
    with tempfile.TemporaryDirectory() as d:
        r = drive("transfer/command", "command=no-such-program-xyz {file}",
                  "file_dir=" + d)
        expect_failed(r, "no-such-program-xyz", "not found")
        expect(os.listdir(d) == [], "left files")


def test_command_nonzero_exit_fails_with_stderr_tail():
    with tempfile.TemporaryDirectory() as d:
        r = drive("transfer/command",
                  "command=sh -c 'echo first >&2; echo cipher refused >&2;"
                  " exit 3' {file}", "file_dir=" + d, "file_size=1K")
        expect_failed(r, "status 3", "cipher refused")
        expect(os.listdir(d) == [], "left files")


def test_command_that_hangs_is_killed_with_its_children():
    marker = "31.41592%d" % os.getpid()
    r = drive("transfer/command",
              "command=sh -c 'sleep %s & sleep %s'" % (marker, marker),
              "command_timeout=300ms", "file_size=1K")
    expect_failed(r, "timed out")
    # killed: gone once init has reaped them
    hbtest.wait_for(lambda: children_matching(marker) == [],
                    "the command's processes gone", timeout=10)


def test_command_output_is_captured_not_shown():
    out = subprocess.run(
        [DRIVER, PLUGIN, "transfer/command",
         "command=sh -c 'echo to-stdout; echo to-stderr >&2'",
         "file_size=1K"], capture_output=True, text=True, timeout=30)
    # stdout holds only the result (whose note quotes the command).
    expect(out.stdout.count("\n") == 1 and out.stderr == "",
           "output leaked: %r %r" % (out.stdout, out.stderr))
    expect(json.loads(out.stdout)["status"] == "ok", "status")


# --- bad peers ---------------------------------------------------------

def test_refused_connection_fails():
    r = drive("transfer/tcp", "peer=127.0.0.1:%d" % free_port())
    expect_failed(r, "connect to 127.0.0.1", "refused")


def test_unreachable_peer_fails():
    # TEST-NET-1: either no route at all, or nothing answers in time.
    start = time.time()
    r = drive("transfer/tls", "peer=192.0.2.1:5201", "io_timeout=300ms")
    expect_failed(r, "connect to 192.0.2.1:5201")
    expect(time.time() - start < 10, "did not give up in time")


def test_bad_peer_address_fails():
    r = drive("transfer/tcp", "peer=no-port-here")
    expect_failed(r, "not HOST:PORT")


def proof(token, who, mode, server_nonce, client_nonce, binding=bytes(32)):
    """The HMAC-SHA256 proof of the protocol
    (plugins/transfer/protocol/wire.h)."""
    import hmac
    msg = (b"hostbench " + who) + bytes([mode]) + server_nonce + \
        client_nonce + binding
    return hmac.new(token.encode(), msg, "sha256").digest()


def greet_tcp(conn, token=TOKEN):
    """A tcp-mode receiver up to its ok reply; the hello's nonce."""
    conn.recv(8)                                # preface
    server_nonce = os.urandom(32)
    conn.sendall(server_nonce)
    hello = b""
    while len(hello) < 64:
        hello += conn.recv(64 - len(hello))
    conn.sendall(b"\x00\x00" + proof(token, b"server", 1, server_nonce,
                                     hello[:32]))


class ClosingPeer(threading.Thread):
    """Speaks the protocol up to the hello, takes some data, hangs up."""

    def __init__(self):
        super().__init__(daemon=True)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1)
        self.port = self.sock.getsockname()[1]

    def run(self):
        conn, _ = self.sock.accept()
        with conn:
            greet_tcp(conn)
            got = 0
            while got < 100000:
                got += len(conn.recv(65536))
        self.sock.close()


class RefusingPeer(threading.Thread):
    """A fake receiver: reads the preface, refuses with message (bytes)."""

    def __init__(self, message, count=1):
        super().__init__(daemon=True)
        self.message, self.count, self.answer = message, count, None
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.sock.settimeout(30)
        self.port = self.sock.getsockname()[1]

    def tls_exchange(self, client, up):
        """Both TLS sessions, then one message each way, read in clear."""
        client = self.server_ctx.wrap_socket(client, server_side=True)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        up = ctx.wrap_socket(up)
        up.settimeout(10)
        hello = client.recv(4096)       # whatever the client proves with
        self.seen.extend(hello)
        up.sendall(hello)
        client.sendall(up.recv(4096))   # the server's verdict
        client.close()
        up.close()

    def run(self):
        for _ in range(self.count):
            try:
                conn, _ = self.sock.accept()
            except OSError:
                break
            with conn:
                conn.settimeout(5)
                try:
                    if self.answer:
                        self.answer(conn)
                        continue
                    conn.recv(8)                    # preface
                    conn.sendall(os.urandom(32))    # challenge
                    conn.recv(64)                   # hello
                    conn.sendall(bytes([1, len(self.message)]) +
                                 self.message)
                    conn.recv(100)
                except OSError:
                    pass
        self.sock.close()


HOSTILE = (b"\x1b]0;pwned\x07\x1b[2J<script>x</script>\n"
           b"AES : 8 Pbit/s\r\x9b")


def test_peer_message_reaches_reports_sanitized():
    peer = RefusingPeer(HOSTILE, count=3)
    peer.start()
    try:
        outs = {}
        for fmt in ("text", "md", "csv"):
            with tempfile.NamedTemporaryFile("w", suffix=".ini") as f:
                f.write(TINY + "[evil]\ntarget = transfer/tcp\n"
                        "peer = 127.0.0.1:%d\n" % peer.port)
                f.flush()
                p = subprocess.run([HOSTBENCH, "run", f.name, "--format",
                                    fmt], capture_output=True, timeout=60,
                                   env=token_env())
            outs[fmt] = p.stdout
            expect(p.returncode == 1, "%s: exit %d" % (fmt, p.returncode))
        for fmt, out in outs.items():
            expect(b"\x1b" not in out and b"\x07" not in out and
                   b"\x9b" not in out and b"\r" not in out.replace(
                       b"\r\n", b""), "%s: control bytes %r" % (fmt, out))
            expect(not re.search(rb"^AES : 8 Pbit/s", out, re.M),
                   "%s: a forged line: %r" % (fmt, out))
            expect(b"refused by receiver" in out, fmt + ": no reason")
        expect(b"<script>" not in outs["md"] and
               b"&lt;script&gt;" in outs["md"], "md: %r" % outs["md"])
    finally:
        peer.join(10)


def test_peer_closing_mid_sample_fails_the_case():
    peer = ClosingPeer()
    peer.start()
    r = drive("transfer/tcp", "peer=127.0.0.1:%d" % peer.port, "size=64K",
              iterations=1000)
    expect_failed(r, "closed by peer")
    peer.join(5)


class Interceptor(threading.Thread):
    """A man in the middle between the client and a real server.

    Relays every connection to upstream and records what it can read of
    the client's bytes: everything in tcp mode; in TLS modes it ends the
    client's TLS with its own certificate, opens its own TLS to the
    server, and records the decrypted stream. Bounded: it serves count
    connections and gives up on any after 10 s.
    """

    def __init__(self, upstream_port, certdir=None, count=1):
        super().__init__(daemon=True)
        self.upstream, self.count = upstream_port, count
        self.seen = bytearray()
        self.server_ctx = None
        if certdir:
            self.server_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.server_ctx.load_cert_chain(
                os.path.join(certdir, "cert.pem"),
                os.path.join(certdir, "key.pem"))
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.sock.settimeout(30)
        self.port = self.sock.getsockname()[1]

    def pipe(self, src, dst, record):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if record:
                    self.seen.extend(data)
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def relay(self, client):
        client.settimeout(10)
        up = socket.create_connection(("127.0.0.1", self.upstream), 10)
        preface = client.recv(8)
        self.seen.extend(preface)
        up.sendall(preface)
        if self.server_ctx and preface[4] != 1:
            self.tls_exchange(client, up)
            return
        back = threading.Thread(target=self.pipe, args=(up, client, False),
                                daemon=True)
        back.start()
        self.pipe(client, up, True)
        back.join(10)

    def tls_exchange(self, client, up):
        """Both TLS sessions, then one message each way, read in clear."""
        client = self.server_ctx.wrap_socket(client, server_side=True)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        up = ctx.wrap_socket(up)
        up.settimeout(10)
        hello = client.recv(4096)       # whatever the client proves with
        self.seen.extend(hello)
        up.sendall(hello)
        client.sendall(up.recv(4096))   # the server's verdict
        client.close()
        up.close()

    def run(self):
        for _ in range(self.count):
            try:
                conn, _ = self.sock.accept()
                self.relay(conn)
            except (OSError, ssl.SSLError):
                pass
        self.sock.close()


def make_cert(d):
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048",
                    "-nodes", "-keyout", os.path.join(d, "key.pem"),
                    "-out", os.path.join(d, "cert.pem"), "-days", "1",
                    "-subj", "/CN=mitm"], check=True, capture_output=True)


def test_tcp_token_never_crosses_the_wire():
    srv = Server(TOKEN)
    mitm = Interceptor(srv.port)
    mitm.start()
    try:
        r = drive("transfer/tcp", "peer=127.0.0.1:%d" % mitm.port,
                  "token=" + TOKEN, "size=4K", iterations=5)
        mitm.join(15)
        expect_ok(r)
        expect(len(mitm.seen) > 5 * 4096, "relay saw %d bytes"
               % len(mitm.seen))
        expect(TOKEN.encode() not in bytes(mitm.seen),
               "the token crossed the wire in clear")
    finally:
        srv.stop()


def test_tls_man_in_the_middle_learns_nothing_and_is_refused():
    with tempfile.TemporaryDirectory() as d:
        make_cert(d)
        srv = Server(TOKEN)
        try:
            for target in ("transfer/tls", "transfer/tls-handshake"):
                mitm = Interceptor(srv.port, certdir=d)
                mitm.start()
                r = drive(target, "peer=127.0.0.1:%d" % mitm.port,
                          "token=" + TOKEN, iterations=3)
                mitm.join(15)
                expect(TOKEN.encode() not in bytes(mitm.seen),
                       "%s: the man in the middle read the token" % target)
                expect_failed(r, "wrong token")
            expect(srv.wait_log("wrong token"), srv.text())
            # the same client straight to the server is served
            expect_ok(drive("transfer/tls", srv.peer, "token=" + TOKEN,
                            iterations=3))
        finally:
            srv.stop()


def test_receiver_without_the_token_cannot_pass_for_one():
    # says "ok" (status 0) with a proof made without the token
    peer = RefusingPeer(b"", count=1)

    def fake_ok(conn):
        conn.recv(8)
        conn.sendall(os.urandom(32))
        conn.recv(64)
        conn.sendall(b"\x00\x00" + proof("guess", b"server", 1, bytes(32),
                                         bytes(32)))
        conn.recv(100)

    peer.answer = fake_ok
    peer.start()
    r = drive("transfer/tcp", "peer=127.0.0.1:%d" % peer.port,
              "token=" + TOKEN)
    expect_failed(r, "could not prove it knows the token")
    peer.join(10)


# --- hostbench serve ---------------------------------------------------

def test_serve_runs_every_target_with_the_token():
    srv = Server()
    try:
        r = drive("transfer/tcp", srv.peer, "token=" + TOKEN, "size=64K",
                  workers=2, iterations=30)
        expect_ok(r)
        expect(r["bytes"] == 2 * 30 * 65536, "bytes %d" % r["bytes"])
        r = drive("transfer/tls", srv.peer, "token=" + TOKEN,
                  "cipher=TLS_CHACHA20_POLY1305_SHA256", iterations=10)
        expect_ok(r)
        expect(r["notes"]["cipher"] == "TLS_CHACHA20_POLY1305_SHA256", "")
        r = drive("transfer/tls", srv.peer, "token=" + TOKEN,
                  "tls_version=1.2", "cipher=ECDHE-ECDSA-AES128-GCM-SHA256",
                  iterations=10)
        expect_ok(r)
        r = drive("transfer/tls-handshake", srv.peer, "token=" + TOKEN,
                  "resume=true", iterations=10)
        expect_ok(r)
        expect(srv.wait_log(r"tcp: 1966080 bytes"), "log: " + srv.text())
    finally:
        srv.stop()


def test_serve_refuses_a_wrong_token():
    srv = Server()
    try:
        r = drive("transfer/tcp", srv.peer, "token=" + WRONG)
        expect_failed(r, "refused by receiver: wrong token")
        r = drive("transfer/tls-handshake", srv.peer, "token=" + WRONG)
        expect_failed(r, "wrong token")
        expect(srv.wait_log("wrong token"), "not logged")
        expect_ok(drive("transfer/tcp", srv.peer, "token=" + TOKEN))
    finally:
        srv.stop()


def test_serve_survives_a_garbage_client():
    srv = Server()
    try:
        for junk in [os.urandom(5000), b"HBX1\x02\x00\x00\x00garbage",
                     b"HBX1\x01\x00\x00\x00\xff\xff"]:
            with socket.create_connection(("127.0.0.1", srv.port)) as s:
                try:
                    s.sendall(junk)
                    s.recv(100)
                except OSError:
                    pass
        expect(srv.wait_log("bad preface"), "log: " + srv.text())
        expect(srv.alive(), "server died")
        expect_ok(drive("transfer/tcp", srv.peer, "token=" + TOKEN))
    finally:
        srv.stop()


def test_serve_drops_a_stalling_client_and_serves_others():
    srv = Server(TOKEN, "--idle-timeout", "0.5")
    try:
        stall = socket.create_connection(("127.0.0.1", srv.port))
        half = socket.create_connection(("127.0.0.1", srv.port))
        half.sendall(b"HBX2\x01\x00\x00\x00" + bytes(20))
        # Others are served while both stall.
        expect_ok(drive("transfer/tcp", srv.peer, "token=" + TOKEN))
        # one line per dropped client; a served client's line may come
        # between them
        expect(srv.wait_log(r"(?:timed out|no proof)[^\n]*", 20, count=2),
               srv.text())
        for s in (stall, half):
            s.settimeout(5)
            # the half-done one got its challenge first: read to the end
            expect(len(s.recv(100)) in (0, 32) and s.recv(100) == b"",
                   "stalling client not dropped")
            s.close()
        expect(srv.alive(), "server died")
    finally:
        srv.stop()


def test_serve_refuses_clients_beyond_its_limit():
    srv = Server(TOKEN, "--max-clients", "1", "--max-pending", "4",
                 "--max-pending-per-address", "4", "--idle-timeout", "5")
    try:
        # an authenticated client holds the one slot for streams until it
        # is told to go; the drive starts once the holder is in
        hold = subprocess.Popen([HOLDER, "tcp", "127.0.0.1:%d" % srv.port,
                                 TOKEN, "120"], stdout=subprocess.PIPE,
                                text=True)
        if hold.stdout.readline().strip() != "connected":
            hold.wait(timeout=30)
            raise AssertionError("the holder ended (%s)" % hold.returncode)
        r = drive("transfer/tcp", srv.peer, "token=" + TOKEN)
        hold.terminate()
        hold.wait(timeout=30)
        expect_failed(r, "refused by receiver: too many clients "
                      "(--max-clients 1)")
        expect_ok(drive("transfer/tcp", srv.peer, "token=" + TOKEN))
    finally:
        srv.stop()


class Dribbler(threading.Thread):
    """A slow client from source: one byte of a valid preface and hello
    every 0.5 s, until the server closes it or 20 s pass."""

    def __init__(self, port, source="127.0.0.2"):
        super().__init__(daemon=True)
        self.sock = socket.socket()
        self.sock.bind((source, 0))
        self.sock.connect(("127.0.0.1", port))
        self.sock.settimeout(0.5)
        self.closed = False
        self.sent = 0

    def run(self):
        data = b"HBX2\x01\x00\x00\x00" + bytes(64)
        # the slowness is the test: a byte, then half a second of silence
        for b in data[:40]:
            try:
                self.sock.send(bytes([b]))
                self.sent += 1
                if self.sock.recv(100) == b"":
                    self.closed = True
                    break
            except socket.timeout:
                continue
            except OSError:
                self.closed = True
                break
        self.sock.close()


def test_serve_slow_unauthenticated_clients_cannot_hold_it():
    # 127.0.0.2 may hold three unauthenticated connections: each of its
    # later three replaces its oldest; the real client's two workers are
    # from another address and prove the token at once
    srv = Server(TOKEN, "--max-clients", "8", "--max-pending", "6",
                 "--max-pending-per-address", "3", "--idle-timeout", "2",
                 "--max-time", "30")
    try:
        slow = [Dribbler(srv.port) for _ in range(6)]
        for d in slow:
            d.start()
        # 127.0.0.2 holds three connections once its other three have
        # replaced its oldest
        hbtest.wait_for(lambda: len(re.findall(
            r"dropped for a newer unauthenticated client from "
            r"127\.0\.0\.2", srv.text())) >= 3,
            "three slow clients replaced")
        # slots stay for clients that prove the token, from elsewhere
        r = drive("transfer/tcp", srv.peer, "token=" + TOKEN, "size=4K",
                  workers=2)
        expect_ok(r)
        for d in slow:
            d.join(25)
        # one byte every 0.5 s never trips a per-read timeout of 2 s; the
        # 2 s for the whole proof do: the server closed every one of them
        # before it sent all it had (20 s of bytes)
        expect(all(d.closed for d in slow), "a slow client held on: %r"
               % [d.sent for d in slow])
        expect(srv.wait_log(r"no proof of the token within 2 s"),
               srv.text())
        expect(srv.alive(), "server died")
    finally:
        srv.stop()


class SilentFlood(threading.Thread):
    """Keeps per_source silent connections open from each source address,
    opening a new one as soon as the server closes one, until stopped."""

    def __init__(self, port, sources, per_source):
        super().__init__(daemon=True)
        self.port, self.sources, self.per = port, sources, per_source
        self.opened = 0
        self.stopping = False

    def open_one(self, source):
        s = socket.socket()
        s.bind((source, 0))
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", self.port))
        self.opened += 1
        return s

    def run(self):
        import select
        socks = {self.open_one(src): src for src in self.sources
                 for _ in range(self.per)}
        while not self.stopping:
            ready, _, _ = select.select(list(socks), [], [], 0.01)
            for s in ready:
                try:
                    if s.recv(1):
                        continue
                except BlockingIOError:
                    continue
                except OSError:
                    pass
                src = socks.pop(s)
                s.close()
                socks[self.open_one(src)] = src
        for s in socks:
            s.close()


def test_serve_silent_sockets_from_several_addresses_cannot_lock_out_a_client():
    # the default budgets (8 unauthenticated, 4 per address) against four
    # silent sockets from each of four addresses, replaced as soon as the
    # server drops them: every connection of the real client gets in
    srv = Server()
    flood = SilentFlood(srv.port, ["127.0.0.%d" % i for i in (2, 3, 4, 5)],
                        4)
    flood.start()
    try:
        expect(srv.wait_log("dropped for a newer unauthenticated client"),
               srv.text()[-2000:])
        results = [drive("transfer/tcp", srv.peer, "token=" + TOKEN,
                         "size=4K", iterations=2) for _ in range(20)]
        ok = sum(r["status"] == "ok" for r in results)
        expect(ok == 20, "%d of 20 got in: %r; the server's log ends: %s" % (
            ok, [r["reason"] for r in results if r["status"] != "ok"][:3],
            "\n".join(l for l in srv.text().splitlines()
                      if "127.0.0.1:" in l)[-1500:]))
        expect(flood.opened > 16, "the flood opened only %d" % flood.opened)
        expect(srv.alive(), "server died")
    finally:
        flood.stopping = True
        flood.join(10)
        srv.stop()


def test_serve_drops_a_silent_socket_before_a_client_that_spoke():
    # one waiting connection a side from three addresses, room for two: the
    # newcomer replaces the silent one, not the older one that sent its
    # preface and holds its challenge
    srv = Server(TOKEN, "--max-pending", "2", "--max-pending-per-address",
                 "1", "--idle-timeout", "30")
    socks = []
    try:
        def connect(source):
            s = socket.socket()
            s.bind((source, 0))
            s.settimeout(10)
            s.connect(("127.0.0.1", srv.port))
            socks.append(s)
            return s
        talker = connect("127.0.0.1")
        talker.sendall(b"HBX2\x01\x00\x00\x00")
        expect(len(talker.recv(32)) > 0, "no challenge for the talker")
        # the server admits connections in the order they arrived
        silent = connect("127.0.0.2")
        connect("127.0.0.3")
        expect(silent.recv(100) == b"", "the silent socket stayed")
        talker.settimeout(0.5)
        try:
            left = talker.recv(100)
        except socket.timeout:
            left = None
        expect(left is None, "the talker was dropped: %r" % (left,))
        expect(srv.wait_log(r"127\.0\.0\.2.*dropped for a newer"),
               srv.text())
    finally:
        for s in socks:
            s.close()
        srv.stop()


def tls12_client(cipher, ems=True):
    """A TLS 1.2 client context offering only cipher, with or without the
    extended master secret."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    ctx.minimum_version = ctx.maximum_version = ssl.TLSVersion.TLSv1_2
    ctx.set_ciphers(cipher)
    if not ems:
        ctx.options |= SSL_OP_NO_EXTENDED_MASTER_SECRET
    return ctx


# OpenSSL 3's SSL_OP_NO_EXTENDED_MASTER_SECRET, which Python does not name
SSL_OP_NO_EXTENDED_MASTER_SECRET = 1


def tls12_session_with_serve(port, ctx):
    """Preface and TLS 1.2 handshake with serve; then whether serve still
    waits for the hello (True) or has closed the connection (False)."""
    with socket.create_connection(("127.0.0.1", port), 10) as raw:
        raw.sendall(b"HBX2\x02\x00\x00\x00")
        tls = ctx.wrap_socket(raw)
        tls.settimeout(3)
        try:
            return tls.recv(1) != b""
        except socket.timeout:
            return True
        except (OSError, ssl.SSLError):
            return False


def test_serve_refuses_tls12_static_rsa_key_exchange():
    srv = Server()
    try:
        for cipher in ("AES128-GCM-SHA256", "AES256-SHA256"):
            try:
                tls12_session_with_serve(srv.port, tls12_client(cipher))
                refused = False
            except ssl.SSLError:
                refused = True
            expect(refused, cipher + ": serve accepted static RSA")
        # the same client with an ECDHE suite is let through to the hello
        expect(tls12_session_with_serve(
            srv.port, tls12_client("ECDHE-RSA-AES128-GCM-SHA256")),
            "serve closed a session with an ECDHE suite: " + srv.text())
        expect(srv.alive(), "server died")
    finally:
        srv.stop()


def test_serve_refuses_tls12_without_extended_master_secret():
    srv = Server()
    try:
        ctx = tls12_client("ECDHE-RSA-AES128-GCM-SHA256", ems=False)
        expect(not tls12_session_with_serve(srv.port, ctx),
               "serve waited for the proof of a session without EMS")
        expect(srv.wait_log("TLS 1.2 without the extended master secret"),
               srv.text())
    finally:
        srv.stop()


class NoEmsServer(threading.Thread):
    """A TLS 1.2 receiver without the extended master secret: reads the
    preface, shakes hands, and records what the client sends after."""

    def __init__(self, certdir):
        super().__init__(daemon=True)
        self.ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.ctx.load_cert_chain(os.path.join(certdir, "cert.pem"),
                                 os.path.join(certdir, "key.pem"))
        self.ctx.maximum_version = ssl.TLSVersion.TLSv1_2
        self.ctx.options |= SSL_OP_NO_EXTENDED_MASTER_SECRET
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1)
        self.sock.settimeout(30)
        self.port = self.sock.getsockname()[1]
        self.handshakes, self.after = 0, b""

    def run(self):
        try:
            conn, _ = self.sock.accept()
            conn.settimeout(5)
            conn.recv(8)
            tls = self.ctx.wrap_socket(conn, server_side=True)
            self.handshakes += 1
            self.after = tls.recv(4096)
            tls.close()
        except (OSError, ssl.SSLError):
            pass
        self.sock.close()


def test_client_refuses_a_tls12_receiver_without_extended_master_secret():
    with tempfile.TemporaryDirectory() as d:
        make_cert(d)
        peer = NoEmsServer(d)
        peer.start()
        r = drive("transfer/tls", "peer=127.0.0.1:%d" % peer.port,
                  "token=" + TOKEN, "tls_version=1.2",
                  "cipher=ECDHE-RSA-AES256-GCM-SHA384", iterations=1)
        peer.join(15)
        expect(peer.handshakes == 1, "no TLS handshake took place")
        expect_failed(r, "without the extended master secret")
        expect(peer.after == b"", "the client sent its proof: %d bytes"
               % len(peer.after))


def test_client_refuses_a_static_rsa_cipher():
    r = drive("transfer/tls", "tls_version=1.2", "cipher=AES256-GCM-SHA384")
    expect_failed(r, "AES256-GCM-SHA384", "no forward secrecy")


def test_serve_refuses_a_short_or_uniform_token():
    for token, words in (("Q", "the token has 1 character, at least 16"),
                         ("sekrit", "at least 16"),
                         ("ab" * 10, "only 2 different characters")):
        p = subprocess.run([SERVE, "--listen", "127.0.0.1:0", "--token",
                            token], capture_output=True, text=True,
                           timeout=10)
        expect(p.returncode == 2, "%r: exit %d" % (token, p.returncode))
        expect(words in p.stderr and "openssl rand -hex 16" in p.stderr,
               p.stderr)
        expect(token not in p.stderr.replace("--token", ""), p.stderr)


def test_cli_short_token_is_refused_before_anything_runs():
    with tempfile.NamedTemporaryFile("w", suffix=".ini") as f:
        f.write(TINY + "[short]\ntarget = transfer/tcp\n"
                "peer = 127.0.0.1:5201\ntoken = s3cr3t\n")
        f.flush()
        p = subprocess.run([HOSTBENCH, "run", f.name], text=True,
                           capture_output=True, timeout=60)
    expect(p.returncode == 2 and p.stdout == "", "exit %d" % p.returncode)
    expect("[short]" in p.stderr and "at least 16" in p.stderr and
           "openssl rand -hex 16" in p.stderr, p.stderr)
    expect("s3cr3t" not in p.stderr, p.stderr)


def test_cli_malformed_token_value_is_never_shown():
    secret = "hush-0123456789abcdef"
    for value, words in ((secret + ",", "an empty list item"),
                         ('"' + secret, "an unterminated quote")):
        for where in ("suite", "--set"):
            with tempfile.NamedTemporaryFile("w", suffix=".ini") as f:
                f.write(TINY + "[remote]\ntarget = transfer/tcp\n"
                        "peer = 127.0.0.1:5201\n")
                if where == "suite":
                    f.write("token = %s\n" % value)
                f.flush()
                extra = ["--set", "token=" + value] if where == "--set" \
                    else []
                p = subprocess.run([HOSTBENCH, "run", f.name] + extra,
                                   text=True, capture_output=True,
                                   timeout=60)
            expect(p.returncode == 2, "%s: exit %d" % (where, p.returncode))
            expect("token" in p.stderr and words in p.stderr,
                   "%s: %r" % (where, p.stderr))
            expect("hush" not in p.stderr and "0123456789" not in p.stderr,
                   "%s: the token was shown: %r" % (where, p.stderr))


def test_serve_ends_handshake_connections_at_max_time_and_logs_them():
    srv = Server(TOKEN, "--max-time", "2", "--idle-timeout", "30")
    try:
        p = subprocess.run([HOLDER, "handshake", "127.0.0.1:%d" % srv.port,
                            TOKEN, "20"], capture_output=True, text=True,
                           timeout=60)
        expect(p.returncode == 0, "held %s s (exit %d): %s"
               % (p.stdout.strip(), p.returncode, p.stderr))
        lasted = p.stdout.split()[-1]
        expect(float(lasted) < 10, "lasted %s s" % lasted)
        expect(srv.wait_log(r"handshake: connection time limit of 2 s"),
               srv.text())
        expect_ok(drive("transfer/tls-handshake", srv.peer, "token=" + TOKEN,
                        iterations=5))
    finally:
        srv.stop()
    # the summary of successful handshakes is written when it stops
    expect(re.search(r"\d+ handshakes from 127\.0\.0\.1", srv.text()),
           srv.text())


def test_serve_refuses_option_values_out_of_range():
    cases = [("--idle-timeout", "nan"), ("--idle-timeout", "1e-9"),
             ("--idle-timeout", "inf"), ("--max-time", "-1"),
             ("--max-time", "1e400"), ("--max-clients", "0.5"),
             ("--max-clients", "1e12"), ("--max-clients", "0"),
             ("--max-pending-per-address", "20")]
    for opt, value in cases:
        p = subprocess.run([SERVE, "--listen", "127.0.0.1:0", "--token", TOKEN,
                            opt, value], capture_output=True, text=True,
                           timeout=10)
        expect(p.returncode == 2, "%s %s: exit %d" % (opt, value,
                                                      p.returncode))
        expect(opt in p.stderr and (" from " in p.stderr or
                                    "must not exceed" in p.stderr),
               "%s %s: %r" % (opt, value, p.stderr))
    p = subprocess.run([SERVE, "--listen", "127.0.0.1:70000", "--token", TOKEN],
                       capture_output=True, text=True, timeout=10)
    expect(p.returncode == 2 and "0 to 65535" in p.stderr,
           "listen port: exit %d %r" % (p.returncode, p.stderr))


def test_cli_peer_port_out_of_range_is_bad_input():
    with tempfile.NamedTemporaryFile("w", suffix=".ini") as f:
        f.write(TINY + "[far]\ntarget = transfer/tcp\n"
                "peer = 127.0.0.1:70000\n")
        f.flush()
        p = subprocess.run([HOSTBENCH, "run", f.name], timeout=60,
                           capture_output=True, text=True)
    expect(p.returncode == 2, "exit %d: %s" % (p.returncode, p.stderr))
    expect("[far]" in p.stderr and "1 to 65535" in p.stderr, p.stderr)


def test_serve_requires_listen_and_token():
    for args in [[], ["--listen", "127.0.0.1:0"],
                 ["--listen", "127.0.0.1:0", "--token", ""]]:
        env = dict(os.environ)
        env.pop("HOSTBENCH_TOKEN", None)
        p = subprocess.run([SERVE] + args, capture_output=True, text=True,
                           timeout=10, env=env)
        expect(p.returncode == 2, "exit %d for %r" % (p.returncode, args))
        expect("--token" in p.stderr, "message: " + p.stderr)


def test_serve_refuses_to_run_set_user_id():
    # a set-user-ID root serve would lend root's rights to whoever runs it
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        raise hbtest.Skip("needs root and setpriv")
    with tempfile.TemporaryDirectory() as d:
        copy = hbtest.setuid_copy(SERVE, d)
        p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534",
                            "--clear-groups", copy, "--listen",
                            "127.0.0.1:0", "--token", TOKEN],
                           capture_output=True, text=True, timeout=10)
    expect(p.returncode == 2, "exit %d: %s" % (p.returncode, p.stderr))
    expect("set-user-ID" in p.stderr and "listening" not in p.stderr,
           p.stderr)


# --- through the hostbench command line ---------------------------------

TINY = """[global]
duration = 50ms
repetitions = 2
warmup = 0
"""


def run_suite(text, *args):
    """hostbench run on a suite text; returns (exit status, results)."""
    with tempfile.NamedTemporaryFile("w", suffix=".ini") as f:
        f.write(TINY + text)
        f.flush()
        p = subprocess.run([HOSTBENCH, "run", f.name, "--format", "json"] +
                           list(args), capture_output=True, text=True,
                           timeout=120, env=token_env())
    try:
        return p.returncode, json.loads(p.stdout)["results"]
    except ValueError:
        raise AssertionError("no JSON: %r %r" % (p.stdout, p.stderr[-2000:]))


def by_title(results):
    return {r["title"]: r for r in results}


# A stand-in for scp -v: some work, then ssh's report of a session that
# sent 1 MiB in exactly 1 ms (1048576 bytes at 1048576000.0 B/s).
FAKE_SSH = """#!/bin/sh
head -c 20000000 /dev/zero | cat > /dev/null
echo "debug1: Exit status 0" >&2
echo "Transferred: sent 1048576, received 1000 bytes, in 0.0 seconds" >&2
echo "Bytes per second: sent 1048576000.0, received 1000.0" >&2
"""


def fake_ssh(d):
    path = os.path.join(d, "fake-scp")
    with open(path, "w") as f:
        f.write(FAKE_SSH)
    os.chmod(path, 0o755)
    return path


def hostbench(*args, **kw):
    p = subprocess.run([HOSTBENCH, *args], capture_output=True, text=True,
                       timeout=120, **kw)
    return p.returncode, p.stdout, p.stderr


def test_command_timed_by_ssh_is_the_sessions_figure_in_every_view():
    with tempfile.TemporaryDirectory() as d:
        suite = os.path.join(d, "s.ini")
        with open(suite, "w") as f:
            f.write(TINY + "unit = MB/s\n\n[copy]\ntarget = transfer/command\n"
                    "command = %s -v {file}\ntimed_by = ssh\n"
                    "file_size = 1M\n" % fake_ssh(d))
        report = os.path.join(d, "r.json")
        rc, text, err = hostbench("run", suite, "--no-store", "-o", report,
                                  "--format", "json")
        expect(rc == 0, err)
        r = json.load(open(report))["results"][0]
        for s in r["sample_details"]:
            # 1 ms of ssh's session per copy, a copy per operation
            expect(abs(s["tool_seconds"] - s["ops"] / 1000) < 1e-12 and
                   s["seconds"] > s["tool_seconds"], s)
        expect(abs(r["stats"]["median"] / 1048576000.0 - 1) < 1e-12,
               r["stats"])
        rc, text, err = hostbench("report", report)
        expect(rc == 0 and re.search(
            r"^copy \(transfer\) : 1048\.58MB/s ±0\.0% .*\[1\]$", text,
            re.M), text)
        note = re.search(r"^  \[1\] (.*)$", text, re.M).group(1)
        expect(note.startswith("timed by ssh's session (ssh -v); whole "
                               "command "), note)
        # the whole command's figure is the bytes over its wall time
        walls = sorted(s["bytes"] / s["seconds"] / 1e6
                       for s in r["sample_details"])
        whole = (walls[(len(walls) - 1) // 2] + walls[len(walls) // 2]) / 2
        expect(note.endswith("%.2fMB/s" % whole), (note, whole))
        # the store keeps the session's figure as the series' value
        store = "sqlite://" + os.path.join(d, "h.db")
        rc, _, err = hostbench("store", "import", report, "--store", store)
        expect(rc == 0, err)
        rc, out, err = hostbench("history", "--store", store,
                                 "--format", "json")
        expect(rc == 0, err)
        points = [p for s in json.loads(out)["series"] for p in s["points"]]
        expect(len(points) == 1 and
               abs(points[0]["median"] / 1048576000.0 - 1) < 1e-12, points)


def test_command_timed_by_ssh_needs_ssh_v_and_its_report():
    with tempfile.TemporaryDirectory() as d:
        suite = os.path.join(d, "s.ini")
        text = (TINY + "\n[quiet]\ntarget = transfer/command\n"
                "command = scp -q {file} 127.0.0.1:/dev/null\n"
                "timed_by = ssh\n")
        with open(suite, "w") as f:
            f.write(text)
        line = text.splitlines().index("timed_by = ssh") + 1
        rc, out, err = hostbench("run", suite, "--no-store")
        # judged before anything runs: no file made, nothing measured
        expect(rc == 2 and out == "", "exit %d" % rc)
        expect(err.startswith("hostbench: %s:%d: [quiet] timed_by = ssh "
                              "reads ssh's own report of the session: add "
                              "-v to the command" % (suite, line)), err)
        rc, results = run_suite("""
[no report]
target = transfer/command
command = sh -v -c true
timed_by = ssh
""")
        expect(rc == 1 and results[0]["status"] == "failed", results)
        expect('no "Bytes per second: sent" report of ssh -v' in
               results[0]["reason"], results[0]["reason"])


def test_command_cpu_is_counted_per_cpu_second():
    # the command's own CPU (a child the worker reaps) is the sample's:
    # each run spins 50 ms of CPU, so a sample of N runs took >= N x 50 ms
    with tempfile.TemporaryDirectory() as d:
        spin = os.path.join(d, "spin.py")
        with open(spin, "w") as f:
            f.write("import time\nwhile time.process_time() < 0.05:\n"
                    "    pass\n")
        status, res = run_suite("""
[spin]
target = transfer/command
command = python3 %s
file_size = 1K
duration = 300ms
""" % spin, "--no-store")
        expect(status == 0 and res[0]["status"] == "ok", "exit %d" % status)
        for s in res[0]["sample_details"]:
            runs = s["ops"]
            expect(runs >= 1 and s["cpu_seconds"] >= 0.05 * runs * 0.9,
                   "%d runs of 50 ms CPU in %.4f CPU-s" % (runs,
                                                         s["cpu_seconds"]))


def test_cli_runs_every_target_over_loopback():
    with tempfile.TemporaryDirectory() as d:
        rc, results = run_suite("""
[TCP]
target = transfer/tcp
parallel = 1, 2
size = 64K

[TLS]
target = transfer/tls
cipher = TLS_AES_256_GCM_SHA384, TLS_AES_128_GCM_SHA256, TLS_CHACHA20_POLY1305_SHA256

[TLS12]
target = transfer/tls
tls_version = 1.2
cipher = ECDHE-RSA-AES128-GCM-SHA256

[HS]
target = transfer/tls-handshake
resume = false, true

[CMD]
target = transfer/command
command = dd if={file} of=/dev/null bs={bs}
bs = 64k, 1M
file_size = 1M
file_dir = %s
""" % d)
        expect(rc == 0, "exit %d" % rc)
        expect(len(results) == 10, "%d results" % len(results))
        for r in results:
            expect(r["status"] == "ok", "%s: %s" % (r["title"], r["reason"]))
            expect(r["stats"]["median"] > 0 or r["target"].endswith(
                "handshake"), r["title"])
        tls = [r for r in results if r["job"] == "TLS"]
        expect([r["info"]["cipher"] for r in tls] ==
               [r["params"]["cipher"] for r in tls], "negotiated ciphers")
        expect([r for r in results if r["job"] == "TLS12"][0]["info"]
               ["tls_version"] == "TLSv1.2", "TLS 1.2")
        expect(os.listdir(d) == [], "left files %r" % os.listdir(d))


def test_cli_bad_inputs_fail_with_reasons_and_the_suite_goes_on():
    srv = Server()
    peer = ClosingPeer()
    peer.start()
    marker = "27.18281%d" % os.getpid()
    try:
        with tempfile.TemporaryDirectory() as d:
            rc, results = run_suite("""
[refused]
target = transfer/tcp
peer = 127.0.0.1:%d

[unreachable]
target = transfer/tcp
peer = 192.0.2.1:5201
io_timeout = 300ms

[wrong token]
target = transfer/tls
peer = 127.0.0.1:%d
token = guess-0123456789abcdef

[closes]
target = transfer/tcp
peer = 127.0.0.1:%d
duration = 1s

[unknown cipher]
target = transfer/tls
cipher = TLS_NOPE_SHA256

[exit 3]
target = transfer/command
command = sh -c 'echo scp refused the cipher >&2; exit 3'
file_dir = %s

[hangs]
target = transfer/command
command = sleep %s
command_timeout = 200ms

[good]
target = transfer/tcp
""" % (free_port(), srv.port, peer.port, d, marker))
            got = by_title(results)
            expect(rc == 1, "exit %d" % rc)
            want = {"refused": "Connection refused",
                    "unreachable": "connect to 192.0.2.1:5201",
                    "wrong token": "wrong token",
                    "closes": "closed by peer",
                    "unknown cipher": "TLS_NOPE_SHA256",
                    "exit 3": "scp refused the cipher",
                    "hangs": "timed out"}
            for title, fragment in want.items():
                r = got[title]
                expect(r["status"] == "failed", title + " did not fail")
                expect(fragment in r["reason"],
                       "%s: %r" % (title, r["reason"]))
            expect(got["good"]["status"] == "ok", got["good"]["reason"])
            expect(os.listdir(d) == [], "left files %r" % os.listdir(d))
            expect(children_matching(marker) == [], "left processes")
        expect(srv.alive(), "server died")
    finally:
        srv.stop()
        peer.join(5)


def test_cli_bad_command_is_a_suite_error_before_anything_runs():
    for command, fragment in (("no-such-program-xyz {file}", "not found"),
                              ("touch {file}.ran {nope}", "{nope}")):
        with tempfile.TemporaryDirectory() as d:
            with tempfile.NamedTemporaryFile("w", suffix=".ini") as f:
                f.write(TINY + "[first]\ntarget = transfer/tcp\n\n"
                        "[bad]\ntarget = transfer/command\n"
                        "command = %s\nfile_dir = %s\n" % (command, d))
                f.flush()
                p = subprocess.run([HOSTBENCH, "run", f.name], timeout=60,
                                   capture_output=True, text=True)
            expect(p.returncode == 2, "exit %d" % p.returncode)
            expect(p.stdout == "", "nothing measured, nothing on stdout")
            line = p.stderr.strip()
            expect("\n" not in line and "[bad]" in line and
                   fragment in line, line)
            expect(os.listdir(d) == [], "left files %r" % os.listdir(d))


def test_cli_command_file_dir_is_checked_before_anything_runs():
    with tempfile.TemporaryDirectory() as d:
        marker = os.path.join(d, "ran")
        with tempfile.NamedTemporaryFile("w", suffix=".ini") as f:
            f.write(TINY + "[first]\ntarget = transfer/command\n"
                    "command = touch %s\nfile_size = 1K\n\n"
                    "[bad dir]\ntarget = transfer/command\n"
                    "command = cat {file}\nfile_dir = %s/missing\n"
                    % (marker, d))
            f.flush()
            p = subprocess.run([HOSTBENCH, "run", f.name], timeout=60,
                               capture_output=True, text=True)
        expect(p.returncode == 2, "exit %d: %s" % (p.returncode, p.stderr))
        expect("[bad dir]" in p.stderr and "file_dir" in p.stderr and
               "No such file" in p.stderr, p.stderr)
        expect(not os.path.exists(marker), "a case ran before the check")


def test_cli_command_file_larger_than_free_space_skips():
    import resource
    with tempfile.TemporaryDirectory() as d:
        vfs = os.statvfs(d)
        size = vfs.f_bavail * vfs.f_frsize + (1 << 30)

        def small_files():
            # Whatever happens, no test may fill the disk: a write past
            # 64 MiB kills the writer (SIGXFSZ) instead.
            resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 20, 64 << 20))

        with tempfile.NamedTemporaryFile("w", suffix=".ini") as f:
            f.write(TINY + "[big]\ntarget = transfer/command\n"
                    "command = cat {file}\nfile_size = %d\nfile_dir = %s\n"
                    % (size, d))
            f.flush()
            p = subprocess.run([HOSTBENCH, "run", f.name, "--format",
                                "json"], timeout=120, capture_output=True,
                               text=True, preexec_fn=small_files)
        r = json.loads(p.stdout)["results"][0]
        expect(r["status"] == "skipped", "%s: %s" % (r["status"],
                                                     r["reason"]))
        expect("free space" in r["reason"] and d in r["reason"], r["reason"])
        expect(os.listdir(d) == [], "left files %r" % os.listdir(d))


def test_cli_sweeps_temporary_files_of_dead_processes():
    with tempfile.TemporaryDirectory() as d:
        dead = subprocess.Popen(["true"])
        dead.wait()
        stale = os.path.join(d, ".hostbench-%d-transfer-AbC123" % dead.pid)
        live = os.path.join(d, ".hostbench-%d-transfer-XyZ789" % os.getpid())
        for path in (stale, live):
            open(path, "w").close()
        rc, results = run_suite("[cmd]\ntarget = transfer/command\n"
                                "command = true\nfile_size = 1K\n"
                                "file_dir = %s\n" % d)
        expect(rc == 0, "exit %d" % rc)
        expect(not os.path.exists(stale), "the dead process's file stayed")
        expect(os.path.exists(live), "a live process's file was removed")


def bytes_served(srv, streams):
    """Bytes srv's log says it took in once streams sessions ended."""
    pattern = r"client \d+ \S+: (?:tcp|tls)[^:]*: (\d+) bytes in"

    def served():
        got = [int(n) for n in re.findall(pattern, srv.text())]
        return got if len(got) >= streams else None
    return sum(hbtest.wait_for(served, lambda: "sessions did not end: "
                               + srv.text(), timeout=10))


def test_cli_peer_list_sends_to_every_serve_in_turn():
    one, two = Server("t0k3n-1-0123456789ab"), Server("t0k3n-2-0123456789ab")
    try:
        peers = "127.0.0.1:%d, 127.0.0.1:%d" % (one.port, two.port)
        rc, results = run_suite("""
[both tcp]
target = transfer/tcp
peer = "%s"
token = "t0k3n-1-0123456789ab, t0k3n-2-0123456789ab"
parallel = 2
size = 64K
""" % peers)
        expect(rc == 0, "exit %d: %r" % (rc, results))
        (r,) = results
        expect(r["status"] == "ok", r["reason"])
        expect(r["info"]["peer"] == peers, "peer %r" % r["info"]["peer"])
        expect(r["stats"]["median"] > 0, "a figure")
        # each of the 2 workers held a stream to each receiver, and dealt
        # its sends round-robin: the two differ by at most one send of
        # each worker, however few sends a busy host allowed
        a, b = bytes_served(one, 2), bytes_served(two, 2)
        expect(a > 0 and b > 0 and abs(a - b) <= 2 * 65536,
               "served %d and %d" % (a, b))
    finally:
        one.stop()
        two.stop()


def test_cli_peer_list_handshakes_with_every_serve():
    one, two = Server("same-0123456789abcdef"), Server("same-0123456789abcdef")
    try:
        rc, results = run_suite("""
[both]
target = transfer/tls-handshake
peer = "127.0.0.1:%d,127.0.0.1:%d"
token = same-0123456789abcdef
resume = true
""" % (one.port, two.port))
        (r,) = results
        expect(rc == 0 and r["status"] == "ok", "%d %r" % (rc, r))
        expect(r["info"]["resumed"] == "yes", "resumed %r" % r["info"])
    finally:
        one.stop()
        two.stop()
    # each receiver counts its handshakes in the summary it logs on stop
    counts = [sum(int(n) for n in re.findall(r"(\d+) handshakes from",
                                             srv.text()))
              for srv in (one, two)]
    # the peers take turns: an odd total leaves one more on the first
    expect(min(counts) > 0 and
           abs(counts[0] - counts[1]) <= max(1, max(counts) // 10),
           "handshakes %r" % counts)


def test_cli_peer_list_fails_only_the_pair_of_the_peer_that_fails():
    srv, dead, gone = Server("t0k3n-0123456789ab"), free_port(), free_port()
    try:
        rc, results = run_suite("""
[one dead]
target = transfer/tcp
peer = "127.0.0.1:%d, 127.0.0.1:%d"
token = t0k3n-0123456789ab
io_timeout = 2s

[both dead]
target = transfer/tcp
peer = "127.0.0.1:%d, 127.0.0.1:%d"
token = t0k3n-0123456789ab
io_timeout = 2s
""" % (srv.port, dead, gone, dead))
        one, both = results
        # the receiver that holds keeps its figure; the other pair failed
        expect(one["status"] == "ok" and one["stats"]["median"] > 0,
               "one dead: %r" % one)
        info = one["info"]
        expect(info["pairs"] == "1 of 2 ok", "pairs %r" % info)
        held = info["pair 127.0.0.1:%d" % srv.port]
        failed = info["pair 127.0.0.1:%d" % dead]
        expect(held.startswith("ok: ") and
               "bytes acknowledged (100.0% of the case's)" in held, held)
        expect(failed.startswith("failed: ") and
               "127.0.0.1:%d" % dead in failed and "refused" in failed,
               failed)
        expect(any("pair 127.0.0.1:%d failed" % dead in w
                   for w in one["warnings"]), "warned %r" % one["warnings"])
        # no receiver left: the case fails, naming the last
        expect_failed(both, "127.0.0.1:%d" % dead, "refused")
        expect(rc == 1, "exit %d" % rc)
    finally:
        srv.stop()


def test_cli_peer_list_with_a_token_per_peer_wrong_is_refused_before_the_run():
    for peer, token, words in [
            ("127.0.0.1:1, 127.0.0.1:2", "a, b, c",
             "token: 3 tokens for 2 peers"),
            ("127.0.0.1:1, , 127.0.0.1:2", "a",
             "peer 2 of 3 is empty"),
            ("127.0.0.1:1, lab2", "a", '"lab2" is not HOST:PORT')]:
        with tempfile.NamedTemporaryFile("w", suffix=".ini") as f:
            f.write(TINY + """
[list]
target = transfer/tcp
peer = "%s"
token = "%s"
""" % (peer, token))
            f.flush()
            p = subprocess.run([HOSTBENCH, "run", f.name], text=True,
                               capture_output=True, timeout=60)
        expect(p.returncode == 2, "%s: exit %d" % (peer, p.returncode))
        expect(p.stdout == "", "nothing ran")
        expect(words in p.stderr and "[list]" in p.stderr, p.stderr)
        # a token is a secret: never shown, even when refused
        expect("a, b, c" not in p.stderr, p.stderr)


def test_cli_all_to_all_is_refused_outside_a_fleet():
    with tempfile.NamedTemporaryFile("w", suffix=".ini") as f:
        f.write(TINY + """
[every host]
target = transfer/tcp
peer = all-to-all
""")
        f.flush()
        p = subprocess.run([HOSTBENCH, "run", f.name], text=True,
                           capture_output=True, timeout=60)
    expect(p.returncode == 2 and p.stdout == "", "exit %d" % p.returncode)
    expect('[every host] peer: "all-to-all" sends to another rank of an MPI '
           "job" in p.stderr, p.stderr)


def test_cli_serve_measures_between_two_processes():
    srv = Server("t0k3n-0123456789ab", via_cli=True)
    try:
        rc, results = run_suite("""
[remote tcp]
target = transfer/tcp
peer = 127.0.0.1:%d
token = t0k3n-0123456789ab
parallel = 2

[remote tls]
target = transfer/tls
peer = 127.0.0.1:%d
token = t0k3n-0123456789ab

[wrong token]
target = transfer/tcp
peer = 127.0.0.1:%d
token = nope-0123456789abcdef
""" % (srv.port, srv.port, srv.port))
        got = by_title(results)
        expect(rc == 1, "exit %d" % rc)
        for title in ["remote tcp [2 parallels]", "remote tls"]:
            expect(title in got, "titles %r" % list(got))
            r = got[title]
            expect(r["status"] == "ok", "%s: %s" % (title, r["reason"]))
            expect(r["info"]["peer"] == "127.0.0.1:%d" % srv.port, "peer")
        expect(got["wrong token"]["status"] == "failed", "token accepted")
        expect("wrong token" in got["wrong token"]["reason"], "reason")
        expect(srv.wait_log("wrong token"), srv.text())
    finally:
        srv.stop()


def test_cli_secret_token_reaches_no_report_journal_or_log():
    srv = Server("sekrit-one-0123456789")
    try:
        with tempfile.TemporaryDirectory() as d:
            suite = os.path.join(d, "s.ini")
            journal = os.path.join(d, "j.jsonl")
            with open(suite, "w") as f:
                f.write(TINY + "[remote]\ntarget = transfer/tcp\n"
                        "peer = 127.0.0.1:%d\n"
                        "token = sekrit-one-0123456789, sekrit-two-0123456789\n" % srv.port)
            seen = b""
            for fmt in ("json", "csv", "text", "md", "html"):
                p = subprocess.run([HOSTBENCH, "run", suite, "--format",
                                    fmt, "--journal", journal],
                                   capture_output=True, timeout=120)
                expect(p.returncode == 1, "%s: exit %d" % (fmt,
                                                          p.returncode))
                seen += p.stdout + p.stderr
            seen += open(journal, "rb").read()
            expect(b"sekrit" not in seen, "the token was shown: %r" %
                   seen[seen.find(b"sekrit") - 200:][:400])
            expect(b"(secret)" in seen, "nothing stands for the token")
            # the two cases stay apart in the journal: the ok one is
            # resumed, the refused one measured (and refused) again
            p = subprocess.run([HOSTBENCH, "run", suite, "--resume",
                                journal, "--format", "json"],
                               capture_output=True, text=True, timeout=120)
            res = json.loads(p.stdout)["results"]
            expect([(r["status"], r.get("resumed")) for r in res] ==
                   [("ok", True), ("failed", None)],
                   "resumed %r" % [(r["status"], r.get("resumed"))
                                   for r in res])
    finally:
        srv.stop()


def test_token_from_the_environment():
    srv = Server()
    try:
        env = dict(os.environ, HOSTBENCH_TOKEN=TOKEN)
        p = subprocess.run([DRIVER, PLUGIN, "transfer/tcp", srv.peer],
                           capture_output=True, text=True, timeout=60,
                           env=env)
        r = json.loads(p.stdout)
        expect_ok(r)
    finally:
        srv.stop()


@contextlib.contextmanager
def private_sshd():
    """An sshd on a free loopback port that takes one new key: (port,
    directory holding the key "id"); stopped however the block ends."""
    sshd = shutil.which("sshd") or "/usr/sbin/sshd"
    if not os.path.exists(sshd) or not shutil.which("scp") or \
            os.geteuid() != 0:
        raise hbtest.Skip("needs root, sshd and scp")
    with tempfile.TemporaryDirectory() as d:
        for name in ["host", "id"]:
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "",
                            "-f", os.path.join(d, name)], check=True)
        shutil.copy(os.path.join(d, "id.pub"), os.path.join(d, "keys"))
        port = free_port()
        with open(os.path.join(d, "config"), "w") as f:
            f.write("ListenAddress 127.0.0.1:%d\nHostKey %s/host\n"
                    "AuthorizedKeysFile %s/keys\nPasswordAuthentication no\n"
                    "StrictModes no\nPidFile %s/pid\n"
                    # scp speaks SFTP to the server since OpenSSH 9.
                    "Subsystem sftp internal-sftp\n" % (port, d, d, d))
        os.makedirs("/run/sshd", exist_ok=True)
        proc = subprocess.Popen([sshd, "-D", "-e", "-f",
                                 os.path.join(d, "config")],
                                stderr=subprocess.DEVNULL)
        try:
            hbtest.wait_for(lambda: listening(port), "sshd listening",
                            timeout=30)
            yield port, d
        finally:
            proc.terminate()
            proc.wait(timeout=5)


SCP = ("scp -B %s -P %d -i %s/id -o StrictHostKeyChecking=no "
       "-o UserKnownHostsFile=/dev/null -c {cipher} -o Compression=no "
       "{file} 127.0.0.1:/dev/null")


def test_scp_cipher_list_over_a_private_sshd():
    with private_sshd() as (port, d):
        rc, results = run_suite("""
[scp]
target = transfer/command
command = %s
cipher = aes128-ctr, aes256-gcm@openssh.com, chacha20-poly1305@openssh.com
file_size = 4M
duration = 1ms
""" % (SCP % ("-q", port, d)))
        expect(rc == 0, "exit %d: %r" % (rc, [r["reason"] for r in
                                             results]))
        expect([r["params"]["cipher"] for r in results] ==
               ["aes128-ctr", "aes256-gcm@openssh.com",
                "chacha20-poly1305@openssh.com"], "cases")
        for r in results:
            expect(r["status"] == "ok", r["reason"])
            expect(r["sample_details"][0]["bytes"] == 4 << 20,
                   "bytes per sample %r" % r["sample_details"][0])
            expect("tool_seconds" not in r["sample_details"][0],
                   "the whole command's time: %r" % r["sample_details"][0])


def test_scp_timed_by_ssh_is_over_sshs_own_session():
    with private_sshd() as (port, d):
        rc, results = run_suite("""
[scp]
target = transfer/command
command = %s
cipher = aes128-ctr, chacha20-poly1305@openssh.com
file_size = 4M
duration = 1ms
timed_by = ssh
""" % (SCP % ("-v", port, d)))
        expect(rc == 0, "exit %d: %r" % (rc, [r["reason"] for r in
                                             results]))
        for r in results:
            expect(r["status"] == "ok", r["reason"])
            rates = []
            for s in r["sample_details"]:
                # ssh's session leaves out scp's start and the handshake
                expect(0 < s["tool_seconds"] < s["seconds"], s)
                rates.append(s["bytes"] / s["tool_seconds"])
            rates.sort()
            median = (rates[(len(rates) - 1) // 2] +
                      rates[len(rates) // 2]) / 2
            expect(abs(median / r["stats"]["median"] - 1) < 1e-9,
                   (rates, r["stats"]))
            expect(r["info"]["timed_by"] == "ssh's session (ssh -v)",
                   r["info"])


SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../..")


def test_docs_private_sshd_without_systemd_serves_the_scp_preset():
    """docs/transfer.md's sshd set-up, run as written: no systemd."""
    if not os.path.exists("/usr/sbin/sshd") or not shutil.which("scp") or \
            os.geteuid() != 0:
        raise hbtest.Skip("needs root, sshd and scp")
    doc = open(os.path.join(SOURCE, "docs", "transfer.md")).read()
    blocks = [b for b in re.findall(r"```sh\n(.*?)```", doc, re.S)
              if "/usr/sbin/sshd -f" in b]
    expect(len(blocks) == 1, "one sshd block in docs/transfer.md")
    script = blocks[0].replace("port=2222", "port=%d" % free_port())
    with tempfile.TemporaryDirectory() as out:
        report = os.path.join(out, "r.json")
        # the preset as the doc runs it, made small: 4M, two ciphers, one
        # copy each; the sshd it started is stopped however it ends
        prelude = ('trap \'kill $(cat "$d/sshd.pid" 2>/dev/null) '
                   '2>/dev/null\' EXIT\n'
                   'hostbench() { "%s" "$@" --set file_size=4M '
                   '--set warmup=0 --set repetitions=1 --set '
                   '"scp.cipher=aes128-ctr, chacha20-poly1305@openssh.com" '
                   '--format json -o %s --no-store; }\nset -e\n'
                   % (HOSTBENCH, report))
        p = subprocess.run(["bash", "-c", prelude + script], cwd=SOURCE,
                           capture_output=True, text=True, timeout=110)
        expect(p.returncode == 0 and "ready" in p.stdout,
               "exit %d: %s %s" % (p.returncode, p.stdout, p.stderr))
        results = json.load(open(report))["results"]
        expect([(r["params"]["cipher"], r["status"]) for r in results] ==
               [("aes128-ctr", "ok"), ("chacha20-poly1305@openssh.com",
                                       "ok")],
               [(r["params"]["cipher"], r["reason"]) for r in results])


if __name__ == "__main__":
    hbtest.main()
