# SPDX-License-Identifier: Apache-2.0
"""Every report says when, what and where: the run's uuid, times, command
line (secrets masked), suite files with their SHA-256, commit and plugins,
in every format, and a report from before them still renders.

Usage: test_run_meta.py NAME HOSTBENCH OLD_REPORT
Runs test_NAME. The run is one short transfer/tcp case to a receiver in
the same process, whose token option is a secret.
"""
import atexit
import csv
import hashlib
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
from hbtest import expect  # noqa: E402

HB, OLD = hbtest.args("HOSTBENCH", "OLD_REPORT")
WORK = tempfile.mkdtemp(prefix="hb-runmeta-")
atexit.register(shutil.rmtree, WORK, ignore_errors=True)

SECRET = "supersecret-0123456789"
SUITE = """[send]
target = transfer/tcp
size = 64K
duration = 20ms
repetitions = 2
warmup = 0
"""
FORMATS = ("text", "json", "csv", "md", "html")
RFC3339_MS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-"
                   r"[0-9a-f]{12}$")


def run(*args):
    """Run hostbench in WORK; return (status, stdout, stderr)."""
    p = subprocess.run([HB, *args], capture_output=True, text=True,
                       timeout=120, cwd=WORK)
    return p.returncode, p.stdout, p.stderr


def suite():
    """The suite file, written once; return its name in WORK."""
    with open(os.path.join(WORK, "lab.ini"), "w") as f:
        f.write(SUITE)
    return "lab.ini"


def measured():
    """One run with a secret on its command line, in every format; return
    {format: text} and the JSON document."""
    name, out = suite(), {}
    status, _, err = run("run", name, "--set", "token=" + SECRET,
                         "--format", "json", "-o", "run.json")
    expect(status == 0, f"run: exit {status}: {err}")
    doc = json.load(open(os.path.join(WORK, "run.json")))
    for fmt in FORMATS:
        status, text, err = run("report", "run.json", "--format", fmt)
        expect(status == 0, f"report --format {fmt}: {err}")
        out[fmt] = text
    return out, doc


def test_json_report_has_the_run_object():
    _, doc = measured()
    r = doc["run"]
    expect(UUID4.match(r["uuid"]), f"uuid {r['uuid']}")
    expect(RFC3339_MS.match(r["started"]), f"started {r['started']}")
    expect(RFC3339_MS.match(r["ended"]), f"ended {r['ended']}")
    expect(r["started"] <= r["ended"], "ended before it started")
    expect(r["duration"] > 0, f"duration {r['duration']}")
    expect(r["command_line"][1:4] == ["run", "lab.ini", "--set"],
           f"command line {r['command_line']}")
    expect(r["command_line"][4] == "token=(secret)",
           f"masked value {r['command_line'][4]}")
    expect(r["fleet"] is None and r["label"] is None, "no fleet, no label")
    expect(list(doc).index("run") == list(doc).index("hostbench") + 1,
           "run after hostbench")


def test_suite_sha256_is_the_files_digest():
    _, doc = measured()
    with open(os.path.join(WORK, "lab.ini"), "rb") as f:
        want = hashlib.sha256(f.read()).hexdigest()
    expect(doc["run"]["suites"] == [{"path": "lab.ini", "sha256": want}],
           f"suites {doc['run']['suites']}")


def test_json_report_names_commit_and_plugins():
    _, doc = measured()
    expect("commit" in doc["hostbench"], "hostbench.commit")
    plugins = {p["name"]: p for p in doc["plugins"]}
    expect("transfer" in plugins, f"plugins {sorted(plugins)}")
    expect(os.path.isabs(plugins["transfer"]["file"]) and
           plugins["transfer"]["file"].endswith(".so"),
           f"file {plugins['transfer']['file']}")
    expect(plugins["transfer"]["version"], "a version")


def test_every_format_carries_uuid_times_and_digest():
    out, doc = measured()
    r = doc["run"]
    for fmt in FORMATS:
        expect(r["uuid"] in out[fmt], f"{fmt}: uuid")
        expect(r["started"] in out[fmt], f"{fmt}: started")
        if fmt != "csv":
            expect(r["ended"] in out[fmt], f"{fmt}: ended")
            expect(r["suites"][0]["sha256"] in out[fmt], f"{fmt}: sha256")
            expect("transfer.so" in out[fmt], f"{fmt}: plugin file")


def test_csv_is_one_table_with_run_columns():
    out, doc = measured()
    rows = list(csv.reader(io.StringIO(out["csv"])))
    expect(rows[0][-3:] == ["run_uuid", "started", "label"],
           f"header {rows[0][-3:]}")
    expect(all(len(row) == len(rows[0]) for row in rows), "one width")
    expect(all(row[-3] == doc["run"]["uuid"] for row in rows[1:]), "uuid")


def test_secret_of_the_command_line_is_in_no_format():
    out, _ = measured()
    with open(os.path.join(WORK, "run.json")) as f:
        out["saved"] = f.read()
    for fmt, text in out.items():
        expect(SECRET not in text, f"{fmt}: the secret is shown")
    expect("token=(secret)" in out["text"], "text: the masked value")


def test_report_renders_the_saved_run_again():
    out, doc = measured()
    status, text, err = run("report", "run.json", "--format", "json")
    expect(status == 0, err)
    expect(json.loads(text)["run"] == doc["run"], "the saved run object")
    status, again, _ = run("report", "run.json")
    expect(again == out["text"], "the same text twice")


def test_old_report_without_run_renders_without_it():
    for fmt in FORMATS:
        status, text, err = run("report", OLD, "--format", fmt)
        expect(status == 0, f"{fmt}: exit {status}: {err}")
        expect("Run :" not in text and "run_uuid" not in text and
               "**Run**" not in text, f"{fmt}: a run from nowhere")
    status, text, _ = run("report", OLD, "--format", "json")
    expect("run" not in json.loads(text), "no run object")


def test_compare_shows_both_runs():
    _, doc = measured()
    shutil.copy(os.path.join(WORK, "run.json"), os.path.join(WORK, "b.json"))
    status, text, err = run("compare", "run.json", "b.json", "--format",
                            "json")
    expect(status == 0, err)
    facts = {f["name"]: f for f in json.loads(text)["context"]}
    expect(facts["Run"]["base"] == doc["run"]["uuid"], f"{facts.get('Run')}")


if __name__ == "__main__":
    hbtest.main()
