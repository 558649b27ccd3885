# SPDX-License-Identifier: Apache-2.0
"""compare, merge, the md grid and the html page, end to end.

Usage: test_reports.py NAME HOSTBENCH
Runs test_NAME. Reports come from short runs of memory targets; the tests
that need a changed report write it by transforming a real run's JSON, so
no verdict depends on how noisy the machine is.
"""
import atexit
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect, unwrapped  # noqa: E402

HB = hbtest.args("HOSTBENCH")
WORK = tempfile.mkdtemp(prefix="hb-reports-")
atexit.register(shutil.rmtree, WORK, ignore_errors=True)

# memset of 64K is the steadiest target here; memcpy varies size x parallel.
SUITE = """[global]
duration = 30ms
repetitions = 6
warmup = 1
unit = GB/s

[copy]
target = mem/memcpy
size = 1M, 2M
parallel = 1, 2

[fill]
target = mem/memset
size = 64K
"""


def run(*args):
    """Run hostbench; return (status, stdout, stderr)."""
    p = subprocess.run([HB, *args], capture_output=True, text=True,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


def path(name):
    return os.path.join(WORK, name)


def measured(fmt="json", name="base.json"):
    """Run SUITE once into WORK/name; return the path."""
    with open(path("suite.ini"), "w") as f:
        f.write(SUITE)
    status, _, err = run("run", path("suite.ini"), "--format", fmt,
                         "-o", path(name))
    expect(status == 0, f"run: exit {status}: {err}")
    return path(name)


def scaled(src, factor, name, edit=None):
    """A copy of report src with every rate times factor."""
    doc = json.load(open(src))
    for r in doc["results"]:
        if r["status"] != "ok":
            continue
        r["samples"] = [v * factor for v in r["samples"]]
        for k in ("median", "min", "max", "mean", "stddev", "p25", "p75"):
            r["stats"][k] *= factor
        for s in r["sample_details"]:
            s["bytes"] *= factor
    if edit:
        edit(doc)
    json.dump(doc, open(path(name), "w"))
    return path(name)


def compare_json(a, b, *extra, want=0):
    """compare A B --format json EXTRA, which must exit want; its JSON."""
    status, out, err = run("compare", a, b, "--format", "json", *extra)
    expect(status == want, f"compare: exit {status}, want {want}: {err}")
    return json.loads(out)


def test_halved_report_is_regressed():
    base = measured()
    half = scaled(base, 0.5, "half.json")
    doc = compare_json(base, half)
    verdicts = [c["verdict"] for c in doc["cases"]]
    # a busy host can make every case noisy; a steady one must regress
    expect("regressed" in verdicts or
           all(c["base"]["cv"] >= 0.15 for c in doc["cases"]),
           f"nothing regressed: {verdicts}")
    # --fail-on-regression: exit 1 exactly when a case regressed
    compare_json(base, half, "--fail-on-regression",
                 want=int("regressed" in verdicts))
    for c in doc["cases"]:
        expect(abs(c["diff"] + 0.5) < 1e-9, f"diff {c['diff']}, want -50%")
        # with 6 samples a side the test decides; steady cases must be caught
        if c["base"]["cv"] < 0.15:
            expect(c["verdict"] == "regressed", f"{c['title']}: {c}")
    expect(doc["summary"]["regressed"] == verdicts.count("regressed"),
           "summary count")
    status, out, _ = run("compare", base, half)
    expect(status == 0, "without --fail-on-regression compare exits 0")
    # the text says what the JSON says (a neighbour can make fill noisy)
    fill = [c["verdict"] for c in doc["cases"] if c["title"] == "fill"]
    expect(re.search(r"^fill \(mem\) .* -50\.00% .* " + fill[0] +
                     r"( \(per CPU-s\))?$", out, re.M),
           f"text line of fill:\n{out}")


def test_same_run_is_not_flagged():
    # Two live runs on a shared 2-CPU VM differ by more than 5% too often
    # to gate on; the report against itself and against a copy 1% faster
    # must never be flagged.
    base = measured()
    for other in (base, scaled(base, 1.01, "plus1.json")):
        doc = compare_json(base, other, "--fail-on-regression", want=0)
        expect(all(c["verdict"] == "within noise" for c in doc["cases"]),
               [c["verdict"] for c in doc["cases"]])


def test_context_differences_are_called_out():
    base = measured()

    def other_host(doc):
        doc["system"]["kernel"] = "Linux 9.9.9"
        doc["libraries"].setdefault("openssl", {})["OpenSSL"] = "3.5.0"
        doc["results"] = doc["results"][1:]  # one case only in base
    new = scaled(base, 1, "other.json", other_host)
    status, out, err = run("compare", base, new)
    expect(status == 0, err)
    expect(re.search(r"^\* Kernel +: .* -> Linux 9\.9\.9$", out, re.M),
           f"kernel not called out:\n{out}")
    expect(re.search(r"^\* Library OpenSSL \(openssl\) +: .* -> 3\.5\.0$",
                     out, re.M), "library not called out")
    expect(re.search(r"^Differs: Kernel, Library OpenSSL", out, re.M),
           "differs line")
    expect(re.search(r"only in base$", out, re.M), "case only in base")
    doc = compare_json(base, new)
    expect(doc["summary"]["only_base"] == 1, doc["summary"])
    expect([f["name"] for f in doc["context"] if f["differs"]][:1] ==
           ["Kernel"], "json context")


def bad(args, fragment, output):
    """Exit 2, one line naming the problem, --output not created."""
    status, out, err = run(*args, "-o", output)
    expect(status == 2, f"exit {status}, want 2 ({err!r})")
    lines = [l for l in err.splitlines() if l and not l.startswith("Try ")]
    expect(len(lines) == 1, f"want one error line, got {lines!r}")
    expect(fragment in lines[0], f"{lines[0]!r} lacks {fragment!r}")
    expect(not os.path.exists(output), "output written for bad input")


def test_bad_input_exits_2_and_writes_nothing():
    base = measured()
    out = path("out.txt")
    with open(path("suite.json"), "w") as f:
        f.write("[global]\nduration = 1s\n")
    bad(["compare", base, path("suite.json")], "not a hostbench JSON report",
        out)
    json.dump({"results": []}, open(path("other.json"), "w"))
    bad(["compare", path("other.json"), base], "not a hostbench JSON report",
        out)
    newer = scaled(base, 1, "newer.json",
                   lambda d: d.update(schema_version=99))
    bad(["compare", base, newer], "schema_version 99", out)

    def rename(doc):
        for r in doc["results"]:
            r["job"] += "-other"
    disjoint = scaled(base, 1, "disjoint.json", rename)
    bad(["compare", base, disjoint], "no case in common", out)
    bad(["merge", base, path("missing.json")], "missing.json", out)
    bad(["compare", base], "compare needs two reports", out)
    leftovers = [f for f in os.listdir(WORK) if ".tmp-" in f]
    expect(not leftovers, f"temporary files left: {leftovers}")


def test_by_with_a_value_the_report_lacks_lists_its_values():
    base = measured()
    out = path("by.txt")
    bad(["compare", base, "--by", "size=1M,3M"],
        "has no case with size 3M (its values: 1M, 2M, 64K)", out)
    bad(["compare", base, "--by", "parallel=5,1"],
        "has no case with parallel 5 (its values: 1, 2)", out)
    bad(["compare", base, "--by", "sise=1M,2M"],
        "has the key sise (its keys: backend, size, parallel", out)
    status, _, err = run("compare", base, "--by", "size=1M,2M")
    expect(status == 0, f"values it has still compare: {err}")


LEGEND = ("sizes binary (1K = 1024 B); rates decimal (1 MB/s = 10^6 B/s; "
          "MiB/s, GiB/s: 2^20, 2^30 B/s)")


def test_every_report_says_which_units_are_binary_and_which_decimal():
    base = measured()
    doc = json.load(open(base))
    expect(doc["units"] == {"sizes": "binary", "rates": "decimal",
                            "legend": LEGEND}, doc.get("units"))
    for fmt, line in (("text", "Units : " + LEGEND),
                      ("md", "- **Units**: " + LEGEND)):
        status, out, err = run("report", base, "--format", fmt)
        # the text report wraps a long fact at 80 columns, 4 blanks in
        expect(status == 0 and line in unwrapped(out).splitlines(),
               f"{fmt}: {out}")
    status, out, err = run("report", base, "--format", "html")
    expect(status == 0 and LEGEND in out, "html")
    for cmd in ("compare", "merge"):
        for fmt in ("text", "md", "html"):
            status, out, err = run(cmd, base, base, "--format", fmt)
            expect(status == 0 and LEGEND in out, f"{cmd} {fmt}: {err}")
        status, out, err = run(cmd, base, base, "--format", "json")
        expect(json.loads(out)["units"] == LEGEND, f"{cmd} json")


def journaled():
    """Run SUITE once into WORK/run.json and the journal WORK/run.jsonl."""
    with open(path("suite.ini"), "w") as f:
        f.write(SUITE)
    status, _, err = run("run", path("suite.ini"), "--format", "json",
                         "-o", path("run.json"), "--journal",
                         path("run.jsonl"))
    expect(status == 0, f"run: exit {status}: {err}")
    return path("run.json"), path("run.jsonl")


# The lines of a run's identity that differ between two runs of one suite.
RUN_LINE = re.compile(r"^(Run|Command) : |^- \*\*(Run|Command)\*\*: |"
                      r"^<tr><th>(Run|Command)</th>")


def without_run(fmt, text):
    """text without what differs between two runs of one suite: the run's
    uuid, times and command line (docs/json-schema.md, "run")."""
    if fmt == "json":
        doc = json.loads(text)
        doc.pop("run", None)
        return doc
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(text)))
        cut = -3 if rows and rows[0][-3:] == ["run_uuid", "started",
                                              "label"] else None
        return [row[:cut] for row in rows]
    # a text report's long fact goes on, 4 blanks in: one line again
    text = unwrapped(text) if fmt == "text" else text
    return [line for line in text.splitlines() if not RUN_LINE.match(line)]


