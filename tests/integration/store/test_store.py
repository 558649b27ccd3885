# SPDX-License-Identifier: Apache-2.0
"""The results store end to end, on SQLite and on PostgreSQL alike.

Usage: test_store.py NAME HOSTBENCH
Runs test_NAME. PostgreSQL is a private server the test starts (initdb and
pg_ctl on a Unix socket in a temporary directory, as the postgres user
when run as root) and stops at the end.
"""
import atexit
import csv
import glob
import io
import json
import lzma
import os
import pwd
import resource
import shutil
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB = hbtest.args("HOSTBENCH")
WORK = tempfile.mkdtemp(prefix="hb-store-")
atexit.register(shutil.rmtree, WORK, ignore_errors=True)
os.chmod(WORK, 0o755)
HOSTILE = "x'); DROP TABLE result;--"
PASSWORD = "s3cretPW-9f2"
# a lab password libpq takes in a URL as it is: '?' and '#' are no query
# nor fragment in the user info, which runs to the first '@'
LAB_PASSWORD = "pa?ss#w0rd-SECRET"
EXIT_STORE = 4

SUITE = """[global]
duration = 10ms
repetitions = 3
warmup = 0

[fill]
target = mem/memset
size = 64K
"""


def path(name):
    return os.path.join(WORK, name)


def run(*args, env=None, preexec=None):
    """Run hostbench; return (status, stdout, stderr)."""
    e = dict(os.environ, XDG_DATA_HOME=path("xdg"))
    e.pop("HOSTBENCH_STORE", None)
    e.update(env or {})
    p = subprocess.run([HB, *args], capture_output=True, text=True,
                       timeout=150, env=e, preexec_fn=preexec)
    return p.returncode, p.stdout, p.stderr


def suite():
    with open(path("suite.ini"), "w") as f:
        f.write(SUITE)
    return path("suite.ini")


def sqlite_url(name="results.db"):
    return "sqlite:" + path(name)


def pg_bin(name):
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise hbtest.Skip("postgresql is not installed (.ci/setup --tests)")
    return found[-1]


def pg_user():
    """The servers' superuser: postgres as root, else the test's user."""
    return "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid())[0]


def as_postgres(cmd):
    """cmd as the postgres user when root (postgres refuses root)."""
    if os.geteuid() != 0:
        return cmd
    return ["runuser", "-u", "postgres", "--", *cmd]


def pg_start(name, initdb, options, prepare=None):
    """A private PostgreSQL server in WORK/<name>data, its Unix socket in
    WORK/<name>sock (stopped at exit): initdb with the arguments initdb,
    prepare(data) (may be None) returns more of the server's options, and
    it starts with options. (data, sock)."""
    data, sock = path(name + "data"), path(name + "sock")
    os.makedirs(sock, exist_ok=True)
    if os.geteuid() == 0:
        pw = pwd.getpwnam("postgres")
        os.chown(sock, pw.pw_uid, pw.pw_gid)
        os.makedirs(data, exist_ok=True)
        os.chown(data, pw.pw_uid, pw.pw_gid)
    subprocess.run(as_postgres([pg_bin("initdb"), "-D", data, "-U",
                                pg_user(), *initdb]), check=True,
                   capture_output=True, timeout=120)
    options += prepare(data) if prepare else ""
    subprocess.run(as_postgres([pg_bin("pg_ctl"), "-D", data, "-w", "-l",
                                os.path.join(data, "log"), "-o",
                                f"-k {sock} {options}", "start"]),
                   check=True, capture_output=True, timeout=120)
    atexit.register(subprocess.run, as_postgres(
        [pg_bin("pg_ctl"), "-D", data, "-m", "immediate", "stop"]),
        capture_output=True)
    return data, sock


def pg_server():
    """A private PostgreSQL server; its URL (with a password in it)."""
    _, sock = pg_start("pg", ["-A", "trust"], "-c listen_addresses=''")
    return f"postgresql://{pg_user()}:{PASSWORD}@/postgres?host={sock}"


def free_port():
    """A TCP port of 127.0.0.1 that no one listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tls_only(data):
    """The server in data takes TCP clients over TLS only: a self-signed
    certificate for 127.0.0.1 and its key in data; its -c options."""
    hba = os.path.join(data, "pg_hba.conf")
    with open(hba) as f:
        rules = f.read().replace("\nhost ", "\nhostssl ")
    with open(hba, "w") as f:
        f.write(rules)
    subprocess.run(as_postgres(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
         "-days", "1", "-subj", "/CN=127.0.0.1", "-addext",
         "subjectAltName=IP:127.0.0.1", "-keyout",
         os.path.join(data, "server.key"), "-out",
         os.path.join(data, "server.crt")]),
        check=True, capture_output=True, timeout=60)
    return (f" -c ssl=on -c ssl_cert_file={data}/server.crt"
            f" -c ssl_key_file={data}/server.key")


def pg_lab_server(tls=False):
    """A private PostgreSQL server on 127.0.0.1 that asks for passwords
    (scram-sha-256), with user lab (password LAB_PASSWORD) owning database
    results, over TLS only if tls (labdata/server.crt); its port."""
    port = free_port()
    _, sock = pg_start("lab", ["--auth-local=trust",
                               "--auth-host=scram-sha-256"],
                       f"-p {port} -c listen_addresses=127.0.0.1",
                       tls_only if tls else None)
    psql(sock, port, pg_user(), "CREATE ROLE lab LOGIN PASSWORD "
         f"'{LAB_PASSWORD}'", "CREATE DATABASE results OWNER lab")
    return port


def psql(sock, port, user, *sql, db="postgres"):
    """Run each statement of sql on the server at socket directory sock;
    the output of the last, unaligned."""
    out = ""
    for q in sql:
        out = subprocess.run(as_postgres(
            [pg_bin("psql"), "-h", sock, "-p", str(port), "-U", user, "-d",
             db, "-v", "ON_ERROR_STOP=1", "-tAc", q]),
            check=True, capture_output=True, text=True, timeout=60).stdout
    return out.strip()


def lab_url(port, userinfo=f"lab:{LAB_PASSWORD}", query=""):
    return f"postgresql://{userinfo}@127.0.0.1:{port}/results{query}"


def everything_shown(url):
    """What a lab sees of the store at url: run's output and report, the
    history as text, JSON and HTML, every page of the dashboard."""
    status, out, err = run("run", suite(), "--store", url, "-f", "json",
                           "-o", path("shown.json"))
    expect(status == 0 and "stored in" in err, f"run: exit {status}: {err}")
    shown = [out, err, open(path("shown.json")).read()]
    for fmt in ("text", "json", "html"):
        status, out, err = run("history", "--store", url, "-f", fmt)
        expect(status == 0, f"history -f {fmt}: exit {status}: {err}")
        shown += [out, err]
    status, out, err = run("dashboard", "--store", url, "-o", path("dash"))
    expect(status == 0, f"dashboard: exit {status}: {err}")
    shown += [out, err]
    for d, _, files in os.walk(path("dash")):
        shown += [open(os.path.join(d, f), errors="replace").read()
                  for f in files]
    expect(any("index.html" in f for _, _, f in os.walk(path("dash"))),
           "the dashboard has its index.html")
    return "\n".join(shown)


def stored_report_text(port):
    """Every report the lab server's store holds, as stored."""
    return psql(path("labsock"), port, pg_user(),
                "SELECT string_agg(report, ' ') FROM run", db="results")


