# SPDX-License-Identifier: Apache-2.0
"""The repository's own checks: each passes on this tree and fails, naming
the culprit, on a copy of the tree or a listing that breaks its rule.

Usage: test_ci.py NAME SOURCE_DIR BUILD_DIR (hbtest.main runs test_NAME)
"""
import ast
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

SRC, BUILD = hbtest.args("SOURCE_DIR", "BUILD_DIR")
HERE = os.path.dirname(os.path.abspath(__file__))
WORK = hbtest.scratch("hb-ci-")


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
  Test   #1: unit.parse.size_accepts_suffixes
  Test   #2: integration.io.cli.presets_run_on_two_dirs
  Test   #3: io.cli.presets_run_on_two_dirs
  Test   #4: ci.test_names_have_a_kind

Total Tests: 4
""")
    status, _, err = run(sys.executable, os.path.join(HERE, "name_kinds.py"),
                         "--listing", listing)
    expect(status == 1, f"exit {status}, want 1")
    expect("io.cli.presets_run_on_two_dirs: the name" in err, err)
    expect(err.count("name_kinds:") == 1, f"only #3 is wrong: {err}")


def test_test_names_check_refuses_a_repeated_test_prefix():
    listing = write("listing.txt", """Test project /tmp/build
  Test   #1: unit.parse.size_accepts_suffixes
  Test   #2: unit.test_parse.size_accepts_suffixes
  Test   #3: ci.test_names_have_a_kind

Total Tests: 3
""")
    status, _, err = run(sys.executable, os.path.join(HERE, "name_kinds.py"),
                         "--listing", listing)
    expect(status == 1, f"exit {status}, want 1")
    expect("name_kinds: unit.test_parse.size_accepts_suffixes: a part of the "
           'name repeats "test_" (name it for its file without it)\n' in err,
           err)
    expect(err.count("name_kinds:") == 1, f"only #2 is wrong: {err}")


def test_test_names_check_refuses_an_empty_listing():
    listing = write("empty.txt", "Test project /tmp/build\n\nTotal Tests: 0\n")
    status, _, err = run(sys.executable, os.path.join(HERE, "name_kinds.py"),
                         "--listing", listing)
    expect(status == 1, f"exit {status}, want 1")
    expect("no test" in err, err)


def layering(top, objects=None):
    argv = [sys.executable, os.path.join(SRC, ".ci", "layering")]
    if objects:
        argv += ["--objects", objects]
    return run(*argv, top)


def tree():
    """A fresh copy of core/ and plugins/ for .ci/layering to read."""
    top = os.path.join(WORK, "tree")
    shutil.rmtree(top, ignore_errors=True)
    for d in ("core", "plugins"):
        shutil.copytree(os.path.join(SRC, d), os.path.join(top, d))
    return top


def plant(top, rel, line, text):
    """Insert text as line number line of top/rel (0: at the end)."""
    path = os.path.join(top, rel)
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    lines.insert(line - 1 if line else len(lines), text + "\n")
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)


def objects(sources):
    """A build tree holding only the objects of sources, {"mod/file.c":
    C text}, compiled as hbcore's are, or {"plugins/DIR/file.c": C text},
    as a plugin target's: for the symbols .ci/layering reads."""
    build = os.path.join(WORK, "build")
    for rel, text in sources.items():
        src = write(os.path.join("src", rel), text)
        obj = os.path.join(build, "core", "CMakeFiles", "hbcore.dir",
                           rel + ".o")
        if rel.startswith("plugins/"):
            obj = os.path.join(build, os.path.dirname(rel), "CMakeFiles",
                               "planted.dir", os.path.basename(rel) + ".o")
        os.makedirs(os.path.dirname(obj), exist_ok=True)
        status, _, err = run("cc", "-c", "-o", obj, src)
        expect(status == 0, f"cc {rel}: {err}")
    return build


def refused(top, line, objects_dir=None):
    status, _, err = layering(top, objects_dir)
    expect(status == 1, f"exit {status}, want 1:\n{err}")
    expect(f"layering: {line}\n" in err, f"want {line!r} in:\n{err}")


