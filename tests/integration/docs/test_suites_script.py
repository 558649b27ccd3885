# SPDX-License-Identifier: Apache-2.0
"""docs/suites.md says a suite is a script, and its example of `--` before
template values works: run the doc's ini block as written.

Usage: test_suites_script.py TEST HOSTBENCH SOURCE_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB, SRC = hbtest.args("HOSTBENCH", "SOURCE_DIR")


def test_suites_md_says_a_suite_is_a_script():
    doc = open(os.path.join(SRC, "docs", "suites.md")).read()
    section = re.search(r"^## A suite is a script\n(.*?)^## ", doc,
                        re.S | re.M)
    expect(section, "docs/suites.md has no section 'A suite is a script'")
    text = section.group(1)
    expect("with your rights" in text, "the section does not say whose rights")
    block = re.search(r"```ini\n(.*?)```", text, re.S)
    expect(block and "-- {" in block.group(1), "no example with -- before {")
    with tempfile.TemporaryDirectory() as d:
        ini = block.group(1).replace("dir = /tmp", "dir = " + d)
        suite = os.path.join(d, "s.ini")
        with open(suite, "w") as f:
            f.write("[global]\nduration = 1ms\nrepetitions = 1\nwarmup = 0\n"
                    + ini)
        p = subprocess.run([HB, "run", suite, "--format", "json"],
                           capture_output=True, text=True, timeout=120)
        expect(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
        results = json.loads(p.stdout)["results"]
        expect(all(r["status"] == "ok" for r in results),
               [r["reason"] for r in results])
        # the values became files, not options of touch
        expect(sorted(n for n in os.listdir(d) if n != "s.ini") ==
               ["--version", "-rf"], "files %r" % os.listdir(d))


if __name__ == "__main__":
    hbtest.main()