# The protocol's requests (PostgreSQL's "Message Flow").
SSL_REQUEST, GSSENC_REQUEST = 80877103, 80877104


def auth_request(code, data=b""):
    """An AuthenticationRequest message: 3 clear text, 5 MD5, 10 SASL."""
    return b"R" + struct.pack("!II", 8 + len(data), code) + data


CLEARTEXT = auth_request(3)
MD5 = auth_request(5, b"salt")
SASL = auth_request(10, b"SCRAM-SHA-256\0\0")


class Impostor:
    """Something listening on 127.0.0.1 that is not the lab's server: per
    connection, answer(conn) does what it does (conn has the client's
    startup message read, SSLRequest answered 'N', when answer is given
    through ask()). Every message the client sends after its startup
    message is kept in messages, as (type, body)."""

    def __init__(self, answer):
        self.answer = answer
        self.messages = []
        self.connections = 0
        self.held = []
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            conn, _ = self.sock.accept()
            self.connections += 1
            self.held.append(conn)  # open until the test ends
            threading.Thread(target=self.answer, args=(self, conn),
                             daemon=True).start()

    def got(self):
        return b"".join(t + b for t, b in self.messages)


def recv_exact(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def startup(conn):
    """Read the client's startup message, answering 'N' (no TLS) to an
    SSLRequest or GSSENCRequest before it."""
    while True:
        n, code = struct.unpack("!II", recv_exact(conn, 8))
        if code not in (SSL_REQUEST, GSSENC_REQUEST):
            recv_exact(conn, n - 8)
            return
        conn.sendall(b"N")


def ask(request):
    """An impostor's answer: after the startup message, send request (one
    or more messages at once), then keep what the client sends until it
    closes or says nothing for a second."""
    def answer(imp, conn):
        try:
            startup(conn)
            conn.sendall(request)
            conn.settimeout(1)
            while True:
                kind = recv_exact(conn, 1)
                n = struct.unpack("!I", recv_exact(conn, 4))[0]
                imp.messages.append((kind, recv_exact(conn, n - 4)))
        except (EOFError, OSError):
            pass
        conn.close()
    return answer


def silent(imp, conn):
    """An impostor's answer: accept, then never say anything."""


def hang_up(imp, conn):
    """An impostor's answer: close at once."""
    conn.close()


def store_run(url, timeout=150):
    """A run storing at url: (status, stderr), the report kept out of the
    way."""
    e = dict(os.environ, XDG_DATA_HOME=path("xdg"))
    p = subprocess.run([HB, "run", suite(), "--store", url, "-o",
                        path("imp.txt")], capture_output=True, text=True,
                       timeout=timeout, env=e)
    return p.returncode, p.stderr


def measured():
    """One real run's JSON report (stored nowhere)."""
    status, _, err = run("run", suite(), "-f", "json", "-o",
                         path("base.json"), "--no-store")
    expect(status == 0, f"run: exit {status}: {err}")
    return json.load(open(path("base.json")))


def variant(doc, name, host=None, target=None, scale=1.0):
    """A copy of doc as another run: its own file, optionally renamed."""
    d = json.loads(json.dumps(doc))
    d.pop("run", None)
    if host:
        d["system"]["hostname"] = host
    for r in d["results"]:
        if target:
            r["target"] = target
        if r["status"] == "ok":
            r["samples"] = [v * scale for v in r["samples"]]
            for k in ("median", "min", "max", "mean", "ci95_low",
                      "ci95_high", "p25", "p75"):
                r["stats"][k] *= scale
            for s in r["sample_details"]:
                s["bytes"] *= scale
            # a slower run is slower per CPU-second too: a starved series
            # is judged by that figure (docs/history.md)
            if "bytes_per_cpu_second" in r:
                r["bytes_per_cpu_second"] *= scale
    d["saved_as"] = name  # another file: another run's bytes
    with open(path(name), "w") as f:
        json.dump(d, f)
    return path(name)


def history(url, *args):
    status, out, err = run("history", "--store", url, "-f", "json", *args)
    expect(status == 0, f"history: exit {status}: {err}")
    return json.loads(out)


def points(doc):
    return sum(len(s["points"]) for s in doc["series"])


# -- behaviours, each run on both backends by the tests below ---------------

def stores_and_says_where(url):
    status, out, err = run("run", suite(), "--store", url, "-f", "json",
                           "-o", path("r.json"))
    expect(status == 0, f"run: exit {status}: {err}")
    lines = [ln for ln in err.splitlines() if "stored in" in ln]
    expect(len(lines) == 1, f"one line says where: {err!r}")
    uuid = lines[0].split("(run ")[1].rstrip(")")
    doc = history(url)
    runs = {p["run"] for s in doc["series"] for p in s["points"]}
    expect(uuid in runs, f"run {uuid} in the history: {runs}")
    expect(PASSWORD not in err + out, "no password in the run's output")
    expect(PASSWORD not in open(path("r.json")).read(), "none in report")


def import_is_idempotent(url):
    base = measured()
    files = [variant(base, f"v{i}.json") for i in range(3)]
    status, _, err = run("store", "import", *files, "--store", url)
    expect(status == 0 and "3 new runs" in err, f"first import: {err}")
    status, _, err = run("store", "import", *files, "--store", url)
    expect(status == 0 and "0 new runs" in err, f"second import: {err}")
    expect(points(history(url)) == 3 * len(base["results"]),
           "each result once")


def other_tools_results_stored(url):
    """fio files of two fio versions (tests/fixtures/import): a run each,
    their figures in their units and directions, the upgrade a context
    change, and a second import nothing new (docs/interop.md)."""
    fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "../../fixtures/import")
    base = json.load(open(os.path.join(fixtures, "fio-2.json")))
    files = []
    for i, version in enumerate(("fio-3.33", "fio-3.35")):
        base["fio version"] = version
        base["timestamp"] = 1700000000 + 60 * i
        files.append(path(f"fio-{i}.json"))
        with open(files[-1], "w") as f:
            json.dump(base, f)
    args = ("store", "import", "--from", "fio", "--host", "lab-io",
            *files, "--store", url)
    status, _, err = run(*args)
    expect(status == 0 and "2 new runs" in err, f"first import: {err}")
    status, _, err = run(*args)
    expect(status == 0 and "0 new runs" in err, f"second import: {err}")
    doc = history(url, "--host", "lab-io")
    p99 = [s for s in doc["series"] if s["figure"] == "clat_p99"]
    expect(len(p99) == 1 and p99[0]["unit"] == "ns" and
           p99[0]["better"] == "lower" and len(p99[0]["points"]) == 2,
           p99)
    expect(p99[0]["contexts"][1]["changed"] == ["fio 3.33 -> 3.35"],
           p99[0]["contexts"])


def test_other_tools_results_stored_sqlite():
    other_tools_results_stored(sqlite_url())


def test_other_tools_results_stored_postgresql():
    other_tools_results_stored(pg_server())


