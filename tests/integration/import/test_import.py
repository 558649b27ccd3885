# SPDX-License-Identifier: Apache-2.0
"""Other tools' results into the store (docs/interop.md, "Import").

Usage: test_import.py NAME HOSTBENCH FIXTURES GBENCH
Runs test_NAME. FIXTURES is tests/fixtures/import; GBENCH the Google
Benchmark program built here, "none" when libbenchmark-dev was not found.
fio, iperf3, openssl and hyperfine are Debian's (.ci/setup --tests).
"""
import json
import os
import shutil
import socket
import sqlite3
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB, FIXTURES, GBENCH = hbtest.args("HOSTBENCH", "FIXTURES", "GBENCH")


def hb(*args, timeout=120):
    """hostbench's (status, stdout, stderr)."""
    p = subprocess.run([HB, *args], capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def store(d):
    return "sqlite:" + os.path.join(d, "results.db")


def imported(d, *args):
    """store import ARGS into d's store; its stderr, exit 0 checked."""
    status, _, err = hb("store", "import", *args, "--store", store(d))
    expect(status == 0, f"import {args}: exit {status}: {err}")
    return err


def history(d, *args):
    status, out, err = hb("history", "-f", "json", "--store", store(d),
                          *args)
    expect(status == 0, f"history: exit {status}: {err}")
    return json.loads(out)


def series(doc, target, figure, job=None):
    """The one series of doc of target and figure (and job)."""
    found = [s for s in doc["series"]
             if s["case"]["target"] == target and s["figure"] == figure
             and (job is None or s["case"]["job"] == job)]
    expect(len(found) == 1, f"one {target} {figure} series: "
           f"{[(s['case'], s['figure']) for s in doc['series']]}")
    return found[0]


def host_name(doc, s):
    return {h["id"]: h["name"] for h in doc["hosts"]}[s["host"]]


def rows(d, sql, *params):
    with sqlite3.connect(os.path.join(d, "results.db")) as c:
        return c.execute(sql, params).fetchall()


def fixture(name):
    return os.path.join(FIXTURES, name)


def tool(name):
    """The tool's path; .ci/setup --tests installs every one of them."""
    path = shutil.which(name)
    expect(path is not None, f"{name} is not installed (.ci/setup --tests)")
    return path


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b))


# ---- the real tools ---------------------------------------------------


def fio_run(d, fmt):
    """A small real fio job (read then write) in d, its output in fmt."""
    out = os.path.join(d, f"fio-{fmt}.json")
    subprocess.run([tool("fio"), "--name=seq", f"--directory={d}",
                    "--rw=randrw", "--bs=4k", "--size=1M",
                    "--ioengine=psync", f"--output-format={fmt}",
                    f"--output={out}"], check=True, capture_output=True,
                   timeout=120)
    return out