def test_report_renders_what_the_run_printed():
    _, journal = journaled()
    # the same measurement, every case from the journal, saved as JSON
    status, _, err = run("run", path("suite.ini"), "--resume", journal,
                         "--format", "json", "-o", path("resumed.json"))
    expect(status == 0, f"resumed run: exit {status}: {err}")
    for fmt in ("text", "md", "csv", "html", "json"):
        status, printed, err = run("run", path("suite.ini"), "--resume",
                                   journal, "--format", fmt)
        expect(status == 0, f"resumed run: exit {status}: {err}")
        status, rendered, err = run("report", path("resumed.json"),
                                    "--format", fmt)
        expect(status == 0, f"report: exit {status}: {err}")
        expect(without_run(fmt, rendered) == without_run(fmt, printed),
               f"{fmt}: report differs from the run")


def test_report_reads_a_journal():
    doc, journal = journaled()
    _, from_doc, _ = run("report", doc, "--format", "csv")
    status, from_journal, err = run("report", journal, "--format", "csv")
    expect(status == 0, f"report of a journal: exit {status}: {err}")
    # a journal keeps results only, not the run's identity
    expect(without_run("csv", from_journal) == without_run("csv", from_doc),
           "the journal's results differ")


def test_report_of_a_file_that_is_no_report_is_exit_2():
    with open(path("notes.txt"), "w") as f:
        f.write("not a report\n")
    status, out, err = run("report", path("notes.txt"))
    expect(status == 2 and out == "", f"exit {status}, stdout {out!r}")
    expect("not a hostbench JSON report" in err, err)


