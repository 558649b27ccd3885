# SPDX-License-Identifier: Apache-2.0
"""The repository's own checks: each passes on this tree and fails, naming
the culprit, on a copy of the tree or a listing that breaks its rule.

Usage: ci_test.py NAME SOURCE_DIR
Runs test_NAME.
"""
import ast
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../support"))
from hbtest import expect  # noqa: E402

NAME, SRC = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
WORK = tempfile.mkdtemp(prefix="hb-ci-")


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


def layering(top):
    return run(sys.executable, os.path.join(SRC, ".ci", "layering"), top)


def tree():
    """A copy of core/ and plugins/ for .ci/layering to read."""
    top = os.path.join(WORK, "tree")
    for d in ("core", "plugins"):
        shutil.copytree(os.path.join(SRC, d), os.path.join(top, d))
    return top


def plant(top, rel, line, text):
    """Insert text as line number line of top/rel."""
    path = os.path.join(top, rel)
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    lines.insert(line - 1, text + "\n")
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)


def test_layering_passes_on_this_tree():
    status, _, err = layering(SRC)
    expect(status == 0, f"exit {status}, want 0:\n{err}")
    expect(err == "", err)


def test_layering_refuses_an_upward_include():
    top = tree()
    plant(top, "core/base/util.h", 11, '#include "app/cli.h"')
    status, _, err = layering(top)
    expect(status == 1, f"exit {status}, want 1")
    expect('layering: core/base/util.h:11: #include "app/cli.h" goes up the '
           'order (base < app)' in err, err)


def test_layering_refuses_a_plugin_including_the_core():
    top = tree()
    plant(top, "plugins/mem/mem.c", 1, '#include "base/util.h"')
    status, _, err = layering(top)
    expect(status == 1, f"exit {status}, want 1")
    expect('layering: plugins/mem/mem.c:1: #include "base/util.h": a plugin '
           'includes nothing from core/' in err, err)


def test_layering_refuses_a_stray_file_in_core():
    top = tree()
    write(os.path.join("tree", "core", "stray.c"), "int stray;\n")
    status, _, err = layering(top)
    expect(status == 1, f"exit {status}, want 1")
    expect("layering: core/stray.c: core/ holds main.c and module folders "
           "only" in err, err)


def test_python_tests_use_no_assert_statement():
    # python3 -O drops assert statements, and a test whose only check is
    # one passes there whatever happens: tests use hbtest.expect.
    found = []
    for top in ("tests", "bench"):
        for d, _, files in os.walk(os.path.join(SRC, top)):
            for f in sorted(files):
                if not f.endswith(".py"):
                    continue
                path = os.path.join(d, f)
                with open(path, encoding="utf-8") as src:
                    tree = ast.parse(src.read(), path)
                found += [f"{os.path.relpath(path, SRC)}:{n.lineno}"
                          for n in ast.walk(tree) if isinstance(n, ast.Assert)]
    expect(not found, "assert statements (use hbtest.expect): "
           + ", ".join(found))


def source_files_without_spdx(top):
    """Source files of git's listing under top without the SPDX line."""
    files = subprocess.run(["git", "-C", top, "ls-files"], capture_output=True,
                           text=True).stdout.split()
    missing = []
    for f in files:
        base = os.path.basename(f)
        if not (base.endswith((".c", ".h", ".py", ".sh", ".cmake")) or
                base == "CMakeLists.txt"):
            continue
        with open(os.path.join(top, f), encoding="utf-8",
                  errors="replace") as fh:
            head = fh.read(400)
        if "SPDX-License-Identifier: Apache-2.0" not in head:
            missing.append(f)
    return missing


def test_every_source_file_names_its_license():
    missing = source_files_without_spdx(SRC)
    expect(not missing, f"no SPDX line: {missing[:10]}")
    # and the check can fail: a copy of one file without the line
    top = os.path.join(WORK, "tree")
    os.makedirs(top)
    subprocess.run(["git", "-C", top, "init", "-q"], check=True)
    write("tree/a.c", "/* no license line */\nint a;\n")
    subprocess.run(["git", "-C", top, "add", "a.c"], check=True)
    expect(source_files_without_spdx(top) == ["a.c"], "a.c is named")


def test_build_without_tests_has_no_test_target():
    build = os.path.join(WORK, "build")
    status, _, err = run("cmake", "-S", SRC, "-B", build,
                         "-DHOSTBENCH_TESTS=OFF")
    expect(status == 0, err)
    status, targets, err = run("cmake", "--build", build, "--target", "help")
    expect(status == 0, err)
    expect("hostbench" in targets.split(), targets)
    expect("test_suite" not in targets and "fixture" not in targets,
           "a test target in a build without tests:\n" + targets)
    status, listing, _ = run("ctest", "--test-dir", build, "-N")
    expect("Total Tests: 0" in listing, listing)


if __name__ == "__main__":
    try:
        globals()["test_" + NAME]()
    finally:
        shutil.rmtree(WORK, ignore_errors=True)