def hostile_names_stored_and_read_back(url):
    f = variant(measured(), "hostile.json", host=HOSTILE, target=HOSTILE)
    status, _, err = run("store", "import", f, "--store", url)
    expect(status == 0, f"import: exit {status}: {err}")
    doc = history(url, "--host", HOSTILE)
    expect([h["name"] for h in doc["hosts"]] == [HOSTILE], "host read back")
    expect(all(s["case"]["target"] == HOSTILE for s in doc["series"])
           and doc["series"], "target read back")
    status, _, err = run("store", "import", variant(measured(), "n.json"),
                         "--store", url)
    expect(status == 0, f"result table still there: {err}")


def regression_acknowledged(url):
    base = measured()
    files = [variant(base, f"s{i:02}.json", scale=1.0 + 0.002 * (i % 3))
             for i in range(12)]
    files += [variant(base, f"t{i:02}.json", scale=0.7 + 0.002 * (i % 3))
              for i in range(12)]
    for i, f in enumerate(files):  # a report without "run": its file's time
        os.utime(f, (1.7e9 + 3600 * i, 1.7e9 + 3600 * i))
    status, _, err = run("store", "import", *files, "--store", url)
    expect(status == 0, f"import: {err}")
    status, out, err = run("regressions", "--store", url, "-f", "json",
                           "--fail")
    expect(status == 1, f"--fail with an open regression: {status} {err}")
    changes = [c for s in json.loads(out)["series"] for c in s["changes"]
               if c["kind"] == "regression"]
    expect(changes, "a regression found")
    for c in changes:
        status, _, err = run("regressions", "--store", url, "--ack", c["id"])
        expect(status == 0, f"--ack: {err}")
    status, out, err = run("regressions", "--store", url, "-f", "json",
                           "--fail")
    expect(status == 0, f"acknowledged: exit {status}: {err}")


def import_ok(url, *files):
    status, _, err = run("store", "import", *files, "--store", url)
    expect(status == 0, f"import: exit {status}: {err}")


def sql(url, statement):
    """Run one SQL statement on the store at url (SQLite or PostgreSQL)."""
    if url.startswith("sqlite:"):
        db = sqlite3.connect(url[len("sqlite:"):])
        db.execute(statement)
        db.commit()
        db.close()
        return
    sock = url.split("?host=")[1]
    subprocess.run(as_postgres([pg_bin("psql"), "-h", sock, "-d", "postgres",
                                "-v", "ON_ERROR_STOP=1", "-c", statement]),
                   check=True, capture_output=True, timeout=60)


OSSL_CPU = ("AES-NI on, VAES on, AVX2 on; "
            "OPENSSL_ia32cap=0xfffa3203078bffff:0x405fc6f1bf07ab")


def of_context(doc, name, new, scale, when):
    """A copy of doc as a run in the old or the new context, at when."""
    d = json.loads(json.dumps(doc))
    d["run"] = {"uuid": "00000000-0000-4000-8000-%012d" % when,
                "started": "2026-11-%02dT10:00:00.000Z" % (when + 1)}
    d["system"]["kernel"] = ("Linux 6.18.44-fc #1 SMP" if new else
                             "Linux 6.1.0-18-amd64 #1 SMP Debian")
    version = "3.0.19 27 Jan 2026" if new else "3.0.17 1 Jul 2025"
    cpu = (OSSL_CPU.replace("AES-NI on", "AES-NI off") + " env:~0x2000000"
           if new else OSSL_CPU)
    d["libraries"] = {"openssl": {"OpenSSL": version, "OpenSSL CPU": cpu},
                      "transfer": {"OpenSSL": version}}
    for r in d["results"]:
        if r["status"] == "ok":
            r["samples"] = [1e9 * scale * (1 + 0.001 * k) for k in range(3)]
            r["flags"] = {}
    with open(path(name), "w") as f:
        json.dump(d, f)
    return path(name)


CHANGED = ["kernel 6.1 -> 6.18", "OpenSSL 3.0.17 -> 3.0.19",
           "OpenSSL CPU: AES-NI on -> off (OPENSSL_ia32cap)"]


def context_change_said_in_words(url):
    base = measured()
    import_ok(url, *[of_context(base, f"ctx{i:02}.json", i >= 6,
                                0.3 if i >= 6 else 1.0, i)
                     for i in range(12)])
    doc = history(url)
    ctxs = doc["series"][0]["contexts"]
    expect(len(ctxs) == 2 and ctxs[1]["changed"] == CHANGED,
           f"the second context says what changed: {ctxs}")
    status, text, err = run("history", "--store", url)
    expect(status == 0, f"history: {err}")
    expect("; ".join(CHANGED) in text, f"history text says it: {text}")
    status, out, err = run("regressions", "--store", url, "-f", "html")
    expect(status == 0, f"regressions: {err}")
    expect("at a context change: kernel 6.1 -&gt; 6.18" in out,
           f"the step at the change says what changed: {out}")
    status, _, err = run("dashboard", "--store", url, "-o", path("dash"))
    expect(status == 0, f"dashboard: {err}")
    page = open(glob.glob(path("dash/host-*.html"))[0]).read()
    expect("context-label\">kernel 6.1 -&gt; 6.18; OpenSSL 3.0.17 -&gt; "
           "3.0.19" in page, "the chart's rule says what changed")


def with_jobs(doc, jobs):
    """doc with its first result once per job name (a series each)."""
    d = json.loads(json.dumps(doc))
    first = [r for r in d["results"] if r["status"] == "ok"][0]
    d["results"] = []
    for job in jobs:
        r = json.loads(json.dumps(first))
        r["job"] = r["title"] = job
        d["results"].append(r)
    return d


def series_rows(text):
    """The data rows of the text history's series table."""
    block = text.split("[Series]")[1].split("\n\n")[0]
    return [ln for ln in block.splitlines()[1:]
            if ln.strip() and not set(ln) <= set("- ")][1:]


def open_regressions_first_and_steps_in_sight(url):
    base = with_jobs(measured(), ["a-flat", "b-flat", "c-flat", "d-flat",
                                  "e-step"])
    files = []
    for i in range(24):
        d = json.loads(json.dumps(base))
        d["run"] = {"uuid": "00000000-0000-4000-8000-%012d" % i,
                    "started": "2026-10-%02dT10:00:00.000Z" % (i + 1)}
        for r in d["results"]:
            step = r["job"] == "e-step" and i >= 12
            r["samples"] = [1e9 * (0.05 if step else 1.0) *
                            (1 + 0.002 * ((i + k) % 3)) for k in range(3)]
            r["stats"].update(median=sorted(r["samples"])[1],
                              ci95_low=min(r["samples"]),
                              ci95_high=max(r["samples"]))
            r["flags"] = {}
        with open(path(f"o{i:02}.json"), "w") as f:
            json.dump(d, f)
        files.append(path(f"o{i:02}.json"))
    import_ok(url, *files)
    status, text, err = run("regressions", "--store", url)
    expect(status == 0, f"regressions: {err}")
    rows = series_rows(text)
    expect(len(rows) == 5 and "e-step" in rows[0],
           f"the open regression's series first: {rows}")
    expect("-95.0% regression (new)" in rows[0], f"its step: {rows[0]}")
    doc = json.loads(run("regressions", "--store", url, "-f", "json")[1])
    for s in doc["series"]:
        for c in s["changes"]:
            run("regressions", "--store", url, "--ack", c["id"])
    noisy = json.loads(json.dumps(base))  # a newest run of noisy figures
    noisy["run"] = {"uuid": "00000000-0000-4000-8000-000000000099",
                    "started": "2026-10-30T10:00:00.000Z"}
    for r in noisy["results"]:
        r["samples"] = [1e9 * (0.05 if r["job"] == "e-step" else 1.0) * v
                        for v in (0.7, 1.0, 1.3)]
        r["flags"] = {"noisy": True}
    with open(path("o99.json"), "w") as f:
        json.dump(noisy, f)
    import_ok(url, path("o99.json"))
    status, text, err = run("regressions", "--store", url)
    row = [r for r in series_rows(text) if "e-step" in r][0]
    expect("inconclusive" in row and
           "-95.0% regression (acknowledged)" in row,
           f"an inconclusive newest run hides no acknowledged step: {row}")


