# SPDX-License-Identifier: Apache-2.0
"""hostbench export: OpenMetrics text and Bencher Metric Format JSON.

Usage: test_export.py NAME HOSTBENCH
The OpenMetrics output is read back with prometheus_client's strict
OpenMetrics parser (Debian's python3-prometheus-client, .ci/setup).
"""
import json
import math
import os
import stat
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB = hbtest.args("HOSTBENCH")
SUITE = """[global]
duration = 5ms
repetitions = 3
warmup = 0

[copy]
target = mem/memcpy
size = 64K, 256K

[fill]
target = mem/memset
size = 64K
parallel = 2
"""
HOSTILE = 'lab"7\\\n\x1b[2Jx' + "y" * 5000
FAMILY = "hostbench_throughput_bytes_per_second"


def parser():
    """prometheus_client's OpenMetrics parser, Debian's package even
    under another interpreter (it is pure Python)."""
    try:
        from prometheus_client.openmetrics import parser as p
    except ImportError:
        sys.path.append("/usr/lib/python3/dist-packages")
        from prometheus_client.openmetrics import parser as p
    return p.text_string_to_metric_families


def run(*args):
    p = subprocess.run([HB, *args], capture_output=True, text=True,
                       timeout=90)
    return p.returncode, p.stdout, p.stderr


def report(d, name="r.json", store=None):
    """A real run's JSON report in d (stored in store when given)."""
    ini = os.path.join(d, "s.ini")
    with open(ini, "w") as f:
        f.write(SUITE)
    out = os.path.join(d, name)
    where = ["--store", store] if store else ["--no-store"]
    rc, _, err = run("run", ini, "-f", "json", "-o", out, *where)
    expect(rc == 0, f"run: {rc} {err}")
    with open(out) as f:
        return out, json.load(f)


def families(text):
    """The parsed families by name (the parse itself is the check)."""
    return {m.name: m for m in parser()(text)}


def by_case(fam):
    return {(s.labels["case"], s.labels["size"]): s for s in fam.samples}


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-12)


def hostile_report(d):
    """A real report whose host and case names are hostile."""
    path, doc = report(d)
    doc["system"]["hostname"] = HOSTILE
    doc["results"][0]["title"] = doc["results"][0]["job"] = HOSTILE
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def bmf_check(doc):
    """Bencher Metric Format's schema: benchmark -> measure -> metric,
    value required, bounds numbers around it."""
    expect(isinstance(doc, dict) and doc, "BMF: a non-empty object")
    for name, measures in doc.items():
        expect(isinstance(name, str) and 0 < len(name) <= 1024,
               f"benchmark name {name!r}")
        expect(isinstance(measures, dict) and measures, f"{name}: measures")
        for slug, m in measures.items():
            expect(0 < len(slug) <= 64, f"measure slug {slug!r}")
            expect(set(m) <= {"value", "lower_value", "upper_value"},
                   f"{name}/{slug}: keys {sorted(m)}")
            expect("value" in m, f"{name}/{slug}: no value")
            for v in m.values():
                expect(isinstance(v, (int, float)) and math.isfinite(v),
                       f"{name}/{slug}: {v!r} is no number")
            if "lower_value" in m or "upper_value" in m:
                expect(m["lower_value"] <= m["value"] <= m["upper_value"],
                       f"{name}/{slug}: lower <= value <= upper: {m}")


def test_openmetrics_of_a_report_parses_strictly_with_its_medians():
    d = hbtest.scratch("hb-export-")
    path, doc = report(d)
    rc, out, err = run("export", "--format", "openmetrics", path)
    expect(rc == 0, f"export: {rc} {err}")
    expect(out.endswith("# EOF\n"), "ends with # EOF")
    fams = families(out)
    fam = fams[FAMILY]
    expect(fam.type == "gauge" and fam.unit == "bytes_per_second",
           f"{fam.type} {fam.unit}")
    samples = by_case(fam)
    host = doc["system"]["hostname"]
    for r in doc["results"]:
        s = samples[(r["title"], str(r["params"]["size"]))]
        expect(close(s.value, r["stats"]["median"]),
               f"{r['title']}: {s.value} against {r['stats']['median']}")
        expect(s.labels["host"] == host and s.labels["better"] == "higher"
               and s.labels["target"] == r["target"]
               and s.labels["backend"] == r["backend"]
               and s.labels["parallel"] == str(r["params"]["parallel"]),
               f"labels {s.labels}")
    low = by_case(fams["hostbench_throughput_ci95_low_bytes_per_second"])
    for r in doc["results"]:
        s = low[(r["title"], str(r["params"]["size"]))]
        expect(close(s.value, r["stats"]["ci95_low"]), f"ci95_low {s}")


def test_openmetrics_file_is_written_whole_and_readable_by_others():
    d = hbtest.scratch("hb-export-")
    path, _ = report(d)
    prom = os.path.join(d, "textfile", "hostbench.prom")
    os.mkdir(os.path.dirname(prom))
    old = os.umask(0o022)
    try:
        rc, out, err = run("export", path, "-o", prom)
    finally:
        os.umask(old)
    expect(rc == 0 and out == "", f"export: {rc} {err}")
    expect(os.listdir(os.path.dirname(prom)) == ["hostbench.prom"],
           f"only the file: {os.listdir(os.path.dirname(prom))}")
    expect(stat.S_IMODE(os.stat(prom).st_mode) == 0o644,
           oct(os.stat(prom).st_mode))
    with open(prom) as f:
        families(f.read())


