# SPDX-License-Identifier: Apache-2.0
"""Asynchronous targets through the command line.

Usage: test_async.py NAME HOSTBENCH FIXTURE_DIR
The device fixture finishes each unit a fixed latency after it was
submitted, so what a queue depth buys is a matter of time, not of CPU: the
ratios below hold on a busy machine too.
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
from hbtest import expect, unwrapped  # noqa: E402

HB, FIXTURES = hbtest.args("HOSTBENCH", "FIXTURE_DIR")
DEVICE = os.path.join(FIXTURES, "device")
OLD = os.path.join(FIXTURES, "old-depth")


def run(text, *args, plugin_dir=DEVICE):
    """Run suite text with plugin_dir added; (exit status, stdout, stderr)."""
    with tempfile.NamedTemporaryFile("w", suffix=".ini") as f:
        f.write("[global]\nduration = 100ms\nrepetitions = 3\nwarmup = 0\n"
                + text)
        f.flush()
        env = dict(os.environ, HOSTBENCH_NO_CACHE="1")
        p = subprocess.run([HB, "run", f.name, "-P", plugin_dir, *args],
                           capture_output=True, text=True, env=env,
                           timeout=120)
    return p.returncode, p.stdout, p.stderr


def results(text, plugin_dir=DEVICE):
    rc, out, err = run(text, "--format", "json", plugin_dir=plugin_dir)
    expect(rc == 0, f"exit {rc}: {err}")
    return json.loads(out)["results"]


DEPTHS = """
[dev]
target = device/echo
size = 4K
latency = 2ms
capacity = 64
queue_depth = 1, 16
"""


# The ratios between depths use a slow device: a busy host that leaves
# completions unreaped for a few milliseconds moves a 20 ms unit little.
SLOW = """
latency = 20ms
duration = 400ms
"""


def test_depth_sixteen_keeps_sixteen_in_flight():
    one, sixteen = results(DEPTHS.replace("latency = 2ms", SLOW))
    expect(one["params"]["queue_depth"] == 1 and
           sixteen["params"]["queue_depth"] == 16, "a case per depth")
    ratio = sixteen["stats"]["median"] / one["stats"]["median"]
    # sixteen units in flight over a 20 ms latency: about 16x
    expect(ratio > 6, f"depth 16 / depth 1 = {ratio:.1f}, want > 6")


def test_latency_percentiles_in_nanoseconds():
    for r in results(DEPTHS):
        lat = r["latency"]
        expect(lat["count"] > 0, "units counted")
        expect(1.5e6 < lat["p50"] < 50e6,
               f"p50 {lat['p50']} ns for a 2 ms device")
        order = [lat[k] for k in ("p50", "p90", "p99", "p99.9", "max")]
        expect(order == sorted(order), f"percentiles in order: {order}")


def test_latency_counts_only_kept_samples():
    one = results(DEPTHS)[0]
    # one unit in flight: each kept sample's units are its operations
    ops = sum(d["ops"] for d in one["sample_details"])
    expect(one["latency"]["count"] == ops,
           f"{one['latency']['count']} latencies for {ops} units")


def test_full_device_queue_pushes_back():
    r = results("""
[dev]
target = device/echo
capacity = 4
queue_depth = 4, 16
""" + SLOW)
    four, sixteen = r
    expect(four["status"] == "ok" and sixteen["status"] == "ok",
           "both depths complete")
    ratio = sixteen["stats"]["median"] / four["stats"]["median"]
    # the device holds four: depth 16 cannot go faster than depth 4
    expect(0.5 < ratio < 1.6, f"depth 16 / depth 4 = {ratio:.2f}")


def test_sync_target_refuses_depth_before_running():
    rc, out, err = run("""
