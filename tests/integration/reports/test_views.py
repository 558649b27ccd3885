# SPDX-License-Identifier: Apache-2.0
"""The human views of a run on a noisy host: the rate per CPU-second beside
every figure, notes as footnotes, tables over names down the rows, the
html charts, and the command line's --format.

Usage: test_views.py NAME HOSTBENCH
Runs test_NAME on short runs of crypto, hash and memory targets and of a
transfer/command job (cat of a file) over a list of "ciphers".
"""
import atexit
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
from hbtest import expect  # noqa: E402

HB = hbtest.args("HOSTBENCH")
WORK = tempfile.mkdtemp(prefix="hb-views-")
atexit.register(shutil.rmtree, WORK, ignore_errors=True)

LINES = """[global]
duration = 20ms
repetitions = 5
warmup = 0
unit = Gbps

[AES256/GCM]
target = crypto/aes-256-gcm
backend = openssl

[AES256/CTR]
target = crypto/aes-256-ctr
backend = openssl

[memcpy]
target = mem/memcpy
size = 64K
"""

CIPHERS = """[global]
duration = 1ms
repetitions = 3
warmup = 0
unit = MB/s

[scp]
target = transfer/command
command = cat {file}
cipher = aes128-ctr, aes256-gcm@openssh.com, chacha20-poly1305@openssh.com
file_size = 1M
"""

PER_CPU = r"\(\d+\.\d\d(Gbps|MB/s) per CPU-s\)"


