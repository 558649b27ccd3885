#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every CTest test name starts with its kind: unit., integration., fuzz.
or ci., so `ctest -R '^unit[.]'` and the like select a whole kind; and no
part of a name but its last starts with "test_" (the kind says it is a
test: unit.parse.NAME, not unit.test_parse.NAME). Lists the tests of a
build with `ctest -N`, prints each name that breaks a rule and exits 1;
exits 0 when every name keeps both (and there is at least one).

Usage: name_kinds.py CTEST BUILD_DIR
       name_kinds.py --listing FILE   (the output of `ctest -N`, saved)
"""
import re
import subprocess
import sys

KINDS = ("unit", "integration", "fuzz", "ci")
TEST = re.compile(r"^\s*Test\s+#\d+: (\S+)", re.M)


def listing(argv):
    if len(argv) == 3 and argv[1] == "--listing":
        with open(argv[2], encoding="utf-8") as f:
            return f.read()
    if len(argv) == 3:
        out = subprocess.run([argv[1], "--test-dir", argv[2], "-N"],
                             capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"name_kinds: ctest -N failed: {out.stderr.strip()}")
        return out.stdout
    sys.exit(__doc__.strip())


def main(argv):
    names = TEST.findall(listing(argv))
    if not names:
        print("name_kinds: no test in the listing", file=sys.stderr)
        return 1
    bad = [n for n in names if n.split(".")[0] not in KINDS or "." not in n]
    for n in bad:
        print(f"name_kinds: {n}: the name does not start with its kind "
              f"({', '.join(k + '.' for k in KINDS)})", file=sys.stderr)
    again = [n for n in names if n not in bad and
             any(p.startswith("test_") for p in n.split(".")[1:-1])]
    for n in again:
        print(f"name_kinds: {n}: a part of the name repeats \"test_\" "
              f"(name it for its file without it)", file=sys.stderr)
    return 1 if bad or again else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