def test_bmf_of_a_report_meets_its_schema_with_the_ci_as_bounds():
    d = hbtest.scratch("hb-export-")
    path, doc = report(d)
    rc, out, err = run("export", "-f", "bmf", path)
    expect(rc == 0, f"export: {rc} {err}")
    bmf = json.loads(out)
    bmf_check(bmf)
    expect(len(bmf) == len(doc["results"]), f"{len(bmf)} benchmarks")
    for r in doc["results"]:
        name = next(n for n in bmf if n.startswith(r["title"] + " ("))
        m = bmf[name]["bytes-per-second"]
        expect(close(m["value"], r["stats"]["median"])
               and close(m["lower_value"], r["stats"]["ci95_low"])
               and close(m["upper_value"], r["stats"]["ci95_high"]),
               f"{name}: {m} against {r['stats']}")


def test_export_of_a_store_takes_the_newest_run_of_each_series():
    d = hbtest.scratch("hb-export-")
    store = "sqlite:" + os.path.join(d, "lab.db")
    report(d, "old.json", store)
    _, new = report(d, "new.json", store)
    rc, out, err = run("export", "--store", store)
    expect(rc == 0, f"export: {rc} {err}")
    samples = by_case(families(out)[FAMILY])
    expect(len(samples) == len(new["results"]), f"{len(samples)} series")
    for r in new["results"]:
        s = samples[(r["title"], str(r["params"]["size"]))]
        expect(close(s.value, r["stats"]["median"]),
               f"{r['title']}: {s.value}, newest {r['stats']['median']}")


def test_imported_rates_are_exported_in_bytes_per_second():
    # fio's bw is stored as bytes/s under a display unit (MiB/s): the
    # export names the base unit, not the display's
    d = hbtest.scratch("hb-export-")
    fio = os.path.join(d, "fio.json")
    with open(fio, "w") as f:
        p = subprocess.run(["fio", "--name=r1", "--rw=read", "--size=1M",
                            "--bs=4k", "--directory=" + d,
                            "--output-format=json"], stdout=f,
                           stderr=subprocess.DEVNULL, timeout=120)
    expect(p.returncode == 0, "fio")
    doc = json.load(open(fio))
    bw = doc["jobs"][0]["read"]["bw_bytes"]
    store = "sqlite:" + os.path.join(d, "lab.db")
    rc, _, err = run("store", "import", "--from", "fio", "--host", "lab1",
                     fio, "--store", store)
    expect(rc == 0, err)
    rc, out, err = run("export", "--store", store)
    expect(rc == 0, err)
    fams = families(out)
    expect("hostbench_bw_bytes_per_second" in fams, sorted(fams))
    expect(not any("mib" in name for name in fams), sorted(fams))
    got = fams["hostbench_bw_bytes_per_second"].samples[0].value
    expect(math.isclose(got, bw, rel_tol=1e-6), (got, bw))


def test_export_of_a_store_is_selected_by_case():
    d = hbtest.scratch("hb-export-")
    store = "sqlite:" + os.path.join(d, "lab.db")
    report(d, "r.json", store)
    rc, out, err = run("export", "--store", store, "--case", "fill",
                       "-f", "bmf")
    expect(rc == 0, f"export: {rc} {err}")
    bmf = json.loads(out)
    bmf_check(bmf)
    expect(len(bmf) == 1 and next(iter(bmf)).startswith("fill ")
           and "(mem/memset, mem, size 65536, parallel 2)" in next(iter(bmf)),
           f"{list(bmf)}")


def test_hostile_names_come_out_escaped_and_bounded_in_openmetrics():
    d = hbtest.scratch("hb-export-")
    rc, out, err = run("export", hostile_report(d))
    expect(rc == 0, f"export: {rc} {err}")
    for fam in families(out).values():
        for s in fam.samples:
            for v in s.labels.values():
                expect(len(v.encode()) <= 128, f"label {len(v)} bytes")
                expect(not any(ord(c) < 32 or ord(c) == 127 for c in v),
                       f"control character in {v!r}")
            expect(s.labels["host"].startswith('lab"7\\ ?[2Jx'),
                   f"host {s.labels['host']!r}")


def test_hostile_names_come_out_bounded_in_bmf_from_a_store():
    d = hbtest.scratch("hb-export-")
    store = "sqlite:" + os.path.join(d, "lab.db")
    rc, _, err = run("store", "import", "--store", store, hostile_report(d))
    expect(rc == 0, f"import: {rc} {err}")
    rc, out, err = run("export", "--store", store, "-f", "bmf")
    expect(rc == 0, f"export: {rc} {err}")
    bmf = json.loads(out)
    bmf_check(bmf)
    for name in bmf:
        expect(not any(ord(c) < 32 for c in name), f"control in {name!r}")
        expect(len(name.encode()) < 700, f"name of {len(name)} bytes")


def test_a_file_that_is_no_report_is_refused_and_nothing_written():
    d = hbtest.scratch("hb-export-")
    bad = os.path.join(d, "bad.json")
    with open(bad, "w") as f:
        f.write('{"results": [}')
    prom = os.path.join(d, "out.prom")
    rc, out, err = run("export", bad, "-o", prom)
    expect(rc == 2, f"status {rc}")
    expect("bad.json" in err and len(err.splitlines()) == 1, err)
    expect(os.listdir(d) == ["bad.json"], f"{os.listdir(d)}")


def test_selectors_of_the_store_with_reports_are_refused():
    d = hbtest.scratch("hb-export-")
    path, _ = report(d)
    rc, _, err = run("export", path, "--host", "lab-1")
    expect(rc == 2 and "--host selects series of the store" in err, err)


def test_a_report_format_is_refused_by_export():
    rc, _, err = run("export", "-f", "csv")
    expect(rc == 2 and "export writes openmetrics or bmf" in err, err)


if __name__ == "__main__":
    hbtest.main()
