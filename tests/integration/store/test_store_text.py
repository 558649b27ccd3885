# SPDX-License-Identifier: Apache-2.0
"""Text read back from the results store, as an attacker would plant it.

Usage: test_store_text.py NAME HOSTBENCH
Runs test_NAME. A store is shared (a lab's PostgreSQL, a SQLite file
someone else wrote): what it holds reaches every view of history,
regressions and dashboard only sanitized and bounded, and what import
takes in is bounded and checked. Rows are planted into a SQLite store
directly, as another writer would.
"""
import atexit
import csv
import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB = hbtest.args("HOSTBENCH")
WORK = tempfile.mkdtemp(prefix="hb-store-text-")
atexit.register(shutil.rmtree, WORK, ignore_errors=True)
DB = os.path.join(WORK, "results.db")
URL = "sqlite:" + DB
EXIT_BAD_INPUT = 2

# a terminal's title, a bell, and a line hostbench did not write
FORGED = "\x1b]0;pwned\x07\nhostbench: forged <b>x</b>\r"
HUGE = 10 * 1024 * 1024

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


def run(*args, timeout=150):
    """Run hostbench; return (status, stdout, stderr)."""
    e = dict(os.environ, XDG_DATA_HOME=path("xdg"))
    e.pop("HOSTBENCH_STORE", None)
    p = subprocess.run([HB, *args], capture_output=True, text=True,
                       errors="replace", timeout=timeout, env=e)
    return p.returncode, p.stdout, p.stderr


def suite():
    with open(path("suite.ini"), "w") as f:
        f.write(SUITE)
    return path("suite.ini")


def stored_run():
    """One real run kept in the store and written as a JSON report."""
    status, _, err = run("run", suite(), "--store", URL, "-f", "json", "-o",
                         path("run.json"))
    expect(status == 0, f"run: exit {status}: {err}")
    with open(path("run.json")) as f:
        return json.load(f)


def save(doc, name):
    with open(path(name), "w") as f:
        json.dump(doc, f)
    return path(name)


def another(doc, name, change=None):
    """A copy of doc as another run: no uuid of its own, change applied."""
    d = json.loads(json.dumps(doc))
    d.pop("run", None)
    d["saved_as"] = name  # another file's bytes: another run
    if change:
        change(d)
    return save(d, name)


def plant(sql, *params):
    """Write into the store as another writer would."""
    db = sqlite3.connect(DB)
    db.execute(sql, params)
    db.commit()
    db.close()


def query(sql, *params):
    db = sqlite3.connect(DB)
    rows = db.execute(sql, params).fetchall()
    db.close()
    return rows


def clean(what, text):
    """text holds no escape, bell or raw CR, and no line hostbench did not
    write starting with "hostbench:"."""
    for c in ("\x1b", "\x07", "\r"):
        expect(c not in text, f"{what}: {c!r} got through: {text[:300]!r}")
    forged = [ln for ln in text.splitlines()
              if ln.lstrip("#| ").startswith("hostbench: forged")]
    expect(not forged, f"{what}: a forged line: {forged}")


def planted_store():
    """A store whose host, case, run and context hold FORGED text."""
    stored_run()
    plant("UPDATE host SET name = ?, cpu_model = ?", FORGED, FORGED)
    plant("UPDATE bcase SET title = ?, job = ?", FORGED, FORGED)
    plant("UPDATE run SET label = ?", FORGED)
    plant("UPDATE context SET facts = ?", json.dumps({"kernel": FORGED}))


# -- text read back reaches no view raw -------------------------------------

def test_history_views_show_planted_text_sanitized():
    planted_store()
    for fmt in ("text", "md", "csv", "json", "html"):
        status, out, err = run("history", "--store", URL, "-f", fmt)
        expect(status == 0, f"history -f {fmt}: exit {status}: {err}")
        clean(f"history -f {fmt}", out + err)
        expect("pwned" in out, f"history -f {fmt}: the host is not shown")
    status, out, _ = run("history", "--store", URL, "-f", "html")
    expect("<b>x</b>" not in out and "&lt;b&gt;" in out, "html escaped")