def bad_results_never_break_the_store(url):
    base = with_jobs(measured(), ["kept", "other"])
    files = []
    for i in range(8):
        d = json.loads(json.dumps(base))
        d["run"] = {"uuid": "00000000-0000-4000-8000-1%011d" % i,
                    "started": "2026-09-%02dT10:00:00.000Z" % (i + 1)}
        for r in d["results"]:
            r["samples"] = [1e9, 2e9, 3e9]
            r["stats"]["median"] = 9e9  # the samples say otherwise
            r["flags"] = {}
        if i == 7:  # a run whose "kept" result has no stats
            del d["results"][0]["stats"]
            del d["results"][0]["ops_stats"]
        with open(path(f"b{i}.json"), "w") as f:
            json.dump(d, f)
        files.append(path(f"b{i}.json"))
    import_ok(url, *files)
    doc = history(url)
    pts = [p for s in doc["series"] for p in s["points"]]
    expect(len(pts) == 16 and {p["median"] for p in pts} == {2e9} and
           {p["n"] for p in pts} == {3},
           f"the samples' median, n their number: "
           f"{[(p['median'], p['n']) for p in pts]}")
    # a result without params: refused by name, nothing of the file stored
    d = json.loads(json.dumps(base))
    d["run"] = {"uuid": "00000000-0000-4000-8000-200000000000",
                "started": "2026-09-20T10:00:00.000Z"}
    del d["results"][1]["params"]
    with open(path("noparams.json"), "w") as f:
        json.dump(d, f)
    status, _, err = run("store", "import", path("noparams.json"),
                         "--store", url)
    expect(status == 2 and
           f"{path('noparams.json')}: results[1]: no params" in err and
           "out of memory" not in err, f"no params: exit {status}: {err}")
    expect(len([p for s in history(url)["series"] for p in s["points"]])
           == 16, "nothing of that file stored")
    # a failed result without stats is fine, and no point
    d["run"]["uuid"] = "00000000-0000-4000-8000-300000000000"
    d["results"][1]["params"] = base["results"][1]["params"]
    d["results"][1].update(status="failed", reason="boom", samples=[])
    del d["results"][1]["stats"]
    with open(path("failed.json"), "w") as f:
        json.dump(d, f)
    import_ok(url, path("failed.json"))
    expect(len([p for s in history(url)["series"] for p in s["points"]])
           == 17, "the failed result is no point")
    # a stored point without a median (an older store): skipped, named
    sql(url, "UPDATE result SET median = NULL WHERE run = "
        "'00000000-0000-4000-8000-100000000003' AND bcase IN "
        "(SELECT id FROM bcase WHERE job = 'kept')")
    status, out, err = run("regressions", "--store", url, "-f", "json")
    expect(status == 0, f"regressions with a null median: {status} {err}")
    lines = [ln for ln in err.splitlines() if "left out" in ln]
    expect(len(lines) == 1 and
           "00000000-0000-4000-8000-100000000003" in lines[0] and
           "kept" in lines[0], f"one line names the run and case: {err}")
    judged = [s["newest"]["verdict"] for s in json.loads(out)["series"]]
    expect(len(judged) == 2 and all(judged), f"both judged: {judged}")


def selectors_say_what_they_matched(url):
    status, out, err = run("history", "--store", url, "--host", "nosuch")
    expect(status == 0, f"an empty store: nothing to match: {status} {err}")
    base = measured()
    import_ok(url, variant(base, "sel.json"))
    for bad in ("yesterday", "2026-13-45", "2026-02-30T10:00"):
        for opt in ("--since", "--until"):
            status, out, err = run("history", "--store", url, opt, bad)
            expect(status == 2 and out == "" and
                   f'{opt} "{bad}": not a date; expected YYYY-MM-DD' in err,
                   f"{opt} {bad}: exit {status}: {err}")
    status, out, err = run("history", "--store", url, "--host", "nosuch")
    expect(status == 2 and '--host "nosuch" matches nothing' in err and
           "hosts (name or id): " + base["system"]["hostname"] in err,
           f"--host: exit {status}: {err}")
    status, out, err = run("history", "--store", url, "--case", "zz*")
    expect(status == 2 and "jobs: fill" in err, f"--case: {status} {err}")
    status, out, err = run("history", "--store", url, "--label", "nightly")
    expect(status == 2 and "no labels" in err, f"--label: {status} {err}")
    status, out, err = run("regressions", "--store", url, "--host", "x")
    expect(status == 2, f"regressions --host x: {status} {err}")
    doc = history(url, "--until", "2000-01-01")
    expect(points(doc) == 0, "--until before every run: no point")
    doc = history(url, "--since", "2000-01-01T00:00+02:00")
    expect(points(doc) == len([r for r in base["results"]
                               if r["status"] == "ok"]),
           "--since with a zone")


def stored_run_renders_as_its_file(url):
    status, _, err = run("run", suite(), "--store", url, "-f", "json",
                         "-o", path("kept.json"))
    expect(status == 0, f"run: exit {status}: {err}")
    with open(path("kept.json")) as f:
        uuid = json.load(f)["run"]["uuid"]
    for fmt in ("text", "md", "html", "csv", "json"):
        _, want, _ = run("report", path("kept.json"), "-f", fmt)
        status, out, err = run("report", uuid, "--store", url, "-f", fmt)
        expect(status == 0 and out == want and out,
               f"report {uuid} -f {fmt}: exit {status}: {err}")
    status, _, err = run("report", "0" * 8 + "-0000-0000-0000-" + "0" * 12,
                         "--store", url)
    expect(status == 2 and "no run" in err, f"an unknown run: {err}")


# -- SQLite -----------------------------------------------------------------

def test_run_stores_and_says_where_sqlite():
    stores_and_says_where(sqlite_url())


def test_run_stores_in_the_default_place():
    status, _, err = run("run", suite(), "-o", path("r.txt"))
    expect(status == 0, f"run: {err}")
    db = path("xdg/hostbench/results.db")
    expect(f"stored in sqlite:{db}" in err, f"says where: {err}")
    expect(os.stat(db).st_mode & 0o777 == 0o600, "database file is 0600")


def test_no_store_keeps_nothing():
    status, _, err = run("run", suite(), "--no-store", "-o", path("r.txt"))
    expect(status == 0 and "stored" not in err, f"run: {err}")
    expect(not os.path.exists(path("xdg/hostbench/results.db")), "no db")