def test_fio_json_and_json_plus_are_a_run_each_in_bytes_and_ns():
    d = hbtest.scratch("hb-import-")
    for fmt in ("json", "json+"):
        path = fio_run(d, fmt)
        doc_in = json.load(open(path))
        job = doc_in["jobs"][0]
        err = imported(d, "--from", "fio", "--host", "lab-fio", path)
        expect("1 new run" in err, err)
        doc = history(d, "--host", "lab-fio")
        bw = series(doc, "fio/read", "bw")
        expect(bw["unit"] == "MiB/s" and bw["better"] == "higher", bw)
        point = bw["points"][-1]
        expect(close(point["median"], job["read"]["bw_bytes"]),
               f"bw {point['median']} B/s, fio said "
               f"{job['read']['bw_bytes']}")
        p99 = series(doc, "fio/read", "clat_p99")
        expect(p99["unit"] == "ns" and p99["better"] == "lower", p99)
        expect(close(p99["points"][-1]["median"],
                     job["read"]["clat_ns"]["percentile"]["99.000000"]),
               p99["points"][-1])
        iops = series(doc, "fio/write", "iops")
        expect(iops["unit"] == "ops/s" and close(
            iops["points"][-1]["median"], job["write"]["iops"]), iops)
        facts = bw["contexts"][0]["facts"]
        expect(facts["tool"] == {"name": "fio",
                                 "version": doc_in["fio version"][4:]},
               facts)
        # the run's times are the file's: fio's timestamp is its end
        ended = rows(d, "SELECT ended FROM run WHERE uuid = ?",
                     point["run"])[0][0]
        expect(ended.startswith(time.strftime(
            "%Y-%m-%dT%H:%M:%S", time.gmtime(doc_in["timestamp"]))),
            f"ended {ended}, fio's timestamp {doc_in['timestamp']}")
    expect(len(series(history(d), "fio/read", "bw")["points"]) == 2,
           "json and json+ are a run each")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port):
    """Whether a socket listens on port, seen in /proc (a connection to
    see it would be the one test iperf3 -s -1 serves)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        for line in open(table).readlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            if int(local.rsplit(":", 1)[1], 16) == port and state == "0A":
                return True
    return False


def test_iperf3_on_loopback_is_rates_retransmits_cpu_and_intervals():
    d = hbtest.scratch("hb-import-")
    port = free_port()
    server = subprocess.Popen([tool("iperf3"), "-s", "-1", "-p", str(port)],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        hbtest.wait_for(lambda: listening(port), "iperf3 -s listening")
        client = subprocess.run([tool("iperf3"), "-c", "127.0.0.1", "-p",
                                 str(port), "-t", "1", "-i", "0.25",
                                 "-J"],
                                capture_output=True, text=True, timeout=60)
    finally:
        server.wait(timeout=60)
    path = os.path.join(d, "iperf3.json")
    open(path, "w").write(client.stdout)
    doc_in = json.loads(client.stdout)
    imported(d, "--from", "iperf3", path)
    doc = history(d)
    sent = series(doc, "iperf3/tcp", "sent")
    expect(sent["unit"] == "Gbps" and sent["better"] == "higher", sent)
    # the client's per-interval rates are the samples of what it sent
    expect(len(doc_in["intervals"]) > 1 and
           sent["points"][0]["n"] == len(doc_in["intervals"]),
           f"{sent['points'][0]} of {len(doc_in['intervals'])} intervals")
    received = series(doc, "iperf3/tcp", "received")
    expect(close(received["points"][0]["median"],
                 doc_in["end"]["sum_received"]["bits_per_second"] / 8),
           received["points"][0])
    for figure in ("cpu_host", "cpu_remote"):
        s = series(doc, "iperf3/tcp", figure)
        expect(s["unit"] == "%" and s["better"] == "lower", s)
    retr = series(doc, "iperf3/tcp", "retransmits")
    expect(retr["better"] == "lower", retr)
    # the host is the one iperf3 names (system_info's node), its kernel
    node = doc_in["start"]["system_info"].split()[1]
    expect(host_name(doc, sent) == node, f"host {host_name(doc, sent)}")
    expect(sent["case"]["params"]["peer"] == "127.0.0.1" and
           "port" not in sent["case"]["params"], sent["case"])
    expect(sent["contexts"][0]["facts"]["kernel"].startswith("Linux "),
           sent["contexts"][0])


def openssl_speed(d, name, *args):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        subprocess.run([tool("openssl"), "speed", "-mr", "-seconds", "1",
                        *args], stdout=f, stderr=subprocess.STDOUT,
                       check=True, timeout=120)
    return path


def plus_lines(path, tag):
    return [ln.strip().split(":") for ln in open(path)
            if ln.startswith(tag + ":")]


def test_openssl_speed_ciphers_and_public_keys_of_a_real_run():
    d = hbtest.scratch("hb-import-")
    version = subprocess.run([tool("openssl"), "version"],
                             capture_output=True, text=True).stdout.split()[1]
    aes = openssl_speed(d, "aes.txt", "-evp", "aes-128-gcm")
    pk = openssl_speed(d, "pk.txt", "rsa2048", "ecdsap256")
    err = imported(d, "--from", "openssl-speed", "--tool-version", version,
                   "--host", "lab-ossl", aes, pk)
    expect("2 new runs" in err, err)
    doc = history(d)
    sizes = plus_lines(aes, "+H")[0][1:]
    f = plus_lines(aes, "+F")[0]
    for size, value in zip(sizes, f[3:]):
        s = [s for s in doc["series"]
             if s["case"]["params"].get("size") == int(size)]
        expect(len(s) == 1 and s[0]["figure"] == "rate" and
               s[0]["unit"] == "MB/s", f"{size}: {s}")
        expect(close(s[0]["points"][0]["median"], float(value)),
               f"{size} B: {s[0]['points'][0]} against {value}")
        expect(s[0]["case"]["params"]["algorithm"] == f[2], s[0]["case"])
    rsa = plus_lines(pk, "+F2")[0]  # 3.x: sign/s, verify/s
    sign = series(doc, "openssl-speed/rsa", "sign")
    expect(sign["unit"] == "ops/s" and sign["better"] == "higher", sign)
    expect(close(sign["points"][0]["median"], float(rsa[3])),
           f"{sign['points'][0]} against {rsa}")
    verify = series(doc, "openssl-speed/ecdsa", "verify")
    expect(verify["case"]["params"]["algorithm"] == "nistp256",
           verify["case"])
    expect(sign["contexts"][0]["facts"]["tool"] ==
           {"name": "openssl", "version": version}, sign["contexts"])


def test_gbench_program_repetitions_are_samples():
    if GBENCH == "none":
        raise hbtest.Skip("no Google Benchmark program: libbenchmark-dev "
                          "and g++ were not found at configure time")
    d = hbtest.scratch("hb-import-")
    out = subprocess.run([GBENCH, "--benchmark_format=json",
                          "--benchmark_repetitions=3",
                          "--benchmark_min_time=0.01"],
                         capture_output=True, text=True, check=True,
                         timeout=120).stdout
    path = os.path.join(d, "gbench.json")
    open(path, "w").write(out)
    doc_in = json.loads(out)
    imported(d, "--from", "gbench", path)
    doc = history(d)
    real = series(doc, "gbench/benchmark", "real_time", job="BM_copy/4096")
    expect(real["unit"] == "ns" and real["better"] == "lower", real)
    expect(real["points"][0]["n"] == 3, real["points"][0])
    reps = sorted(b["real_time"] for b in doc_in["benchmarks"]
                  if b["run_name"] == "BM_copy/4096"
                  and b["run_type"] == "iteration")
    expect(close(real["points"][0]["median"], reps[1]),
           f"{real['points'][0]} against {reps}")
    rate = series(doc, "gbench/benchmark", "bytes_per_second")
    expect(rate["better"] == "higher", rate)
    expect(host_name(doc, real) == doc_in["context"]["host_name"], doc)


def test_hyperfine_times_are_samples_in_seconds():
    d = hbtest.scratch("hb-import-")
    path = os.path.join(d, "hf.json")
    subprocess.run([tool("hyperfine"), "--runs", "3", "--export-json", path,
                    "sleep 0.01"], check=True, capture_output=True,
                   timeout=120)
    doc_in = json.load(open(path))
    imported(d, "--from", "hyperfine", "--tool-version", "1.15",
             "--host", "lab-hf", path)
    doc = history(d)
    time = series(doc, "hyperfine/command", "time")
    expect(time["unit"] == "s" and time["better"] == "lower", time)
    expect(time["points"][0]["n"] == 3, time["points"][0])
    expect(close(time["points"][0]["median"],
                 sorted(doc_in["results"][0]["times"])[1]), time)
    expect(time["case"]["job"] == "sleep 0.01", time["case"])
    expect(host_name(doc, time) == "lab-hf", doc["hosts"])


def test_auto_recognises_each_format_and_says_which():
    d = hbtest.scratch("hb-import-")
    hf = os.path.join(d, "hf.json")
    subprocess.run([tool("hyperfine"), "--runs", "2", "--export-json", hf,
                    "true"], check=True, capture_output=True, timeout=120)
    files = {"fio": fio_run(d, "json"), "hyperfine": hf,
             "openssl-speed": fixture("openssl-1.1.1-mr.txt"),
             "pyperf": fixture("pyperf.json"),
             "iperf3": fixture("iperf3-error-twice.json"),
             "gbench": fixture("gbench-nan.json")}
    err = imported(d, "--from", "auto", "--host", "lab-auto",
                   *files.values())
    for fmt, path in files.items():
        expect(f"{path}: read as {fmt}" in err, f"{fmt}: {err}")
    expect(f"{len(files)} new runs" in err, err)


# ---- what this host cannot make: fixtures --------------------------------


def test_pyperf_values_are_samples_with_its_metadata():
    d = hbtest.scratch("hb-import-")
    err = imported(d, "--from", "pyperf", fixture("pyperf.json"))
    expect("names no host" not in err, err)
    doc = history(d)
    t = series(doc, "pyperf/benchmark", "time", job="json_dumps")
    expect(t["unit"] == "s" and t["better"] == "lower", t)
    # three runs of three values; the calibration run has none
    expect(t["points"][0]["n"] == 9, t["points"][0])
    expect(close(t["points"][0]["median"], 0.01009), t["points"][0])
    expect(host_name(doc, t) == "lab-3", doc["hosts"])
    facts = t["contexts"][0]["facts"]
    expect(facts["tool"] == {"name": "pyperf", "version": "2.6.1"} and
           facts["libraries"]["pyperf"]["Python"].startswith("3.11.2"),
           facts)
    mem = series(doc, "pyperf/benchmark", "memory")
    expect(mem["unit"] == "bytes", mem)
    expect(t["points"][0]["time"] == "2024-03-01T10:00:00.100Z",
           t["points"][0])


def test_openssl_1_1_seconds_per_operation_become_rates():
    d = hbtest.scratch("hb-import-")
    imported(d, "--from", "openssl-speed", fixture("openssl-1.1.1-mr.txt"))
    doc = history(d)
    sign = series(doc, "openssl-speed/rsa", "sign")
    expect(close(sign["points"][0]["median"], 1 / 0.000634),
           sign["points"][0])
    ecdh = series(doc, "openssl-speed/ecdh", "op")
    expect(close(ecdh["points"][0]["median"], 1 / 0.000055),
           ecdh["points"][0])
    ed = series(doc, "openssl-speed/eddsa", "verify")
    expect(ed["case"]["params"]["algorithm"] == "Ed25519" and
           close(ed["points"][0]["median"], 1 / 0.000058), ed)
    gcm = [s for s in doc["series"]
           if s["case"]["params"].get("size") == 16384]
    expect(close(gcm[0]["points"][0]["median"], 2371411968.0), gcm)


def test_openssl_multi_children_are_summed_without_a_total():
    d = hbtest.scratch("hb-import-")
    err = imported(d, "--from", "openssl-speed",
                   fixture("openssl-1.1.1-multi.txt"))
    expect("summed from -multi's 2 children" in err, err)
    doc = history(d)
    sign = series(doc, "openssl-speed/rsa", "sign")
    expect(close(sign["points"][0]["median"], 1 / 0.00064 + 1 / 0.00066),
           sign["points"][0])
    expect(sign["case"]["params"]["multi"] == 2, sign["case"])
    # the version is the one its human header names
    expect(sign["contexts"][0]["facts"]["tool"]["version"] == "1.1.1w",
           sign["contexts"])


def test_openssl_layout_unknown_is_refused_until_a_version_says():
    d = hbtest.scratch("hb-import-")
    path = os.path.join(d, "ambiguous.txt")
    open(path, "w").write("+F2:2:2048:0.5:3000.0\n")
    status, _, err = hb("store", "import", "--from", "openssl-speed", path,
                        "--store", store(d))
    expect(status == 2 and "give --tool-version" in err, err)
    imported(d, "--from", "openssl-speed", "--tool-version", "3.0.13", path)
    sign = series(history(d), "openssl-speed/rsa", "sign")
    expect(sign["points"][0]["median"] == 0.5, sign["points"][0])


def test_fio_3_0_and_2_x_files_with_text_around_them():
    d = hbtest.scratch("hb-import-")
    imported(d, "--from", "fio", fixture("fio-3.0.json"),
             fixture("fio-2.json"))
    doc = history(d)
    bw = series(doc, "fio/read", "bw")  # 3.0: bw alone, in KiB/s
    expect(close(bw["points"][0]["median"], 102400 * 1024), bw["points"])
    p50 = series(doc, "fio/read", "clat_p50")
    expect(close(p50["points"][0]["median"], 1155072), p50["points"])
    p99 = series(doc, "fio/write", "clat_p99")  # 2.x: microseconds
    expect(close(p99["points"][0]["median"], 400e3), p99["points"])
    runtime = series(doc, "fio/write", "runtime")
    expect(runtime["unit"] == "s" and runtime["points"][0]["median"] == 10,
           runtime["points"])
    # fio's timestamp is its end; the run began its longest job before
    expect(bw["points"][0]["time"] == "2018-01-01T00:00:00.500Z",
           bw["points"][0])
    expect(not [s for s in doc["series"] if s["case"]["target"] in
                ("fio/trim",) or (s["case"]["job"] == "seqwrite" and
                                  s["case"]["target"] == "fio/read")],
           "a direction without I/O is no case")


def test_fio_client_server_is_a_run_per_host_it_names():
    d = hbtest.scratch("hb-import-")
    err = imported(d, "--from", "fio", "--host", "ignored",
                   fixture("fio-client-server.json"))
    expect("2 new runs" in err and "names its host, lab-a" in err, err)
    doc = history(d)
    by_host = {host_name(doc, s): s["points"][0]["median"]
               for s in doc["series"] if s["figure"] == "bw"}
    expect(by_host == {"lab-a": 400000 * 1024, "lab-b": 300000 * 1024},
           f"one run per host, All clients left out: {by_host}")


def test_iperf3_error_twice_and_trailing_line_is_a_failed_run():
    d = hbtest.scratch("hb-import-")
    err = imported(d, "--from", "iperf3", fixture("iperf3-error-twice.json"),
                   fixture("iperf3-cut-short.json"))
    expect("iperf3 failed: the server is busy running a test. try again "
           "later\n" in err, err)
    expect("iperf3 failed: control socket has closed unexpectedly" in err,
           err)
    results = rows(d, "SELECT figure, status, median FROM result")
    expect(results and all(s == "failed" and m is None
                           for _, s, m in results),
           f"failed, never a zero figure: {results}")
    expect(not history(d)["series"], "a failed run is no point")
    hosts = rows(d, "SELECT name FROM host")
    expect(hosts == [("lab-7",)], hosts)


def test_gbench_bare_nan_and_infinity_and_an_error():
    d = hbtest.scratch("hb-import-")
    imported(d, "--from", "gbench", fixture("gbench-nan.json"))
    doc = history(d)
    real = series(doc, "gbench/benchmark", "real_time")
    expect(close(real["points"][0]["median"], 1200), real["points"])  # us
    expect(real["points"][0]["time"] == "2024-03-04T11:00:00.000Z",
           real["points"])
    expect(real["contexts"][0]["facts"]["tool"]["version"] == "v1.8.3",
           real["contexts"])
    broken = rows(d, "SELECT x.status FROM result x JOIN bcase c ON "
                  "c.id = x.bcase WHERE c.job = 'BM_broken'")
    expect(broken and all(s == "failed" for (s,) in broken), broken)


# ---- refusals --------------------------------------------------------------


def refused(d, *args):
    status, _, err = hb("store", "import", *args, "--store", store(d))
    expect(status == 2, f"exit {status}: {err}")
    return err


def test_a_file_not_read_is_refused_by_name_and_line_the_rest_stored():
    d = hbtest.scratch("hb-import-")
    bad = os.path.join(d, "bad.json")
    text = open(fixture("fio-3.0.json")).read()
    expect('"iops": 25600.0' in text, "the fixture as written")
    open(bad, "w").write(text.replace('"iops": 25600.0',
                                      '"iops": 25600.0,,'))
    line = text.split('"iops": 25600.0')[0].count("\n") + 1
    err = refused(d, "--from", "fio", bad, fixture("fio-2.json"))
    said = [ln for ln in err.splitlines() if "bad.json" in ln]
    expect(len(said) == 1 and f"line {line}:" in said[0] and
           "fio:" in said[0], f"line {line} named: {err}")
    expect("1 new run stored" in err, err)
    runs = rows(d, "SELECT count(*) FROM run")[0][0]
    expect(runs == 1, f"the good file stored, nothing of the bad: {runs}")


def test_a_missing_key_is_refused_naming_it():
    d = hbtest.scratch("hb-import-")
    cases = {"fio": ({"fio version": "fio-3.33"}, 'no "jobs" array'),
             "iperf3": ({"intervals": [], "end": {}}, 'no "start" object'),
             "hyperfine": ({"results": [{"mean": 1.0}]},
                           'results[0]: no "command"'),
             "pyperf": ({"version": "1.0", "benchmarks": [
                 {"runs": [{"values": [1.0]}]}]},
                        'benchmarks[0]: no "name"')}
    for fmt, (doc, why) in cases.items():
        path = os.path.join(d, f"{fmt}.json")
        json.dump(doc, open(path, "w"))
        err = refused(d, "--from", fmt, path)
        expect(f"{path}: {fmt}: {why}" in err, f"{fmt}: {err}")
    jobs = json.load(open(fixture("fio-2.json")))
    del jobs["jobs"][0]["write"]["iops"]
    path = os.path.join(d, "noiops.json")
    json.dump(jobs, open(path, "w"))
    expect('jobs[0].write: no "iops"' in refused(d, "--from", "fio", path),
           "the key is named")
    expect(rows(d, "SELECT count(*) FROM run")[0][0] == 0, "nothing stored")


def test_a_fifo_is_refused_without_waiting():
    d = hbtest.scratch("hb-import-")
    fifo = os.path.join(d, "planted.json")
    os.mkfifo(fifo)
    for fmt in ("fio", "auto"):
        err = refused(d, "--from", fmt, fifo)
        expect("planted.json: not a regular file" in err, err)
    expect(stat.S_ISFIFO(os.stat(fifo).st_mode), "left as it was")


def test_hostile_and_huge_strings_are_sanitized_and_bounded():
    d = hbtest.scratch("hb-import-")
    doc = json.load(open(fixture("fio-2.json")))
    evil = "\x1b]0;pwned\x07\x1b[2J" + "x" * 100000
    doc["jobs"][0]["jobname"] = evil
    doc["jobs"][0]["job options"]["rw"] = "write\u202e\r\nforged line"
    path = os.path.join(d, "evil.json")
    json.dump(doc, open(path, "w"))
    status, _, err = hb("store", "import", "--from", "fio", "--host",
                        "lab\x1bx", path, "--store", store(d))
    expect(status == 2 and "--host" in err, f"a host to show: {err}")
    imported(d, "--from", "fio", "--host", "lab-evil", path)
    for fmt in ("text", "csv", "md", "json", "html"):
        status, out, err = hb("history", "-f", fmt, "--store", store(d))
        expect(status == 0, err)
        expect("\x1b" not in out and "\x07" not in out and
               "\u202e" not in out, f"{fmt}: a control byte shown")
        expect(len(out) < 200000, f"{fmt}: {len(out)} bytes")
    job = series(history(d), "fio/write", "bw")["case"]["job"]
    expect(len(job.encode()) <= 4096, len(job))
    # a refusal that quotes the file says its bytes sanitized
    planted = os.path.join(d, "planted\x1b[2J.json")
    open(planted, "w").write('{"fio version": 3 \x1b]0;pwned\x07}')
    err = refused(d, "--from", "fio", planted)
    expect("\x1b" not in err and "\x07" not in err and "line 1:" in err,
           repr(err))


def test_the_same_file_imported_twice_adds_nothing():
    d = hbtest.scratch("hb-import-")
    files = [fixture("fio-3.0.json"), fixture("pyperf.json"),
             fixture("openssl-1.1.1-mr.txt")]
    imported(d, "--from", "auto", "--host", "lab-1", *files)
    err = imported(d, "--from", "auto", "--host", "lab-1", *files)
    expect("0 new runs" in err and err.count("skipped: run") == 3, err)
    expect(rows(d, "SELECT count(*) FROM run")[0][0] == 3, "three runs")
    # another host's copy of a file that names none is another run
    imported(d, "--from", "fio", "--host", "lab-2", fixture("fio-3.0.json"))
    expect(rows(d, "SELECT count(*) FROM run")[0][0] == 4, "four runs")


def fio_series_files(d, versions_bw):
    """One fio file per (version, bw KiB/s), a minute apart."""
    base = json.load(open(fixture("fio-2.json")))
    paths = []
    for i, (version, bw) in enumerate(versions_bw):
        doc = json.loads(json.dumps(base))
        doc["fio version"] = "fio-" + version
        doc["timestamp"] = 1700000000 + 60 * i
        doc["jobs"][0]["write"]["bw"] = bw
        path = os.path.join(d, f"night-{i:02}.json")
        json.dump(doc, open(path, "w"))
        paths.append(path)
    return paths


def bw_changes(d):
    status, out, err = hb("regressions", "-f", "json", "--store", store(d))
    expect(status == 0, err)
    doc = json.loads(out)
    return series(doc, "fio/write", "bw")


def test_a_tool_upgrade_is_a_context_change_never_a_regression():
    noise = [1.0, 1.004, 0.997, 1.002, 0.999, 1.003]
    old = [("3.33", int(500000 * k)) for k in noise]
    d = hbtest.scratch("hb-import-")
    paths = fio_series_files(d, old + [("3.35", int(350000 * k))
                                       for k in noise])
    imported(d, "--from", "fio", "--host", "lab-1", *paths)
    s = bw_changes(d)
    expect(len(s["contexts"]) == 2 and
           s["contexts"][1]["changed"] == ["fio 3.33 -> 3.35"],
           s["contexts"])
    expect(s["changes"] and all(c["kind"] != "regression"
                                for c in s["changes"]), s["changes"])
    step = [c for c in s["changes"] if c["context_change"]]
    expect(len(step) == 1 and step[0]["kind"] == "inconclusive" and
           step[0].get("tool_change") is True, s["changes"])
    status, out, _ = hb("regressions", "--fail", "--store", store(d))
    expect(status == 0, f"no regression open: exit {status}")
    status, out, _ = hb("history", "--store", store(d), "--case",
                        "seqwrite*")
    expect("fio 3.33 -> 3.35" in out, out)
    # the same step with the same fio is the host's: a regression
    d2 = hbtest.scratch("hb-import-")
    paths = fio_series_files(d2, old + [("3.33", int(350000 * k))
                                        for k in noise])
    imported(d2, "--from", "fio", "--host", "lab-1", *paths)
    kinds = [c["kind"] for c in bw_changes(d2)["changes"]]
    expect(kinds == ["regression"], kinds)
    status, _, _ = hb("regressions", "--fail", "--store", store(d2))
    expect(status == 1, f"a regression open: exit {status}")


def test_options_are_checked_before_anything_is_read():
    d = hbtest.scratch("hb-import-")
    path = fixture("fio-3.0.json")
    for args, why in ((("--from", "nope", path), "--from nope: expected"),
                      (("--host", "lab-1", path), "give --from FORMAT"),
                      (("--tool-version", "3", path), "give --from FORMAT"),
                      (("--from", "fio", "--tool-version", "", path),
                       "--tool-version: expected")):
        err = refused(d, *args)
        expect(why in err, f"{args}: {err}")
    unknown = os.path.join(d, "notes.txt")
    open(unknown, "w").write("nothing a tool wrote\n")
    err = refused(d, "--from", "auto", unknown)
    expect("recognised as none of the formats" in err, err)
    expect(not os.path.exists(os.path.join(d, "results.db")) or
           rows(d, "SELECT count(*) FROM run")[0][0] == 0, "nothing stored")


def test_report_of_an_imported_run_says_what_it_is():
    d = hbtest.scratch("hb-import-")
    imported(d, "--from", "pyperf", fixture("pyperf.json"))
    uuid = rows(d, "SELECT uuid FROM run")[0][0]
    status, _, err = hb("report", uuid, "--store", store(d))
    expect(status == 2 and "imported from" in err and "pyperf 2.6.1" in err,
           err)


if __name__ == "__main__":
    hbtest.main()