def test_regressions_show_planted_text_sanitized():
    planted_store()
    doc = json.loads(run("history", "--store", URL, "-f", "json")[1])
    series = doc["series"][0]
    plant("INSERT INTO changepoint (id, series, run, kind, rel_change, p, "
          "state, detected) VALUES (?, ?, ?, ?, -0.3, 0.001, ?, ?)",
          "cp-planted", series["id"], series["points"][0]["run"],
          "regression" + FORGED, "new" + FORGED, "2024-01-01T00:00:00Z")
    for fmt in ("text", "md", "csv"):
        status, out, err = run("regressions", "--store", URL, "-f", fmt)
        expect(status == 0, f"regressions -f {fmt}: exit {status}: {err}")
        clean(f"regressions -f {fmt}", out + err)


def test_history_reads_planted_bad_utf8_as_question_marks():
    stored_run()
    plant("UPDATE host SET name = CAST(x'41ff1b5b324a42' AS TEXT)")
    status, out, err = run("history", "--store", URL, "-f", "json")
    expect(status == 0, f"history: exit {status}: {err}")
    expect(json.loads(out)["hosts"][0]["name"] == "A??[2JB",
           f"the name read back: {json.loads(out)['hosts']}")


def test_dashboard_shows_planted_text_escaped():
    planted_store()
    status, _, err = run("dashboard", "--store", URL, "-o", path("site"))
    expect(status == 0, f"dashboard: exit {status}: {err}")
    for name in os.listdir(path("site")):
        with open(os.path.join(path("site"), name)) as f:
            page = f.read()
        clean(name, page)
        expect("<b>x</b>" not in page, f"{name}: the HTML is not escaped")


def test_unknown_ack_id_is_said_sanitized():
    stored_run()
    status, out, err = run("regressions", "--store", URL, "--ack", FORGED)
    expect(status == EXIT_BAD_INPUT, f"exit {status}: {err}")
    clean("--ack's error", out + err)
    expect(len(err.splitlines()) == 1 and "no change point" in err,
           f"one line says so: {err!r}")


# -- imported and read-back text is bounded --------------------------------

def test_import_cuts_a_huge_host_name_and_reason():
    base = stored_run()

    def huge(d):
        d["system"]["hostname"] = "h" * HUGE
        failed = json.loads(json.dumps(d["results"][0]))
        failed.update(status="failed", reason="r" * HUGE, samples=[],
                      sample_details=[], job="broken", title="broken")
        failed.pop("stats", None)
        d["results"].append(failed)
    status, _, err = run("store", "import", another(base, "huge.json", huge),
                         "--store", URL)
    expect(status == 0 and "1 new run" in err, f"import: {status} {err}")
    names = query("SELECT length(CAST(name AS BLOB)) FROM host")
    expect(max(n for (n,) in names) <= 255, f"host names stored: {names}")
    longest = query("SELECT max(length(report)) FROM run")[0][0]
    expect(longest < 256 * 1024, f"a report of {longest} bytes stored")
    status, _, err = run("dashboard", "--store", URL, "-o", path("site"))
    expect(status == 0, f"dashboard: exit {status}: {err}")
    size = os.path.getsize(os.path.join(path("site"), "index.html"))
    expect(size < 256 * 1024, f"index.html is {size} bytes")


def test_history_cuts_huge_planted_text():
    stored_run()
    plant("UPDATE host SET name = ?", "\u00e9" * HUGE)
    plant("UPDATE run SET label = ?", "l" * HUGE)
    plant("UPDATE bcase SET title = ?", "t" * HUGE)
    status, out, err = run("history", "--store", URL, "-f", "json")
    expect(status == 0, f"history: exit {status}: {err}")
    doc = json.loads(out)
    name = doc["hosts"][0]["name"]
    expect(name == "\u00e9" * 127, f"the name is cut to a whole character "
           f"within 255 bytes: {len(name.encode())} bytes")
    labels = {p["label"] for s in doc["series"] for p in s["points"]}
    expect(labels == {"l" * 128}, f"labels {[len(x) for x in labels]}")
    expect(len(out) < 256 * 1024, f"history is {len(out)} bytes")
    status, _, err = run("dashboard", "--store", URL, "-o", path("site"))
    expect(status == 0, f"dashboard: exit {status}: {err}")
    for name in os.listdir(path("site")):
        size = os.path.getsize(os.path.join(path("site"), name))
        expect(size < 256 * 1024, f"{name} is {size} bytes")


