"""The repository's own checks, checked: each one passes on this tree and
fails, naming the culprit, on a tree or a listing that breaks its rule.

Usage: ci_test.py NAME SOURCE_DIR
Runs test_NAME.
"""
import os
import shutil
import subprocess
import sys
import tempfile

NAME, SRC = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
WORK = tempfile.mkdtemp(prefix="hb-ci-")


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


def run(*argv):
    p = subprocess.run(argv, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def write(rel, text):
    path = os.path.join(WORK, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def test_test_names_check_refuses_a_name_without_a_kind():
    listing = write("listing.txt", """Test project /tmp/build
  Test   #1: unit.test_parse.size_accepts_suffixes
  Test   #2: integration.io.cli.presets_run_on_two_dirs
  Test   #3: io.cli.presets_run_on_two_dirs
  Test   #4: ci.test_names_have_a_kind

Total Tests: 4
""")
    status, _, err = run(sys.executable, os.path.join(HERE, "test_names.py"),
                         "--listing", listing)
    expect(status == 1, f"exit {status}, want 1")
    expect("io.cli.presets_run_on_two_dirs: the name" in err, err)
    expect(err.count("test_names:") == 1, f"only #3 is wrong: {err}")


def test_test_names_check_refuses_an_empty_listing():
    listing = write("empty.txt", "Test project /tmp/build\n\nTotal Tests: 0\n")
    status, _, err = run(sys.executable, os.path.join(HERE, "test_names.py"),
                         "--listing", listing)
    expect(status == 1, f"exit {status}, want 1")
    expect("no test" in err, err)


if __name__ == "__main__":
    try:
        globals()["test_" + NAME]()
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