def test_store_no_in_the_suite_keeps_nothing():
    with open(path("nostore.ini"), "w") as f:
        f.write(SUITE.replace("[global]\n", "[global]\nstore = no\n"))
    status, _, err = run("run", path("nostore.ini"), "-o", path("r.txt"))
    expect(status == 0 and "stored" not in err, f"run: {err}")
    expect(not os.path.exists(path("xdg/hostbench/results.db")), "no db")
    status, _, err = run("run", suite(), "--set", "store=maybe")
    expect(status == 2 and "store" in err, f"a bad value: {status} {err}")


def test_import_is_idempotent_sqlite():
    import_is_idempotent(sqlite_url())


def test_hostile_names_sqlite():
    hostile_names_stored_and_read_back(sqlite_url())


def test_regression_acknowledged_sqlite():
    regression_acknowledged(sqlite_url())


def test_four_runs_at_once_lose_nothing():
    url = sqlite_url()
    e = dict(os.environ, XDG_DATA_HOME=path("xdg"))
    procs = [subprocess.Popen([HB, "run", suite(), "--store", url, "-o",
                               path(f"r{i}.txt")], env=e,
                              stderr=subprocess.PIPE, text=True)
             for i in range(4)]
    for p in procs:
        _, err = p.communicate(timeout=150)
        expect(p.returncode == 0 and "stored in" in err, f"run: {err}")
    db = sqlite3.connect(path("results.db"))
    expect(db.execute("SELECT count(*) FROM run").fetchone()[0] == 4,
           "four runs stored")


def stored_runs(db):
    """Runs the SQLite store db holds now (0 before it has its tables); it
    is read as another reader would, beside a writer (WAL)."""
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
            return c.execute("SELECT count(*) FROM run").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_kill_during_import_leaves_db_consistent():
    base = measured()
    files = [variant(base, f"k{i:03}.json") for i in range(150)]
    url = sqlite_url()
    killed = 0
    for _ in range(3):
        before = stored_runs(path("results.db"))
        p = subprocess.Popen([HB, "store", "import", *files, "--store", url],
                             stderr=subprocess.DEVNULL)
        # killed once it has stored a run of its own, whatever the time
        # that took: mid-import, with the rest of the files to go
        hbtest.wait_for(lambda: p.poll() is not None
                        or stored_runs(path("results.db")) > before,
                        "the import stores a run")
        p.send_signal(signal.SIGKILL)
        killed += p.wait() == -signal.SIGKILL
    expect(killed > 0, "every import ended before it was killed")
    db = sqlite3.connect(path("results.db"))
    expect(db.execute("PRAGMA integrity_check").fetchone()[0] == "ok",
           "integrity_check ok")
    partial = db.execute(
        "SELECT count(*) FROM run r WHERE (SELECT count(*) FROM result x "
        "WHERE x.run = r.uuid) != ?", (len(base["results"]),)).fetchone()[0]
    expect(partial == 0, f"{partial} runs stored in part")


def stored_reports(db):
    """Each stored run's report, by its uuid: xz in report_z (schema
    4), or its text in report (a run stored before)."""
    return {u: json.loads(lzma.decompress(z) if z is not None else t)
            for u, t, z in
            db.execute("SELECT uuid, report, report_z FROM run").fetchall()}


def test_stored_run_renders_as_its_file_sqlite():
    stored_run_renders_as_its_file(sqlite_url())
    db = sqlite3.connect(path("results.db"))
    kept = db.execute("SELECT report, length(report_z) FROM run").fetchall()
    expect(all(t == "" and n for t, n in kept), f"kept compressed: {kept}")


def as_version_3(db):
    """db as version 3 made it: each report's text in report, no report_z;
    the samples in a table of their own, none in the result row."""
    for uuid, z in db.execute("SELECT uuid, report_z FROM run").fetchall():
        db.execute("UPDATE run SET report = ? WHERE uuid = ?",
                   (lzma.decompress(z).decode(), uuid))
    rows = db.execute("SELECT run, bcase, figure, samples FROM result"
                      ).fetchall()
    db.executescript("""
        ALTER TABLE run DROP COLUMN report_z;
        CREATE TABLE sample (run TEXT NOT NULL, bcase TEXT NOT NULL,
            figure TEXT NOT NULL, idx INTEGER NOT NULL,
            value DOUBLE PRECISION, PRIMARY KEY (run, bcase, figure, idx),
            FOREIGN KEY (run, bcase, figure)
            REFERENCES result(run, bcase, figure)) WITHOUT ROWID;
        CREATE TABLE r3 (run TEXT NOT NULL REFERENCES run(uuid),
            bcase TEXT NOT NULL REFERENCES bcase(id), figure TEXT NOT NULL,
            unit TEXT, better TEXT NOT NULL, status TEXT NOT NULL,
            median DOUBLE PRECISION, ci_low DOUBLE PRECISION,
            ci_high DOUBLE PRECISION, n INTEGER, cv DOUBLE PRECISION,
            cpu_median DOUBLE PRECISION, flags TEXT,
            PRIMARY KEY (run, bcase, figure));
        INSERT INTO r3 SELECT run, bcase, figure, unit, better, status,
            median, ci_low, ci_high, n, cv, cpu_median, flags FROM result;
        DROP TABLE result;
        ALTER TABLE r3 RENAME TO result;
        CREATE INDEX result_series ON result (bcase, figure);
        DELETE FROM schema_version WHERE version > 3;
    """)
    for run_, bcase, figure, values in rows:
        for i, v in enumerate(json.loads(values or "[]")):
            db.execute("INSERT INTO sample VALUES (?, ?, ?, ?, ?)",
                       (run_, bcase, figure, i, v))
    db.commit()


def samples_by_result(db):
    """Each result's samples in order, by (run, case, figure)."""
    return {r[:3]: json.loads(r[3]) for r in db.execute(
        "SELECT run, bcase, figure, samples FROM result").fetchall()}


def old_samples(db):
    """The same from a version 3 database's sample table."""
    out = {}
    for r in db.execute("SELECT * FROM sample ORDER BY 1, 2, 3, 4"):
        out.setdefault(r[:3], []).append(r[4])
    return out


def test_a_version_3_store_keeps_its_reports_readable():
    url = sqlite_url()
    status, _, err = run("run", suite(), "--store", url, "-f", "json",
                         "-o", path("old.json"))
    expect(status == 0, f"run: {err}")
    db = sqlite3.connect(path("results.db"))
    (uuid,), = db.execute("SELECT uuid FROM run").fetchall()
    as_version_3(db)
    db.close()
    _, want, _ = run("report", path("old.json"), "-f", "md")
    status, out, err = run("report", uuid, "--store", url, "-f", "md")
    expect(status == 0 and out == want, f"the old run reads: {err}")
    status, _, err = run("run", suite(), "--store", url)
    expect(status == 0, f"a new run: {err}")
    db = sqlite3.connect(path("results.db"))
    expect(db.execute("SELECT max(version) FROM schema_version"
                      ).fetchone()[0] == 4, "now version 4")
    expect(len(stored_reports(db)) == 2, "both runs' reports")
    expect(all(len(v) == 3 for v in samples_by_result(db).values()),
           "each result's 3 samples, the old run's moved")


