# SPDX-License-Identifier: Apache-2.0
"""The dashboard site, written by the shipped code from a fixture history
document, loaded in headless Chromium from file://.

Usage: test_dashboard.py NAME DASHBOARD_FIXTURE HISTORY_JSON
Runs test_NAME. DASHBOARD_FIXTURE writes the site of HISTORY_JSON with
dashboard_write() (tests/integration/history/dashboard_fixture.c).
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

FIXTURE, HISTORY = hbtest.args("DASHBOARD_FIXTURE", "HISTORY_JSON")
WORK = tempfile.mkdtemp(prefix="hb-dashboard-")
atexit.register(shutil.rmtree, WORK, ignore_errors=True)


def site():
    """The site of the fixture history, written into WORK/site."""
    d = os.path.join(WORK, "site")
    p = subprocess.run([FIXTURE, HISTORY, d], capture_output=True, text=True,
                       timeout=60)
    expect(p.returncode == 0, f"dashboard_fixture: {p.stderr}")
    return d


def self_contained(page):
    """No script, no style sheet or image fetched, no URL but the SVG
    namespace; links only to pages of the site."""
    text = open(page).read()
    expect("<script" not in text and "<link" not in text, "script or link")
    expect(not re.findall(r"src\s*=|url\(|@import", text), "a fetch")
    urls = re.findall(r"\w+://[^\s\"'<>]*", text)
    expect(set(urls) <= {"http://www.w3.org/2000/svg"}, f"URLs: {urls}")
    for href in re.findall(r'href="([^"]*)"', text):
        expect(re.fullmatch(r"[A-Za-z0-9_.-]+\.html(#[A-Za-z0-9_.-]+)?",
                            href), f"href {href}")
        href = href.split("#")[0]
        expect(os.path.isfile(os.path.join(os.path.dirname(page), href)),
               f"{href}: no such page in the site")


def host_ids():
    return [h["id"] for h in json.load(open(HISTORY))["hosts"]]


def test_index_links_every_host_page():
    d = site()
    index = os.path.join(d, "index.html")
    self_contained(index)
    dom, console = hbtest.chromium(index)
    expect(not console, f"console messages: {console}")
    expect("<h1>hostbench dashboard</h1>" in dom, "title")
    links = re.findall(r'<a class="host-page" href="([^"]+)"', dom)
    expect(sorted(set(links)) == sorted(f"host-{i}.html" for i in host_ids())
           and links[:len(host_ids())] == [f"host-{i}.html"
                                           for i in host_ids()],
           f"links {links}")
    expect("&lt;script&gt;alert(1)&lt;/script&gt;" in dom, "escaped name")
    expect(not re.search(r"<script", dom), "a script element in the DOM")


def test_host_page_renders_a_trend_chart_per_series():
    d = site()
    index = os.path.join(d, "index.html")
    dom, _ = hbtest.chromium(index)
    first = re.findall(r'<a class="host-page" href="([^"]+)"', dom)[0]
    page = os.path.join(d, first)
    self_contained(page)
    dom, console = hbtest.chromium(page)
    expect(not console, f"console messages: {console}")
    charts = re.findall(r'<svg [^>]*class="chart trend-chart"', dom)
    expect(len(charts) == 2, f"{len(charts)} charts, want 2")
    trend = dom[dom.index('data-series="s-1"'):]
    trend = trend[:trend.index("</svg>")]
    expect(len(re.findall(r'<(?:circle|path) class="point', trend)) == 8,
           "a point per run")
    expect('class="change regression" data-id="ch-1" data-state="new"'
           in trend, "the regression marked")
    expect('class="context-change" data-id="c-2"' in trend,
           "the context change marked")
    expect('<table class="changes">' in dom, "change points listed")
    expect('href="index.html"' in dom, "a way back to the index")


def case_pages(d):
    return sorted(n for n in os.listdir(d) if n.startswith("case-"))


def test_pages_are_written_whole_with_no_temporary_left():
    d = site()
    d = site()  # over the first: every page replaced
    names = sorted(os.listdir(d))
    expect(names == sorted(["index.html"] + case_pages(d) +
                           [f"host-{i}.html" for i in host_ids()]),
           f"files: {names}")
    expect(len(case_pages(d)) == 3, f"a page per case: {case_pages(d)}")


def open_regressions(doc):
    """Per host id: its changes that are regressions still new."""
    count = {h["id"]: 0 for h in doc["hosts"]}
    for s in doc["series"]:
        for c in s.get("changes", []):
            if c["kind"] == "regression" and c.get("state", "new") == "new":
                count[s["host"]] += 1
    return count


def test_index_shows_each_hosts_open_regressions_and_latest_figures():
    doc = json.load(open(HISTORY))
    d = site()
    dom, console = hbtest.chromium(os.path.join(d, "index.html"))
    expect(not console, f"console messages: {console}")
    got = [int(n) for n in re.findall(r'<td class="open" data-open="(\d+)"',
                                      dom)]
    want = [open_regressions(doc)[h["id"]] for h in doc["hosts"]]
    expect(got == want, f"open regressions per host {got}, want {want}")
    rows = re.findall(r'<tr class="open-regression">', dom)
    expect(len(rows) == sum(want), f"{len(rows)} open regression rows")
    shown = re.findall(r'<tr class="series" data-series="([^"]+)"', dom)
    expect(sorted(shown) == sorted(s["id"] for s in doc["series"]),
           f"series on the index: {shown}")
    expect('data-verdict="regression"' in dom, "the newest verdict shown")
    expect("2.88Gbps" in dom, "the latest figure of s-1")
    for page in re.findall(r'<a class="series-link" href="([^"#]+)#', dom):
        expect(os.path.isfile(os.path.join(d, page)), f"{page}: no page")


def test_case_page_sets_every_host_side_by_side():
    d = site()
    for page in case_pages(d):
        self_contained(os.path.join(d, page))
        dom, console = hbtest.chromium(os.path.join(d, page))
        expect(not console, f"{page}: console messages: {console}")
        hosts = re.findall(r'<table class="case-hosts">.*?</table>', dom,
                           re.S)
        expect(hosts, f"{page}: no table of hosts")
        rows = hosts[0].count("<tr>") - 1
        charts = len(re.findall(r'class="chart trend-chart"', dom))
        expect(rows >= 1 and charts == rows,
               f"{page}: {rows} hosts, {charts} charts")


def test_host_chart_draws_flagged_points_and_a_legend():
    d = site()
    dom, _ = hbtest.chromium(os.path.join(d, "host-h-1.html"))
    trend = dom[dom.index('data-series="s-1"'):]
    trend = trend[:trend.index("</svg>")]
    expect(re.search(r'<path class="point flagged"[^>]*stroke="#e69f00"',
                     trend), "a flagged point as a coloured diamond")
    expect('<g class="legend">' in trend and "wall median" in trend,
           "a legend")


def test_dashboard_screenshot_at_1400_px_is_not_blank():
    d = site()
    for page in ("index.html", "host-h-1.html"):
        png = os.path.join(WORK, page + ".png")
        colours = hbtest.screenshot(os.path.join(d, page), png)
        expect(colours >= 8, f"{page}: {colours} colours: blank?")


def test_a_file_in_place_of_the_directory_is_refused():
    f = os.path.join(WORK, "file")
    open(f, "w").close()
    p = subprocess.run([FIXTURE, HISTORY, f], capture_output=True, text=True,
                       timeout=60)
    expect(p.returncode == 1, f"exit {p.returncode}")
    expect("exists and is not a directory" in p.stderr, p.stderr)
    expect(os.path.getsize(f) == 0, "the file was written")


if __name__ == "__main__":
    hbtest.main()