def test_layering_passes_on_this_tree():
    status, _, err = layering(SRC)
    expect(status == 0, f"exit {status}, want 0:\n{err}")
    expect(err == "", err)


def test_layering_passes_on_this_build():
    status, _, err = layering(SRC, BUILD)
    expect(status == 0, f"exit {status}, want 0:\n{err}")
    expect(err == "", err)


def test_layering_refuses_an_upward_include():
    top = tree()
    plant(top, "core/base/util.h", 11, '#include "app/cli.h"')
    refused(top, 'core/base/util.h:11: #include "app/cli.h" goes up the '
            'order (base < app)')


def test_layering_refuses_an_upward_angle_include():
    top = tree()
    plant(top, "core/base/util.h", 11, "#include <app/cli.h>")
    refused(top, "core/base/util.h:11: #include <app/cli.h> goes up the "
            "order (base < app)")


def test_layering_refuses_an_upward_include_through_dot_dot():
    top = tree()
    plant(top, "core/base/util.h", 11, '#include "base/../app/cli.h"')
    refused(top, 'core/base/util.h:11: #include "base/../app/cli.h" goes up '
            'the order (base < app)')


def test_layering_refuses_a_macro_include():
    top = tree()
    plant(top, "core/base/util.h", 11, '#define UTIL_CLI "app/cli.h"\n'
          "#include UTIL_CLI")
    refused(top, 'core/base/util.h:12: #include UTIL_CLI: not a "file" nor '
            "a <file>: an include names what it reads, not a macro")


def test_layering_refuses_an_extern_declaration_with_its_call():
    top = tree()
    plant(top, "core/base/util.c", 0, "extern int cli_main(int argc, "
          "char **argv);\nint util_planted(void) { return cli_main(0, 0); }")
    path = os.path.join(top, "core/base/util.c")
    with open(path, encoding="utf-8") as f:
        line = f.read().count("\n") - 1
    refused(top, f"core/base/util.c:{line}: extern declares cli_main: "
            "include the header that declares it")


def test_layering_allows_extern_environ_and_extern_in_comments():
    # environ is in EXTERNS; a comment or a string saying extern declares
    # nothing.
    top = tree()
    plant(top, "core/base/util.c", 0, "extern char **environ;\n"
          "/* extern int cli_main(void); */\n"
          'static const char util_word[] = "extern int x;";')
    status, _, err = layering(top)
    expect(status == 0, f"exit {status}, want 0:\n{err}")


def test_layering_refuses_an_upward_call_seen_only_by_the_linker():
    # A declaration inside a function: no include, no extern, and the
    # object still needs a later module's symbol.
    build = objects({
        "base/quiet.c": "int quiet(void) { int app_loud(void); "
                        "return app_loud(); }\n",
        "app/loud.c": "int app_loud(void) { return 1; }\n"})
    refused(SRC, "core/base/quiet.c: uses app_loud, defined in "
            "core/app/loud.c: goes up the order (base < app)", build)


def test_layering_refuses_an_upward_include_inside_a_folder():
    top = tree()
    plant(top, "core/plugin/check.c", 17, '#include "plugin/probe.h"')
    refused(top, 'core/plugin/check.c:17: #include "plugin/probe.h" goes up '
            "the order of plugin/ (check < probe)")


def test_layering_refuses_an_upward_call_inside_a_folder():
    build = objects({
        "suite/suite_draft.c": "int suite_load(void);\n"
                               "int draft(void) { return suite_load(); }\n",
        "suite/suite.c": "int suite_load(void) { return 0; }\n"})
    refused(SRC, "core/suite/suite_draft.c: uses suite_load, defined in "
            "core/suite/suite.c: goes up the order of suite/ "
            "(suite_draft < suite)", build)