def run(*args):
    p = subprocess.run([HB, *args], capture_output=True, text=True,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


def measured(suite, name, fmt="json"):
    ini = os.path.join(WORK, name + ".ini")
    with open(ini, "w") as f:
        f.write(suite)
    out = os.path.join(WORK, f"{name}.{fmt}")
    status, _, err = run("run", ini, "--no-store", "--format", fmt, "-o", out)
    expect(status == 0, f"run: exit {status}: {err}")
    return out


def section(text, title):
    m = re.search(r"^-- \[%s\] -+\n(.*?)(?=^-- \[|^-{76}$)" %
                  re.escape(title), text, re.M | re.S)
    expect(m, f"no section {title}:\n{text}")
    return m.group(1)


def test_text_lines_show_per_cpu_second_and_footnotes():
    report = measured(LINES, "lines")
    status, text, err = run("report", report)
    expect(status == 0, err)
    crypto = section(text, "Secure Communication Performance")
    for line in [l for l in crypto.splitlines() if l.startswith("AES")]:
        # the job names one backend, and the line says which
        expect(re.match(r"AES256/(GCM|CTR) \(openssl\) +: ", line), line)
        expect(re.search(r" ±\d+\.\d% " + PER_CPU, line), line)
        # flags are footnotes: nothing in parentheses but the CPU figure
        expect(line.count("(") == 2, line)
        mark = re.search(r" \[(\d+)\]$", line)
        if mark:
            expect(re.search(r"^  \[%s\] \S" % mark.group(1), crypto, re.M),
                   f"footnote {mark.group(1)} under the section:\n{crypto}")
    doc = json.load(open(report))
    for r in doc["results"]:
        # the figure shown is each sample's work over its CPU time
        rates = sorted(s["bytes"] / s["cpu_seconds"] * 8 / 1e9
                       for s in r["sample_details"])
        shown = f"({rates[len(rates) // 2]:.2f}Gbps per CPU-s)"
        expect(shown in text, f"{r['job']}: {shown} not in\n{text}")


def test_md_html_compare_and_merge_show_per_cpu_second():
    report = measured(LINES, "lines")
    status, md, _ = run("report", report, "--format", "md")
    expect(status == 0 and "| Per CPU-s |" in md, md)
    status, page, _ = run("report", report, "--format", "html")
    expect(status == 0 and "<th>Per CPU-s</th>" in page, page[-2000:])
    status, out, _ = run("compare", report, report)
    expect(status == 0 and re.search(PER_CPU, out), out)
    status, out, _ = run("merge", report, report)
    expect(status == 0 and re.search(PER_CPU, out), out)


def test_html_has_a_chart_of_the_lines_with_intervals():
    report = measured(LINES, "lines")
    status, page, _ = run("report", report, "--format", "html")
    expect(status == 0, "report html")
    charts = re.findall(r'<svg [^>]*class="chart value-chart"[^>]*>.*?</svg>',
                        page, re.S)
    expect(len(charts) == 1, f"{len(charts)} value charts")
    bars = re.findall(r'<g class="value-bar" data-case="([^"]*)" '
                      r'data-value="([^"]*)" data-lo="([^"]*)" '
                      r'data-hi="([^"]*)"', charts[0])
    expect([b[0] for b in bars] == ["AES256/GCM (openssl)",
                                    "AES256/CTR (openssl)"], bars)
    for _, v, lo, hi in bars:
        expect(float(lo) <= float(v) <= float(hi), (v, lo, hi))
    for svg in re.findall(r"<svg .*?</svg>", page, re.S):
        width = int(re.search(r'width="(\d+)"', svg).group(1))
        expect(width >= 640, f"chart {width} px wide")
        labels = re.findall(r">([^<>]*)</text>", svg)
        expect(not any(re.search(r"\de[+-]\d", t) for t in labels), labels)


def test_a_table_over_ciphers_has_the_ciphers_down_its_rows():
    report = measured(CIPHERS, "ciphers")
    status, text, err = run("report", report)
    expect(status == 0, err)
    net = section(text, "Network Transfer Performance")
    head = net.splitlines()[0].split()
    expect(head[:3] == ["cipher", "scp", "(transfer)"], head)
    for cipher in ("aes128-ctr", "aes256-gcm@openssh.com",
                   "chacha20-poly1305@openssh.com"):
        expect(re.search(r"^%s +\d+\.\d\dMB/s" % re.escape(cipher), net,
                         re.M), f"row of {cipher}:\n{net}")


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def test_figure_cpu_leads_each_line_with_its_figure_per_cpu_second():
    report = measured(LINES, "lines")
    status, text, err = run("report", report, "--figure", "cpu")
    expect(status == 0, err)
    expect("Figures per CPU-second" in text, text[:3000])
    doc = json.load(open(report))
    for r in doc["results"]:
        s = r["sample_details"]
        cpu = median(x["bytes"] / x["cpu_seconds"] * 8 / 1e9 for x in s)
        wall = median(x["bytes"] / x["seconds"] * 8 / 1e9 for x in s)
        line = f"{cpu:.2f}Gbps ±"
        expect(re.search(r" : %s\d+\.\d%% \(%.2fGbps wall\)" %
                         (re.escape(line), wall), text),
               f"{r['job']}: {line} ... ({wall:.2f}Gbps wall) not in\n"
               f"{text}")
    start = text.index("Figures per CPU-second")
    for line in text[start:].splitlines():
        expect(len(line) <= 80, f"{len(line)} columns: {line}")


def test_figure_cpu_puts_the_wall_row_under_a_table():
    report = measured(LINES.replace("size = 64K", "size = 4K, 64K"), "table")
    _, wall_first, _ = run("report", report)
    status, text, err = run("report", report, "--figure", "cpu")
    expect(status == 0, err)
    base = section(text, "Base Performance")
    rows = [l.split() for l in base.splitlines()]
    figure = [r for r in rows if r and r[0] == "memcpy"][0]
    under = rows[rows.index(figure) + 1]
    expect(under[0] == "wall", base)
    # the same two figures as the default view, in the other order
    default = section(wall_first, "Base Performance")
    drows = [l.split() for l in default.splitlines()]
    dfig = [r for r in drows if r and r[0] == "memcpy"][0]
    dunder = drows[drows.index(dfig) + 1]
    expect(dunder[:3] == ["per", "CPU-s", figure[2]], (dunder, figure))
    expect(dfig[2] == under[1], (dfig, under))


def test_figure_cpu_names_its_columns_in_markdown_and_html():
    report = measured(LINES, "lines")
    status, md, err = run("report", report, "--format", "md",
                          "--figure", "cpu")
    expect(status == 0 and "| Median per CPU-s | CI95 | Wall |" in md,
           err + md)
    status, page, err = run("report", report, "--format", "html",
                            "--figure", "cpu")
    expect(status == 0 and "<th>Median per CPU-s</th>" in page and
           "<th>Wall</th>" in page and "Figures per CPU-second" in page,
           err + page[-2000:])


def test_figure_cpu_says_so_where_no_cpu_time_was_recorded():
    report = measured(LINES, "lines")
    doc = json.load(open(report))
    for r in doc["results"]:
        for x in r["sample_details"]:
            x["cpu_seconds"] = 0
    for key in ("bytes_per_cpu_second", "cpu_rate", "cpu_ops_rate"):
        for r in doc["results"]:
            r.pop(key, None)
    nocpu = os.path.join(WORK, "nocpu.json")
    with open(nocpu, "w") as f:
        json.dump(doc, f)
    status, text, err = run("report", nocpu, "--figure", "cpu")
    expect(status == 0, err)
    crypto = section(text, "Secure Communication Performance")
    expect("wall figure: no CPU time recorded" in crypto, crypto)
    expect(" wall)" not in crypto, crypto)


def test_figure_cpu_is_refused_for_json_and_csv():
    report = measured(LINES, "lines")
    for fmt in ("json", "csv"):
        status, out, err = run("report", report, "--format", fmt,
                               "--figure", "cpu")
        expect(status == 2 and out == "", f"{fmt}: exit {status}")
        expect(f"--figure cpu: a {fmt} report holds both figures" in err,
               err)
    status, _, err = run("report", report, "--figure", "gpu")
    expect(status == 2 and "--figure gpu: expected wall or cpu" in err, err)


def test_a_second_format_is_refused():
    status, out, err = run("run", "--format", "json", "-f", "csv")
    expect(status == 2 and out == "", f"exit {status}")
    expect("--format given twice (json, then csv)" in err, err)


if __name__ == "__main__":
    hbtest.main()