def test_merge_has_a_column_per_host():
    base = measured()
    other = scaled(base, 2, "lab-2.json",
                   lambda d: d["system"].update(hostname="lab-2"))
    status, out, err = run("merge", base, other, "--format", "csv")
    expect(status == 0, err)
    rows = list(csv.DictReader(io.StringIO(out)))
    host = json.load(open(base))["system"]["hostname"]
    expect(len(rows) == 5, f"{len(rows)} rows, want 5")
    for r in rows:
        a, b = float(r[f"{host} median"]), float(r["lab-2 median"])
        expect(abs(b / a - 2) < 1e-9, f"{r['title']}: {a} {b}")
    status, out, err = run("merge", base, other, "--format", "json")
    doc = json.loads(out)
    expect([c["label"] for c in doc["columns"]] == [host, "lab-2"], "labels")
    expect(all(len(c["values"]) == 2 for c in doc["cases"]), "values")
    status, out, err = run("merge", base, other, "--format", "md")
    expect(f"| Case | {host} | lab-2 |" in out, f"md header:\n{out}")
    expect(re.search(r"^\| fill \(mem\) \| [0-9.]+GB/s ±[0-9.]+%", out,
                     re.M), "md cells carry the CV")
    status, out, err = run("merge", base, base)
    expect("base.json" in out, "one host twice: columns named by file")


def chart_series(page):
    """{(data-kind, chart title): [series names]} of the page's charts."""
    charts = {}
    for svg in re.findall(r"<svg .*?</svg>", page, re.S):
        kind = re.search(r'data-kind="([^"]*)"', svg).group(1)
        title = re.search(r"<title>([^<]*)</title>", svg)
        key = (kind, title.group(1) if title else "")
        charts[key] = re.findall(r'data-series="([^"]*)"', svg)
    return charts


