# SPDX-License-Identifier: Apache-2.0
"""The documents of `hostbench check` and the timed paths say what the
program does: plugins.md and suites.md give the same statement of when
run() and when submit/poll is called, and it matches the core; plugins.md
lists every row check prints; the MAC key convention check uses is written
in the SDK headers.

Usage: test_check_docs.py TEST HOSTBENCH SOURCE_DIR
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB, SRC = hbtest.args("HOSTBENCH", "SOURCE_DIR")


def read(*path):
    with open(os.path.join(SRC, *path)) as f:
        return f.read()


def words(text):
    """Text without markdown list marks, line breaks or emphasis."""
    text = re.sub(r"^\s*-\s+", "", text, flags=re.M)
    return " ".join(text.replace("**", "").split())


def timed_path_statement(doc):
    m = re.search(r"(?:### |\*\*)Which timed path a case takes\**"
                  r"(?: \(the same words in docs/suites\.md\))?:?\s*"
                  r"(.*?)(?:\n\n|\n- \*\*)", doc, re.S)
    expect(m, "no statement of which timed path a case takes")
    text = words(m.group(1))
    return re.sub(r"^(The same words in docs/plugins\.md: )", "", text)


def test_plugins_and_suites_say_the_same_about_run_and_submit():
    plugins = timed_path_statement(read("docs", "plugins.md"))
    suites = timed_path_statement(read("docs", "suites.md"))
    expect(plugins == suites, f"plugins.md: {plugins}\n\nsuites.md: {suites}")
    # what the core does (core/run/runner.c, crew_uses_slots)
    for said in ("`queue_depth` (even 1)", "HB_TARGET_OFFLOAD",
                 "the core calls `run()`", "`run()` is required"):
        expect(said in plugins, f"{said!r} not in: {plugins}")
    runner = read("core", "run", "runner.c")
    expect("bc->depth_given || bc->queue_depth > 1 ||\n"
           "\t       (flags & HB_TARGET_OFFLOAD)" in runner,
           "the core's rule changed: update both documents")
    expect("run() is not called" not in read("docs", "plugins.md"),
           "plugins.md still says run() is not called")


def test_plugins_md_lists_every_row_of_check():
    p = subprocess.run([HB, "check", "--help"], capture_output=True,
                       text=True, timeout=60)
    rows = re.findall(r"^  (\w+)  ", p.stdout, re.M)
    expect(len(rows) >= 9, f"rows in check --help: {rows}")
    doc = read("docs", "plugins.md")
    table = re.search(r"### What check proves.*?\n(\|.*?)\n\n", doc, re.S)
    expect(table, "no table of check's rows in plugins.md")
    listed = re.findall(r"^\| `(\w+)` \|", table.group(1), re.M)
    expect(sorted(listed) == sorted(rows), f"{listed} != {rows}")
    for line in table.group(1).splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        expect(len(cells) == 4 and cells[1] and cells[2],
               f"a row without what it does or proves: {line}")
    for status in ("`ok`", "`FAIL`", "`skip`", "`n/v`"):
        expect(status in doc, f"{status} not explained")


def test_sdk_headers_say_which_key_a_mac_target_takes():
    for header in ("plugin.h", "crypto.h"):
        text = words(read("include", "hostbench", header).replace("*", ""))
        expect(re.search(r"MAC target .{0,40}takes its key from "
                         r"(hb_message\.)?key", text) or
               re.search(r"MAC target reads its key from hb_message\.key",
                         text), f"{header} does not say it")
    crypto = words(read("include", "hostbench", "crypto.h").replace("*", ""))
    expect("HMAC-MD5/SHA1/SHA256 as many as the digest has (16, 20, 32)"
           in crypto, "crypto.h does not give the HMAC key lengths")


if __name__ == "__main__":
    hbtest.main()