def test_import_refuses_a_run_uuid_that_is_no_uuid():
    base = stored_run()
    bad = json.loads(json.dumps(base))
    bad["run"]["uuid"] = "'; DELETE FROM run; --"
    status, _, err = run("store", "import", save(bad, "bad.json"),
                         "--store", URL)
    expect(status == EXIT_BAD_INPUT, f"exit {status}: {err}")
    lines = [ln for ln in err.splitlines() if "not a UUID" in ln]
    expect(len(lines) == 1 and "bad.json" in lines[0], f"one line: {err!r}")
    expect(query("SELECT uuid FROM run") == [(base["run"]["uuid"],)],
           "nothing stored, nothing lost")


# -- a run stored already is said, another under its uuid refused ----------

def test_import_again_says_skipped():
    base = stored_run()
    f = another(base, "again.json")
    status, _, err = run("store", "import", f, "--store", URL)
    expect(status == 0 and "1 new run" in err, f"first import: {err}")
    status, _, err = run("store", "import", f, "--store", URL)
    skipped = [ln for ln in err.splitlines() if "skipped" in ln]
    expect(status == 0 and "0 new runs" in err, f"second: {status} {err}")
    expect(len(skipped) == 1 and "already stored" in skipped[0] and
           skipped[0].endswith("from " + f), f"said: {err!r}")


def test_import_of_the_report_a_run_stored_says_skipped():
    base = stored_run()
    status, _, err = run("store", "import", path("run.json"), "--store", URL)
    expect(status == 0, f"exit {status}: {err}")
    expect(f"skipped: run {base['run']['uuid']} already stored, from "
           f"{path('run.json')}" in err, f"said: {err!r}")


def test_import_of_another_report_under_a_stored_uuid_is_refused():
    base = stored_run()
    before = query("SELECT * FROM result ORDER BY 1, 2, 3")
    changed = json.loads(json.dumps(base))
    for r in changed["results"]:
        r["samples"] = [v * 2 for v in r["samples"]]
        for s in r["sample_details"]:
            s["bytes"] *= 2
    changed["results"][0]["title"] = "moved"
    status, _, err = run("store", "import", save(changed, "changed.json"),
                         "--store", URL)
    expect(status == EXIT_BAD_INPUT, f"exit {status}: {err}")
    lines = [ln for ln in err.splitlines() if "changed.json" in ln]
    expect(len(lines) == 1 and base["run"]["uuid"] in lines[0] and
           "stored already" in lines[0], f"one line says why: {err!r}")
    expect(query("SELECT * FROM result ORDER BY 1, 2, 3") == before,
           "nothing of it stored")
    expect(query("SELECT count(*) FROM bcase WHERE title = 'moved'") ==
           [(0,)], "not even its case")


def test_history_csv_prefixes_planted_formulas():
    stored_run()
    # a tab, CR or line end first, or blanks before the formula: each is
    # shown sanitized (a blank), and still no formula
    plant("UPDATE bcase SET title = ?, job = ?, backend = ?, target = ?",
          "\t=cmd|' /C calc'!A0", "\r=cmd", "  +cmd", "\n-cmd")
    status, out, err = run("history", "--store", URL, "-f", "csv")
    expect(status == 0, f"history: exit {status}: {err}")
    rows = list(csv.DictReader(io.StringIO(out)))
    expect(rows, "a row")
    for r in rows:
        for col in ("job", "title", "backend", "target"):
            expect(r[col].startswith("'"), f"{col} {r[col]!r} is a formula")


# -- one decision at a time ------------------------------------------------

def test_ack_with_ignore_is_refused():
    stored_run()
    before = query("SELECT * FROM changepoint")
    for args in (("--ack", "x", "--ignore", "x"),
                 ("--ack", "x", "--ack", "y"),
                 ("--ignore", "x", "--ack", "y")):
        status, out, err = run("regressions", "--store", URL, *args)
        expect(status == EXIT_BAD_INPUT, f"{args}: exit {status}: {err}")
        expect("one decision" in err.splitlines()[0],
               f"{args}: the first line says why: {err!r}")
    expect(query("SELECT * FROM changepoint") == before, "nothing decided")


if __name__ == "__main__":
    hbtest.main()