def test_merge_html_has_the_run_charts_with_hosts_as_series():
    base = measured()
    other = scaled(base, 2, "lab-2.json",
                   lambda d: d["system"].update(hostname="lab-2"))
    host = json.load(open(base))["system"]["hostname"]
    _, page, err = run("report", base, "--format", "html")
    run_charts = chart_series(page)
    status, page, err = run("merge", base, other, "--format", "html")
    expect(status == 0, err)
    merged = chart_series(page)
    expect(sorted(merged) == sorted(run_charts) and merged,
           f"charts {sorted(merged)}, the run's {sorted(run_charts)}")
    for key, names in merged.items():
        measured_lines = [n for n in names if n != "ideal scaling"]
        expect(any(f"host {host}" in n for n in measured_lines) and
               any("host lab-2" in n for n in measured_lines),
               f"{key}: series {names}")


def test_md_reads_size_by_parallel_as_grid():
    md = open(measured("md", "run.md")).read()
    expect("| copy | 1 parallel | 2 parallels |" in md, f"grid header:\n{md}")
    for size in ("1M", "2M"):
        # each figure with its CV
        expect(re.search(r"^\| size %s( \| [0-9.]+GB/s ±[0-9.]+%%){2} \|$"
                         % size, md, re.M), f"grid row {size}:\n{md}")


def self_contained(page):
    text = open(page).read()
    expect("<script" not in text and "<link" not in text, "script or link")
    # an anchor within the page (href="#context") fetches nothing
    refs = re.findall(r"""(?:src|href)\s*=(?!\s*"#)|url\(|@import|https?://""",
                      text)
    refs = [r for r in refs if r != "http://"]
    expect(not refs, f"external references: {refs}")
    expect(text.count("http://www.w3.org/2000/svg") ==
           text.count("http://"), "only the SVG namespace names a URL")


def test_html_report_renders_in_chromium():
    page = measured("html", "run.html")
    self_contained(page)
    dom, console = hbtest.chromium(page)
    expect(not console, f"console messages: {console}")
    expect("<h1>hostbench report</h1>" in dom, "title")
    expect('<table class="context">' in dom, "context table")
    # figures first: the first table of figures comes before the context
    expect(dom.index('<table class="grid">') <
           dom.index('<table class="context">'), "context before figures")
    expect('<table class="grid">' in dom and "2 parallels</th>" in dom,
           "size x parallel grid")
    expect('<table class="cases">' in dom, "case table of fill")
    charts = re.findall(r'<svg [^>]*class="chart line-chart" '
                        r'data-kind="(\w+)"', dom)
    expect(sorted(charts) == ["parallel", "size"], f"charts: {charts}")
    size_chart = dom[dom.index('data-kind="size"'):]
    size_chart = size_chart[:size_chart.index("</svg>")]
    expect(re.findall(r'class="series" data-series="([^"]+)"', size_chart)
           == ["1 parallel", "2 parallels"], "a line per parallelism")
    par = dom[dom.index('data-kind="parallel"'):]
    par = par[:par.index("</svg>")]
    expect(re.findall(r'class="series" data-series="([^"]+)"', par)
           == ["size 1M", "size 2M"], "a line per size")
    expect(par.count('class="ideal"') == 2, "ideal scaling for each")


def test_html_compare_renders_in_chromium():
    base = measured()
    half = scaled(base, 0.5, "half.json")
    page = path("compare.html")
    status, _, err = run("compare", base, half, "--format", "html",
                         "-o", page)
    expect(status == 0, err)
    self_contained(page)
    dom, console = hbtest.chromium(page)
    expect(not console, f"console messages: {console}")
    expect("<h1>hostbench compare</h1>" in dom, "title")
    expect('<rect class="noise-band"' in dom, "noise band")
    bars = re.findall(r'class="bar (\w+)" data-case="([^"]+)" '
                      r'data-value="([-0-9.]+)"', dom)
    expect(len(bars) == 5, f"{len(bars)} bars, want 5")
    expect(all(float(v) == -50 for _, _, v in bars), bars)
    # each bar wears the verdict compare gives the same pair (a case a busy
    # host made noisy may stay within noise; a steady one must regress)
    doc = compare_json(base, half)
    want = ["same" if c["verdict"] == "within noise" else c["verdict"]
            for c in doc["cases"]]
    expect([v for v, _, _ in bars] == want, f"bars {bars}, verdicts {want}")
    expect("regressed" in want or
           all(c["base"]["cv"] >= 0.15 for c in doc["cases"]),
           f"a steady case not regressed: {doc['cases']}")


if __name__ == "__main__":
    hbtest.main()