def test_layering_refuses_a_command_calling_cli_c():
    # app/: the commands read the parsed struct cli, never call cli.c
    build = objects({
        "app/cmd_reports.c": "int cli_parse(void);\n"
                             "int cmd(void) { return cli_parse(); }\n",
        "app/cli.c": "int cli_parse(void) { return 0; }\n"})
    refused(SRC, "core/app/cmd_reports.c: uses cli_parse, defined in "
            "core/app/cli.c: goes up the order of app/ (cmd_reports < cli)",
            build)
    top = tree()
    plant(top, "core/app/paths.c", 3, '#include "app/cmd.h"')
    refused(top, 'core/app/paths.c:3: #include "app/cmd.h" goes up '
            "the order of app/ (paths < cmd)")


def test_layering_refuses_a_writer_reached_around_report_c():
    # the writers are report.c's alone: others go through report_write()
    top = tree()
    plant(top, "core/compare/compare_write.c", 8,
          '#include "report/report_text.h"')
    refused(top, 'core/compare/compare_write.c:8: #include '
            '"report/report_text.h" is core/report/report.c\'s alone '
            "(ONLY_FROM in .ci/layering)")
    build = objects({
        "compare/merge.c": "int report_html(void);\n"
                           "int page(void) { return report_html(); }\n",
        "report/report_html.c": "int report_html(void) { return 0; }\n"})
    refused(SRC, "core/compare/merge.c: uses report_html, defined in "
            "core/report/report_html.c: is core/report/report.c's alone "
            "(ONLY_FROM in .ci/layering)", build)


def test_layering_refuses_a_knot_in_a_folder_without_an_order():
    build = objects({
        "compare/match.c": "int doc(void);\n"
                           "int match(void) { return doc(); }\n",
        "compare/report_doc.c": "int match(void);\n"
                                "int doc(void) { return match(); }\n"})
    refused(SRC, "a knot: core/compare/match.c, core/compare/report_doc.c "
            "call each other round a loop", build)


def test_layering_refuses_a_knot_in_a_plugin_folder():
    # every plugin target's objects, as core's: a knot is a knot anywhere
    build = objects({
        "base/quiet.c": "int quiet(void) { return 0; }\n",
        "plugins/crypto/common/engine.c":
            "int jobs_run(void);\n"
            "int engine_alloc(void) { return 1; }\n"
            "int engine_run(void) { return jobs_run(); }\n",
        "plugins/crypto/common/jobs.c":
            "int engine_alloc(void);\n"
            "int jobs_run(void) { return engine_alloc(); }\n"})
    refused(SRC, "a knot: plugins/crypto/common/engine.c, "
            "plugins/crypto/common/jobs.c call each other round a loop",
            build)


def test_layering_refuses_a_weak_definition_in_the_core():
    # a weak function in base that app overrides passes the order over
    # the symbols (base defines it, app defines it): refused at its weak
    # definition
    build = objects({
        "base/util.c": "__attribute__((weak)) int util_hook(void) "
                       "{ return 0; }\n"
                       "int util_go(void) { return util_hook(); }\n",
        "app/cli.c": "int util_hook(void) { return 1; }\n"})
    refused(SRC, "core/base/util.c: defines util_hook weak: a later module "
            "could replace it unseen by the order; define it once, or hand "
            "it in as a parameter", build)


def test_layering_refuses_a_directive_spelled_with_a_digraph():
    top = tree()
    plant(top, "core/base/util.h", 11, '%:include "app/cli.h"')
    refused(top, "core/base/util.h:11: %:include: a directive spelled with "
            "a digraph (%: for #): spell it with #, which the checks read")
    top = tree()
    plant(top, "plugins/mem/mem.c", 1, '  %:  define MEM_PLANTED 1')
    refused(top, "plugins/mem/mem.c:1: %:define: a directive spelled with "
            "a digraph (%: for #): spell it with #, which the checks read")


def test_layering_sees_an_include_behind_comments_and_line_joins():
    # the preprocessor reads a comment as one space, even across lines,
    # and joins a line ending in a backslash to the next: so does the check
    top = tree()
    plant(top, "core/base/util.h", 11, '# /* a comment\n   over lines */ '
          'include /* */ "app/cli.h"')
    refused(top, 'core/base/util.h:11: #include "app/cli.h" goes up the '
            'order (base < app)')
    top = tree()
    plant(top, "core/base/util.h", 11, '#inc\\\nlude "app/cli.h"')
    refused(top, 'core/base/util.h:11: #include "app/cli.h" goes up the '
            'order (base < app)')


