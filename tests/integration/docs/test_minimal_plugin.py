# SPDX-License-Identifier: Apache-2.0
"""Compile the C block of docs/plugins.md as a plugin and run it.

Usage: test_minimal_plugin.py TEST HOSTBENCH SOURCE_DIR
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


def test_minimal_plugin_runs():
    doc = open(os.path.join(SRC, "docs", "plugins.md")).read()
    code = re.search(r"```c\n(.*?)```", doc, re.S).group(1)
    tmp = tempfile.mkdtemp()
    os.chmod(tmp, 0o755)
    with open(os.path.join(tmp, "xor.c"), "w") as f:
        f.write(code)
    subprocess.run(["cc", "-O2", "-Wall", "-Wextra", "-Werror", "-fPIC",
                    "-shared", "-fvisibility=hidden",
                    "-I", os.path.join(SRC, "include"),
                    "-o", os.path.join(tmp, "example.so"),
                    os.path.join(tmp, "xor.c")], check=True)
    suite = os.path.join(tmp, "xor.ini")
    with open(suite, "w") as f:
        f.write("[xor]\ntarget = example/xor\nsize = 4K\nduration = 10ms\n"
                "repetitions = 2\nwarmup = 0\n")
    p = subprocess.run([HB, "--plugin-dir", tmp, "run", suite,
                        "--format", "json"], capture_output=True, text=True)
    expect(p.returncode == 0, p.stderr)
    r = json.loads(p.stdout)["results"][0]
    expect(r["backend"] == "example" and r["status"] == "ok", r)
    expect(r["params"]["size"] == 4096, r["params"])
    expect(r["stats"]["median"] > 0, r["stats"])


if __name__ == "__main__":
    hbtest.main()