def test_a_result_row_holds_its_n_samples():
    status, _, err = run("run", suite(), "--store", sqlite_url())
    expect(status == 0, f"run: {err}")
    db = sqlite3.connect(path("results.db"))
    rows = db.execute("SELECT n, samples FROM result").fetchall()
    expect(rows and all(len(json.loads(s)) == n for n, s in rows),
           f"n is the number of samples kept in the row: {rows}")


def test_a_version_3_sample_that_was_none_moves_as_null():
    url = sqlite_url()
    status, _, err = run("run", suite(), "--store", url)
    expect(status == 0, f"run: {err}")
    db = sqlite3.connect(path("results.db"))
    as_version_3(db)
    key = db.execute("SELECT run, bcase, figure FROM sample WHERE idx = 1"
                     ).fetchone()
    db.execute("UPDATE sample SET value = NULL WHERE run = ? AND bcase = ? "
               "AND figure = ? AND idx = 1", key)
    db.commit()
    db.close()
    status, _, err = run("history", "--store", url)
    expect(status == 0, f"history migrates: {err}")
    db = sqlite3.connect(path("results.db"))
    moved = samples_by_result(db)[key]
    expect(len(moved) == 3 and moved[1] is None
           and all(isinstance(v, float) for v in moved[::2]),
           f"the sample that was none is null in its place: {moved}")


def test_report_of_a_stored_run_refuses_rank():
    status, _, err = run("report", "0" * 8 + "-0000-0000-0000-" + "0" * 12,
                         "--rank", "1", "--store", sqlite_url())
    expect(status == 2 and "--rank" in err and "one host's" in err,
           f"--rank with a stored run: {status} {err}")


def test_import_stores_each_report_as_read():
    base = measured()
    plain = variant(base, "plain.json")
    with open(plain) as f:
        doc = json.load(f)
    with open(plain, "w") as f:  # as `run -f json` writes it: indented
        json.dump(doc, f, indent=2)
    escaped = json.loads(json.dumps(doc))
    escaped["saved_as"] = "escaped"
    escaped["results"][0]["title"] = "t\x1b[31m\u00e9"
    with open(path("escaped.json"), "w") as f:
        json.dump(escaped, f)  # "\u001b", "\u00e9": escapes to read
    status, _, err = run("store", "import", plain, path("escaped.json"),
                         "--store", sqlite_url())
    expect(status == 0 and "2 new runs" in err, f"import: {err}")
    db = sqlite3.connect(path("results.db"))
    reports = list(stored_reports(db).values())
    expect(doc in reports, "the indented report stored as it reads")
    escaped["results"][0]["title"] = "t?[31m\u00e9"
    expect(escaped in reports, "the escaped one stored sanitized")
    medians = sorted(p["median"] for s in history(sqlite_url())["series"]
                     for p in s["points"])
    want = sorted(r["stats"]["median"] for d in (doc, escaped)
                  for r in d["results"] if r["status"] == "ok")
    expect(medians == want, f"history's medians {medians} are {want}")


def test_history_case_selects_its_series_only():
    base = measured()
    files = [variant(base, f"c{i}.json", target=t)
             for i, t in enumerate(("mem/memset", "other/thing") * 2)]
    status, _, err = run("store", "import", *files, "--store", sqlite_url())
    expect(status == 0, f"import: {err}")
    every = history(sqlite_url())
    some = history(sqlite_url(), "--case", "other/*")
    want = [s for s in every["series"] if s["case"]["target"] == "other/thing"]
    expect(want and some["series"] == want,
           f"--case selects the other target's series, same points: "
           f"{[s['case']['target'] for s in some['series']]}")


def test_run_label_is_kept_shown_and_selects():
    url = sqlite_url()
    status, _, err = run("run", suite(), "--store", url, "--label",
                         "nightly 7", "-f", "json", "-o", path("l.json"))
    expect(status == 0, f"run --label: exit {status}: {err}")
    status, _, err = run("run", suite(), "--store", url, "--label", "other")
    expect(status == 0, f"second run: {err}")
    with open(path("l.json")) as f:
        doc = json.load(f)
    expect(doc["run"]["label"] == "nightly 7", f"run.label {doc['run']}")
    db = sqlite3.connect(path("results.db"))
    stored = stored_reports(db)
    expect(doc["run"]["uuid"] in stored, "stored under the report's uuid")
    expect(stored[doc["run"]["uuid"]]["run"] == doc["run"],
           "the stored report has the run written")
    for fmt in ("text", "md", "html", "csv"):
        status, out, err = run("report", path("l.json"), "-f", fmt)
        expect(status == 0 and "nightly 7" in out, f"{fmt} shows the label")
    picked = history(url, "--label", "nightly 7")
    labels = {p["label"] for s in picked["series"] for p in s["points"]}
    expect(labels == {"nightly 7"}, f"--label selects its runs: {labels}")
    expect(points(picked) * 2 == points(history(url)), "half the points")
    status, out, _ = run("history", "--store", url, "-f", "csv")
    rows = list(csv.reader(io.StringIO(out)))
    expect(rows[0][-1] == "label" and
           {r[-1] for r in rows[1:]} == {"nightly 7", "other"},
           f"csv's label column: {rows[0][-1]}")
    status, _, err = run("store", "import", path("l.json"), "--store",
                         sqlite_url("again.db"))
    expect(status == 0, f"import: {err}")
    again = history(sqlite_url("again.db"))
    expect({p["label"] for s in again["series"] for p in s["points"]} ==
           {"nightly 7"}, "import keeps the report's label")


def test_run_label_bad_is_refused_before_anything():
    for bad in ("x" * 129, "a\x1b[2Jb", ""):
        status, _, err = run("run", suite(), "--store", sqlite_url("b.db"),
                             "--label", bad)
        expect(status == 2 and "--label" in err.splitlines()[0],
               f"--label {bad[:10]!r}: exit {status}: {err}")
    expect(not os.path.exists(path("b.db")), "nothing stored")
    status, _, err = run("compare", "--label", "x", "a.json", "b.json")
    expect(status == 2 and "--label only goes" in err, f"compare: {err}")