def test_layering_refuses_a_file_missing_from_its_folder_order():
    top = tree()
    write(os.path.join("tree", "core", "suite", "suite_extra.c"),
          "int suite_extra;\n")
    refused(top, "core/suite/suite_extra.c: in no group of the order of "
            "suite/ (FOLDERS in .ci/layering): give it its place there")


def test_layering_refuses_a_plugin_including_the_core():
    top = tree()
    plant(top, "plugins/mem/mem.c", 1, '#include "base/util.h"')
    refused(top, 'plugins/mem/mem.c:1: #include "base/util.h": a plugin '
            'includes nothing from core/')


def test_layering_refuses_a_stray_file_in_core():
    top = tree()
    write(os.path.join("tree", "core", "stray.c"), "int stray;\n")
    refused(top, "core/stray.c: core/ holds main.c and module folders only")


def sizes(top):
    return run(sys.executable, os.path.join(SRC, ".ci", "sizes"), top)


def sizes_refuse(top, line):
    status, _, err = sizes(top)
    expect(status == 1, f"exit {status}, want 1:\n{err}")
    expect(f"sizes: {line}\n" in err, f"want {line!r} in:\n{err}")


def test_sizes_pass_on_this_tree():
    status, _, err = sizes(SRC)
    expect(status == 0, f"exit {status}, want 0:\n{err}")
    expect(err == "", err)


def test_sizes_refuse_a_function_of_71_lines():
    top = tree()
    body = "".join(f"\tx += {i};\n" for i in range(70))
    write("tree/core/base/long.c", "static int x;\n\nvoid\nlong_one(void)\n{\n"
          f"{body}\tx = 0;\n}}\n\nstatic void fits(void)\n{{\n{body}}}\n")
    sizes_refuse(top, "core/base/long.c:5: long_one() is 71 lines, more than 70")
    status, _, err = sizes(top)
    expect("fits()" not in err, err)


def test_sizes_refuse_a_file_of_801_lines():
    top = tree()
    write("tree/plugins/mem/big.h", "/* x */\n" * 801)
    sizes_refuse(top, "plugins/mem/big.h: 801 lines, more than 800")


def test_sizes_refuse_a_folder_of_4501_lines():
    top = tree()
    have = sum(len(open(os.path.join(top, "core/store", n)).readlines())
               for n in os.listdir(os.path.join(top, "core/store"))
               if n.endswith((".c", ".h")))
    for k in range(0, 4501 - have, 700):
        write(f"tree/core/store/pad{k}.h",
              "/* x */\n" * min(700, 4501 - have - k))
    sizes_refuse(top, "core/store/: 4501 lines, more than 4500")


def python_files(top, dirs=("tests",)):
    """(path relative to top, text) of each python file under top/DIR."""
    for sub in dirs:
        for d, _, files in sorted(os.walk(os.path.join(top, sub))):
            for f in sorted(files):
                if f.endswith(".py"):
                    path = os.path.join(d, f)
                    with open(path, encoding="utf-8") as src:
                        yield os.path.relpath(path, top), src.read()


def test_python_tests_use_no_assert_statement():
    # python3 -O drops assert statements, and a test whose only check is
    # one passes there whatever happens: tests use hbtest.expect.
    found = [f"{rel}:{n.lineno}"
             for rel, text in python_files(SRC, ("tests", "bench"))
             for n in ast.walk(ast.parse(text, rel))
             if isinstance(n, ast.Assert)]
    expect(not found, "assert statements (use hbtest.expect): "
           + ", ".join(found))


def own_runner(rel, text):
    """Whether a test script runs more than hbtest.main() as a program
    (its own dispatch or teardown) or reads sys.argv itself (not through
    hbtest.args)."""
    tree = ast.parse(text, rel)
    for n in tree.body:
        if (isinstance(n, ast.If) and "__name__" in ast.unparse(n.test)
                and [ast.unparse(b) for b in n.body] != ["hbtest.main()"]):
            return True
    return any(isinstance(n, ast.Attribute) and n.attr == "argv"
               and isinstance(n.value, ast.Name) and n.value.id == "sys"
               for n in ast.walk(tree))