[copy]
target = mem/memcpy
size = 64K
queue_depth = 4
""")
    expect(rc == 2, f"exit {rc}, want 2")
    expect("queue_depth 4 needs an asynchronous target" in err and
           "mem/memcpy" in err, err)
    expect(out == "", "nothing measured")


def test_depth_out_of_range_is_refused():
    rc, _, err = run(DEPTHS.replace("1, 16", "0"))
    expect(rc == 2 and "out of range (1..4096)" in err, f"{rc}: {err}")


def test_offload_replaces_starved():
    r = results(DEPTHS)[1]
    expect(r["flags"]["offload"] and not r["flags"]["starved"],
           f"flags {r['flags']}")
    expect(any(w.startswith("offload: host CPU") for w in r["warnings"]),
           f"warnings {r['warnings']}")


def test_every_result_has_host_cpu_per_byte():
    r = results("""
[copy]
target = mem/memcpy
size = 64K
""")[0]
    expect(r["bytes_per_cpu_second"] > 0 and r["cpu_seconds_per_gb"] > 0,
           f"{r['bytes_per_cpu_second']} {r['cpu_seconds_per_gb']}")
    product = r["bytes_per_cpu_second"] * r["cpu_seconds_per_gb"] / 1e9
    expect(abs(product - 1) < 1e-6, "the two say the same")
    expect(r["latency"] is None if "latency" in r else True,
           "no latency for a synchronous target")
    expect("queue_depth" not in r["params"], "no depth for memcpy")


def test_text_and_csv_show_depth_latency_and_offload():
    rc, text, err = run(DEPTHS)
    expect(rc == 0, err)
    lines = [l for l in text.splitlines() if l.startswith("dev [")]
    expect(len(lines) == 2 and "queue_depth=16" in lines[1], lines)
    # each line names its backend and its rate per CPU-second; its
    # latency and host CPU are its footnote under the section
    # (a footnote longer than 80 columns goes on, 4 blanks in)
    notes = dict(re.findall(r"^  \[(\d+)\] (.*)$", unwrapped(text), re.M))
    for line in lines:
        expect("(fixture-device)" in line and
               re.search(r"\(\d+\.\d\dGbps per CPU-s\)", line), line)
        mark = re.search(r" \[(\d+)\]$", line)
        note = notes.get(mark.group(1), "") if mark else ""
        expect("latency p50 " in note and "offload: host CPU" in note,
               f"{line}: footnote {note!r}")
    rc, out, err = run(DEPTHS, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    expect([r["queue_depth"] for r in rows] == ["1", "16"], rows)
    expect(all(float(r["latency_p50_ns"]) > 0 and
               float(r["cpu_seconds_per_gb"]) > 0 and r["offload"] == "true"
               for r in rows), rows)
    rc, md, err = run(DEPTHS, "--format", "md")
    expect("latency p50" in md and "queue_depth" in md, md)


def html_report(doc):
    """`hostbench report` of the JSON report doc as html: (status, page)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(doc, f)
        f.flush()
        p = subprocess.run([HB, "report", f.name, "--format", "html"],
                           capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout


def latency_rows(page):
    """The rows of the page's latency charts: {data-case: {attr: value}}."""
    rows = {}
    for m in re.finditer(r'<g class="latency-row" ([^>]*)>', page):
        attrs = dict(re.findall(r'data-([a-z0-9]+)="([^"]*)"', m.group(1)))
        rows[attrs.pop("case")] = attrs
    return rows


def test_html_report_draws_the_latency_of_every_depth():
    rc, out, err = run(DEPTHS, "--format", "json")
    expect(rc == 0, err)
    doc = json.loads(out)
    rc, page = html_report(doc)
    expect(rc == 0, f"exit {rc}")
    expect(page.count('class="chart latency-chart"') == 1, "one chart")
    rows = latency_rows(page)
    expect(sorted(rows) == ["fixture-device, queue_depth 1",
                            "fixture-device, queue_depth 16"], rows)
    for r in doc["results"]:
        lat = r["latency"]
        row = rows["fixture-device, queue_depth %d" %
                   r["params"]["queue_depth"]]
        for key, attr in (("p50", "p50"), ("p90", "p90"), ("p99", "p99"),
                          ("p99.9", "p999"), ("max", "max")):
            expect(row[attr] == "%.0f" % lat[key],
                   f"{attr} {row[attr]}, JSON {lat[key]}")
    # a 2 ms device: the time axis reads in milliseconds
    expect('class="tick">1ms<' in page and 'class="tick">2ms<' in page,
           "ticks in ms")
    expect(re.search(r"<title>p50 [0-9.]+ms</title>", page), "p50 in ms")


def test_merge_html_names_the_host_of_every_latency_row():
    rc, out, err = run(DEPTHS, "--format", "json")
    expect(rc == 0, err)
    with tempfile.TemporaryDirectory() as d:
        paths = [os.path.join(d, name) for name in ("a.json", "b.json")]
        for path in paths:
            with open(path, "w") as f:
                f.write(out)
        p = subprocess.run([HB, "merge", *paths, "--format", "html"],
                           capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0, p.stderr)
    rows = latency_rows(p.stdout)
    expect(sorted(rows) == sorted(
        "fixture-device, queue_depth %d, host %s.json" % (depth, host)
        for depth in (1, 16) for host in ("a", "b")), sorted(rows))


def test_html_report_without_latency_has_no_latency_chart():
    rc, out, err = run("""
[copy]
target = mem/memcpy
size = 4K, 64K
""", "--format", "json")
    expect(rc == 0, err)
    rc, page = html_report(json.loads(out))
    expect(rc == 0 and 'class="chart line-chart"' in page,
           "the throughput chart is drawn")
    expect("latency-chart" not in page and "latency-row" not in page,
           "no latency chart without latency figures")


def test_html_latency_chart_escapes_hostile_names():
    rc, out, err = run(DEPTHS.replace("[dev]", "[dev <b>x</b> & 'q']"),
                       "--format", "json")
    expect(rc == 0, err)
    doc = json.loads(out)
    hostile = '<img src=x onerror="alert(1)">'
    for r in doc["results"]:
        r["backend"] = r["case"]["backend"] = hostile
    rc, page = html_report(doc)
    expect(rc == 0, f"exit {rc}")
    expect("<b>" not in page and "<img" not in page, "nothing unescaped")
    expect("dev &lt;b&gt;x&lt;/b&gt; &amp; &#39;q&#39;: latency of one unit"
           in page, "the job's label, escaped, in the chart title")
    escaped = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"
    expect(sorted(latency_rows(page)) ==
           [escaped + ", queue_depth 1", escaped + ", queue_depth 16"],
           "the backend, escaped, names each row")


def test_abi_12_plugin_reads_its_queue_depth_at_setup():
    one, sixteen = results(DEPTHS)
    expect((one["info"].get("depth_at_setup"),
            sixteen["info"].get("depth_at_setup")) == ("1", "16"),
           f'{one["info"]} {sixteen["info"]}')


def test_abi_11_plugin_keeps_its_own_queue_depth():
    r = results("""
[old]
target = device/echo
latency = 1ms
queue_depth = 7
""", plugin_dir=OLD)[0]
    expect(r["backend"] == "old-vendor" and r["status"] == "ok",
           f"{r['backend']} {r['status']} {r.get('reason')}")
    expect(r["info"].get("plugin_queue_depth") == "7",
           f"the plugin got {r['info']}")
    expect(r.get("latency") is None, "the core kept no units in flight")


def test_abi_11_plugin_lists_and_describes():
    env = dict(os.environ, HOSTBENCH_NO_CACHE="1")
    p = subprocess.run([HB, "describe", "device/echo", "-P", OLD],
                       capture_output=True, text=True, env=env, timeout=60)
    expect(p.returncode == 0 and "queue_depth" in p.stdout,
           f"{p.returncode}: {p.stdout}{p.stderr}")


if __name__ == "__main__":
    hbtest.main()