def test_a_version_1_store_is_migrated_and_reads_the_same():
    files = [variant(measured(), f"m{i}.json") for i in range(2)]
    status, _, err = run("store", "import", *files, "--store", sqlite_url())
    expect(status == 0, f"import: {err}")
    before = history(sqlite_url())
    db = sqlite3.connect(path("results.db"))
    as_version_3(db)
    # as version 1 made it: no run_point nor run_order, samples in a
    # rowid table
    db.executescript("""
        DROP INDEX run_point;
        DROP INDEX run_order;
        CREATE TABLE s1 (run TEXT NOT NULL, bcase TEXT NOT NULL,
            figure TEXT NOT NULL, idx INTEGER NOT NULL,
            value DOUBLE PRECISION, PRIMARY KEY (run, bcase, figure, idx));
        INSERT INTO s1 SELECT * FROM sample;
        DROP TABLE sample;
        ALTER TABLE s1 RENAME TO sample;
        DELETE FROM schema_version WHERE version > 1;
    """)
    samples = old_samples(db)
    db.close()
    expect(history(sqlite_url()) == before, "the same history")
    db = sqlite3.connect(path("results.db"))
    expect(db.execute("SELECT max(version) FROM schema_version"
                      ).fetchone()[0] == 4, "now version 4")
    expect(db.execute("SELECT count(*) FROM sqlite_master WHERE name = "
                      "'run_order'").fetchone()[0] == 1, "run_order made")
    expect(samples_by_result(db) == samples and samples,
           "every sample, exact, in its result's row")
    expect(db.execute("PRAGMA integrity_check").fetchone()[0] == "ok",
           "integrity_check ok")
    expect(db.execute("PRAGMA foreign_key_check").fetchall() == [],
           "foreign_key_check: none broken")
    tables = {r[0]: r[1] for r in db.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table'")}
    expect("sample" not in tables, "no sample table")
    expect("WITHOUT ROWID" in tables["result"],
           f"results by their key alone: {tables['result']}")


def store_fails(url, env=None, preexec=None, before=True):
    """A run whose store fails: one line, exit 4. A store refused when it
    is first opened stops the run before its first measurement (nothing
    on stdout); one that fails when the run is put in keeps the report."""
    status, out, err = run("run", suite(), "--store", url, "-f", "json",
                           env=env, preexec=preexec)
    expect(status == EXIT_STORE, f"exit {status}, not 4: {err}")
    if before:
        expect(out == "" and "nothing was run" in err,
               f"refused before running: {out!r} {err!r}")
    else:
        expect(json.loads(out)["results"], "the report is written")
    lines = [ln for ln in err.splitlines() if "store" in ln]
    expect(len(lines) == 1, f"one line names the store: {err!r}")
    return lines[0]


def test_store_read_only_is_refused_before_running():
    os.makedirs(path("ro"))
    sqlite3.connect(path("ro/results.db")).execute(
        "CREATE TABLE t (x)").connection.commit()
    shutil.copy(path("ro/results.db"), path("ro/copy.db"))
    os.chmod(path("ro/results.db"), 0o400)
    os.chmod(path("ro"), 0o500)
    if os.geteuid() == 0:  # root writes anyway: a read-only mount instead
        store_fails("sqlite:/proc/version")
    else:
        store_fails(sqlite_url("ro/results.db"))


def test_store_full_keeps_the_report():
    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
    line = store_fails(sqlite_url("full.db"), preexec=small_files)
    expect("full.db" in line, line)


def test_store_corrupt_is_refused_before_running():
    with open(path("bad.db"), "wb") as f:
        f.write(b"this is not a database " * 400)
    line = store_fails(sqlite_url("bad.db"))
    expect("not a database" in line, line)


def test_store_failing_the_put_keeps_the_report():
    # the store opened well before the run and refused the run at its end
    url = sqlite_url("trigger.db")
    status, _, err = run("history", "--store", url)
    expect(status == 0, f"exit {status}: {err}")
    db = sqlite3.connect(path("trigger.db"))
    db.execute("CREATE TRIGGER no_run BEFORE INSERT ON run BEGIN "
               "SELECT RAISE(ABORT, 'runs refused'); END")
    db.commit()
    line = store_fails(url, before=False)
    expect("runs refused" in line, line)


def test_store_newer_schema_is_refused_before_running():
    db = sqlite3.connect(path("new.db"))
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (99)")
    db.commit()
    line = store_fails(sqlite_url("new.db"))
    expect("schema version 99" in line, line)


def test_store_unreachable_postgresql_masks_password():
    line = store_fails(f"postgresql://u:{PASSWORD}@/db?host={WORK}/none")
    expect(PASSWORD not in line and "***" in line, line)


def test_context_change_said_in_words_sqlite():
    context_change_said_in_words(sqlite_url())


def test_open_regressions_first_and_steps_in_sight_sqlite():
    open_regressions_first_and_steps_in_sight(sqlite_url())


def test_bad_results_never_break_the_store_sqlite():
    bad_results_never_break_the_store(sqlite_url())


def test_selectors_say_what_they_matched_sqlite():
    selectors_say_what_they_matched(sqlite_url())


# -- PostgreSQL -------------------------------------------------------------


def test_run_stores_and_says_where_postgresql():
    stores_and_says_where(pg_server())


def test_import_is_idempotent_postgresql():
    import_is_idempotent(pg_server())


def test_hostile_names_postgresql():
    hostile_names_stored_and_read_back(pg_server())


def test_stored_run_renders_as_its_file_postgresql():
    stored_run_renders_as_its_file(pg_server())


def url_rows(url, sql):
    """Rows of sql on the server of url, as psql prints them unaligned."""
    p = subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-At", "-c",
                        sql], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0, f"psql: {p.stderr}")
    return p.stdout.splitlines()


def test_a_version_3_store_is_migrated_postgresql():
    url = pg_server()
    status, _, err = run("run", suite(), "--store", url, "-f", "json",
                         "-o", path("pg.json"))
    expect(status == 0, f"run: {err}")
    with open(path("pg.json")) as f:
        doc = json.load(f)
    samples = url_rows(url, "SELECT samples FROM result ORDER BY bcase")
    text = json.dumps(doc, separators=(",", ":"))
    # as version 3 made it: the report's text in report, samples in a
    # table of their own, the index result_series
    url_rows(url, f"""
        CREATE TABLE sample (run TEXT NOT NULL, bcase TEXT NOT NULL,
            figure TEXT NOT NULL, idx INTEGER NOT NULL,
            value DOUBLE PRECISION, PRIMARY KEY (run, bcase, figure, idx));
        INSERT INTO sample SELECT run, bcase, figure, i - 1, v::float8
            FROM result, json_array_elements_text(samples::json)
            WITH ORDINALITY AS e(v, i);
        UPDATE run SET report = $r${text}$r$;
        ALTER TABLE run DROP COLUMN report_z;
        ALTER TABLE result DROP COLUMN samples;
        CREATE INDEX result_series ON result (bcase, figure);
        DELETE FROM schema_version WHERE version > 3;""")
    _, want, _ = run("report", path("pg.json"), "-f", "md")
    status, out, err = run("report", doc["run"]["uuid"], "--store", url,
                           "-f", "md")
    expect(status == 0 and out == want, f"the old run reads: {err}")
    expect(url_rows(url, "SELECT max(version) FROM schema_version") == ["4"],
           "now version 4")
    moved = url_rows(url, "SELECT samples FROM result ORDER BY bcase")
    expect([json.loads(m) for m in moved] ==
           [json.loads(m) for m in samples] and moved,
           f"every sample moved, exact: {moved} {samples}")
    expect(url_rows(url, "SELECT count(*) FROM pg_tables WHERE tablename = "
                "'sample'") == ["0"], "no sample table")


def test_regression_acknowledged_postgresql():
    regression_acknowledged(pg_server())


def test_context_change_said_in_words_postgresql():
    context_change_said_in_words(pg_server())


def test_open_regressions_first_and_steps_in_sight_postgresql():
    open_regressions_first_and_steps_in_sight(pg_server())


def test_bad_results_never_break_the_store_postgresql():
    bad_results_never_break_the_store(pg_server())


def test_selectors_say_what_they_matched_postgresql():
    selectors_say_what_they_matched(pg_server())


# -- PostgreSQL: passwords shown nowhere -------------------------------------