def scripts_off_the_pattern(top):
    """Python files under top/tests (tests/support aside) that break the
    one pattern: a file with tests is test_WHAT.py and runs them with
    hbtest.main() and nothing else, its arguments read by hbtest.args; a
    file without (a tool) is not named test_*."""
    bad = []
    for rel, text in python_files(top):
        if rel.startswith("tests/support/"):
            continue
        tests = re.search(r"^def test_", text, re.M) is not None
        runner = re.search(r"^\s+hbtest\.main\(\)", text, re.M) is not None
        named = os.path.basename(rel).startswith("test_")
        if named != tests or tests != runner or \
                (tests and own_runner(rel, text)):
            bad.append(rel)
    return sorted(bad)


def test_python_tests_are_test_scripts_run_by_hbtest():
    bad = scripts_off_the_pattern(SRC)
    expect(not bad, f"off the test_WHAT.py pattern: {bad}")
    # and the check can fail: a copy with each way off it
    top = os.path.join(WORK, "scripts")
    main = 'if __name__ == "__main__":\n    hbtest.main()\n'
    write("scripts/tests/a/test_good.py", "def test_x():\n    pass\n" + main)
    write("scripts/tests/a/a_test.py", "def test_x():\n    pass\n" + main)
    write("scripts/tests/a/test_tool.py", "def main():\n    pass\n")
    write("scripts/tests/a/test_own.py", "def test_x():\n    pass\n"
          'if __name__ == "__main__":\n    globals()["test_x"]()\n')
    write("scripts/tests/a/test_teardown.py", "def test_x():\n    pass\n"
          'if __name__ == "__main__":\n    try:\n        hbtest.main()\n'
          "    finally:\n        pass\n")
    write("scripts/tests/a/test_argv.py", "import sys\nHB = sys.argv[2]\n\n\n"
          "def test_x():\n    pass\n" + main)
    write("scripts/tests/support/helper.py", "def test_x():\n    pass\n")
    got = scripts_off_the_pattern(top)
    want = ["tests/a/a_test.py", "tests/a/test_argv.py", "tests/a/test_own.py",
            "tests/a/test_teardown.py", "tests/a/test_tool.py"]
    expect(got == want, f"{got}, want {want}")


def fixed_sleeps(top):
    """time.sleep calls (or a sleep imported from time) in the python tests
    under top/tests but hbtest.py's poll, the one wait on a condition."""
    found = []
    for rel, text in python_files(top):
        if rel == "tests/support/hbtest.py":
            continue
        for n in ast.walk(ast.parse(text, rel)):
            call = (isinstance(n, ast.Attribute) and n.attr == "sleep"
                    and isinstance(n.value, ast.Name) and n.value.id == "time")
            imported = (isinstance(n, ast.ImportFrom) and n.module == "time"
                        and any(a.name == "sleep" for a in n.names))
            if call or imported:
                found.append(f"{rel}:{n.lineno}")
    return found


def test_python_tests_wait_on_conditions_not_fixed_sleeps():
    # a busy host beats any fixed sleep: tests wait with hbtest.poll or
    # hbtest.wait_for on the condition they need
    found = fixed_sleeps(SRC)
    expect(not found, "fixed sleeps (wait with hbtest.wait_for): "
           + ", ".join(found))
    write("sleeps/tests/a/test_a.py", "import time\n\n\ndef test_x():\n"
          "    time.sleep(0.3)\n")
    write("sleeps/tests/a/test_b.py", "from time import monotonic, sleep\n")
    write("sleeps/tests/support/hbtest.py", "import time\ntime.sleep(1)\n")
    got = fixed_sleeps(os.path.join(WORK, "sleeps"))
    want = ["tests/a/test_a.py:5", "tests/a/test_b.py:1"]
    expect(got == want, f"{got}, want {want}")


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
    hbtest.main()

