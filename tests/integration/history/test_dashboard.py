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
        expect(re.fullmatch(r"[A-Za-z0-9_.-]+\.html", href), f"href {href}")
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
    expect(links == [f"host-{i}.html" for i in host_ids()], f"links {links}")
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
    expect(len(re.findall(r'<circle class="point', trend)) == 8,
           "a point per run")
    expect('class="change regression" data-id="ch-1" data-state="new"'
           in trend, "the regression marked")
    expect('class="context-change" data-id="c-2"' in trend,
           "the context change marked")
    expect('<table class="changes">' in dom, "change points listed")
    expect('href="index.html"' in dom, "a way back to the index")


def test_pages_are_written_whole_with_no_temporary_left():
    d = site()
    d = site()  # over the first: every page replaced
    names = sorted(os.listdir(d))
    expect(names == sorted(["index.html"] +
                           [f"host-{i}.html" for i in host_ids()]),
           f"files: {names}")


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