def test_postgresql_password_with_query_and_hash_is_shown_nowhere():
    port = pg_lab_server()
    shown = everything_shown(lab_url(port))
    expect("lab:***@127.0.0.1" in shown, "the URL is shown, masked")
    expect(LAB_PASSWORD not in shown and "w0rd" not in shown,
           "no part of the password is shown")
    expect("w0rd" not in stored_report_text(port), "none in the store")


def test_postgresql_every_password_field_is_masked():
    # libpq takes the last password: the query's, its key percent-encoded
    port = pg_lab_server()
    url = lab_url(port, "lab:decoy-SECRET-1",
                  f"?sslpassword=key-SECRET-2&pass%77ord={LAB_PASSWORD}")
    shown = everything_shown(url)
    expect("SECRET" not in shown, "no password field is shown")
    expect("pass%77ord=***" in shown and "sslpassword=***" in shown,
           "each masked where it is")
    expect("SECRET" not in stored_report_text(port), "none in the store")


def test_postgresql_short_password_leaves_libpq_messages_as_they_are():
    imp = Impostor(hang_up)
    status, err = store_run(f"postgresql://u:x@127.0.0.1:{imp.port}/db")
    line = [ln for ln in err.splitlines() if "store" in ln][0]
    expect(status == EXIT_STORE, f"exit {status}: {err}")
    expect("u:***@" in line, f"the password is masked in the URL: {line}")
    expect("closed the connection unexpectedly" in line,
           f"libpq's message is not starred: {line}")


# -- PostgreSQL: the password goes to no server that asks for it in clear ---

def test_postgresql_impostor_asking_in_clear_text_gets_no_password():
    imp = Impostor(ask(CLEARTEXT))
    status, err = store_run(lab_url(imp.port))
    expect(imp.connections and not imp.messages,
           f"the impostor got nothing: {imp.messages}")
    expect(status == EXIT_STORE, f"exit {status}: {err}")
    expect("password in clear text" in err, f"says why: {err}")


def test_postgresql_impostor_asking_for_md5_gets_no_hash():
    imp = Impostor(ask(MD5))
    status, err = store_run(lab_url(imp.port))
    expect(imp.connections and not imp.messages,
           f"the impostor got nothing: {imp.messages}")
    expect(status == EXIT_STORE, f"exit {status}: {err}")
    expect("MD5" in err, f"says why: {err}")


def test_postgresql_impostor_turning_to_clear_text_after_scram_gets_nothing():
    # both requests at once: libpq reads ahead, so the second is in its
    # buffer before it answers the first
    imp = Impostor(ask(SASL + CLEARTEXT))
    status, err = store_run(lab_url(imp.port))
    expect(LAB_PASSWORD.encode() not in imp.got(),
           f"the impostor got no password: {imp.messages}")
    expect(status == EXIT_STORE, f"exit {status}: {err}")
    expect("password in clear text" in err, f"says why: {err}")


def test_postgresql_require_auth_password_in_the_url_allows_clear_text():
    imp = Impostor(ask(CLEARTEXT))
    status, err = store_run(lab_url(imp.port,
                                    query="?require_auth=password"))
    expect(status == EXIT_STORE, f"exit {status}: {err}")
    expect(LAB_PASSWORD.encode() in imp.got(),
           f"the user's choice: the password in clear: {imp.messages}")


def test_postgresql_lab_server_with_scram_is_let_through():
    port = pg_lab_server()
    status, err = store_run(lab_url(port))
    expect(status == 0 and "stored in" in err, f"exit {status}: {err}")


def test_postgresql_lab_server_over_verified_tls_is_let_through():
    port = pg_lab_server(tls=True)
    crt = path("labdata/server.crt")
    for mode in ("verify-full", "prefer"):
        status, err = store_run(lab_url(
            port, query=f"?sslmode={mode}&sslrootcert={crt}"))
        expect(status == 0 and "stored in" in err,
               f"sslmode={mode}: exit {status}: {err}")


# -- PostgreSQL: nothing holds a run after its report -----------------------

def started_run(url):
    """A run storing at url, started: its Popen (stderr piped)."""
    e = dict(os.environ, XDG_DATA_HOME=path("xdg"))
    return subprocess.Popen([HB, "run", suite(), "--store", url, "-o",
                             path("r.txt")], stderr=subprocess.PIPE,
                            text=True, env=e)


def ends_within(p, seconds, what):
    """p's exit status and stderr, failing the test if p takes longer
    than seconds (then it is killed)."""
    try:
        _, err = p.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        raise AssertionError(f"{what}: still running after {seconds} s")
    return p.returncode, err


def test_postgresql_silent_server_ends_the_run():
    imp = Impostor(silent)
    p = started_run(f"postgresql://u:pw@127.0.0.1:{imp.port}/db")
    status, err = ends_within(p, 90, "a run against a silent server")
    expect(status == EXIT_STORE and "connect_timeout" in err,
           f"exit {status}: {err}")


def test_postgresql_silent_server_sigterm_ends_the_run_at_once():
    imp = Impostor(silent)
    p = started_run(f"postgresql://u:pw@127.0.0.1:{imp.port}/db"
                    "?connect_timeout=600")
    hbtest.wait_for(lambda: imp.connections, "the run connects")
    p.send_signal(signal.SIGTERM)
    status, err = ends_within(p, 20, "SIGTERM while the server is silent")
    expect(status == 143, f"exit {status}: {err}")


def lock_run_table(url):
    """A store at url with its tables, and a psql session holding run
    locked (ACCESS EXCLUSIVE, in an open transaction): its Popen."""
    status, _, err = run("run", suite(), "--store", url, "-o",
                         path("first.txt"))
    expect(status == 0, f"first run: {err}")
    holder = subprocess.Popen(as_postgres(
        [pg_bin("psql"), "-h", path("pgsock"), "-U", pg_user(), "-d",
         "postgres",
         "-qtA"]), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    holder.stdin.write("BEGIN;\nLOCK TABLE run IN ACCESS EXCLUSIVE MODE;\n"
                       "SELECT 'locked';\n")
    holder.stdin.flush()
    expect(holder.stdout.readline().strip() == "locked", "run locked")
    atexit.register(holder.kill)
    return holder


def lock_waits():
    """Locks the test server's sessions wait for."""
    return int(psql(path("pgsock"), 5432, pg_user(),
                    "SELECT count(*) FROM pg_locks WHERE NOT granted"))


def test_postgresql_locked_table_ends_the_run():
    url = pg_server()
    lock_run_table(url)
    status, err = ends_within(started_run(url), 90,
                              "a run against a locked table")
    expect(status == EXIT_STORE and "lock timeout" in err,
           f"exit {status}: {err}")


def test_postgresql_locked_table_sigterm_cancels_and_ends_the_run():
    # the URL's own lock_timeout holds: longer than the test waits
    url = pg_server() + "&options=-c%20lock_timeout%3D600s"
    lock_run_table(url)
    p = started_run(url)
    hbtest.wait_for(lock_waits, "the run waits for the lock")
    p.send_signal(signal.SIGTERM)
    status, err = ends_within(p, 20, "SIGTERM while the table is locked")
    expect(status == 143, f"exit {status}: {err}")
    hbtest.wait_for(lambda: lock_waits() == 0,
                    "the server cancelled the waiting statement", 10)


if __name__ == "__main__":
    hbtest.main()
