# SPDX-License-Identifier: Apache-2.0
"""The SDK and packaging, end to end: an install into a temporary prefix,
the out-of-tree example plugin built against that prefix alone and measured
beside openssl, a relocated prefix, plugins built for another ABI, the
.deb, and the man page and completion against --help.

Usage: test_sdk.py TEST HOSTBENCH BUILD_DIR SOURCE_DIR WORK_DIR CMAKE CPACK

install_prefix sets up WORK_DIR (the CTest fixture the other tests
share): the install and the example built and installed into it once.
A test this host cannot run skips (exit 77), with the reason.
"""
import glob
import json
import os
import re
import shutil
import stat
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB, BUILD, SRC, WORK, CMAKE, CPACK = hbtest.args(
    "HOSTBENCH", "BUILD_DIR", "SOURCE_DIR", "WORK_DIR", "CMAKE", "CPACK")
PREFIX = os.path.join(WORK, "prefix")
EXAMPLE = os.path.join(SRC, "examples", "accelerator")
EXAMPLE_BUILD = os.path.join(WORK, "example-build")

# No plugin directory from the caller's environment may leak in.
ENV = {k: v for k, v in os.environ.items()
       if k not in ("HOSTBENCH_PLUGIN_PATH", "EXAMPLE_ACCEL_DEVICES")}


def skip(why):
    raise hbtest.Skip(why)


def run(argv, status=0, env=None, **kw):
    """Run argv; it must exit with status. Returns the process."""
    p = subprocess.run(argv, capture_output=True, text=True,
                       env=env or ENV, **kw)
    expect(p.returncode == status, "%s: exit %d\n%s\n%s" % (
        " ".join(argv), p.returncode, p.stdout, p.stderr))
    return p


def fresh_dir(path):
    """An empty directory only its owner may write (the loader insists)."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    os.chmod(path, 0o755)
    return path


def plugin_dir(prefix):
    """The plugin directory of an install prefix (lib or lib64 or ...)."""
    found = glob.glob(os.path.join(prefix, "lib*", "**", "hostbench",
                                   "plugins"), recursive=True)
    expect(len(found) == 1, found)
    return found[0]


def suite(path, body):
    """Write a suite with tiny samples: 20 ms, 2 repetitions, no warmup."""
    with open(path, "w") as f:
        f.write("[global]\nduration = 20ms\nrepetitions = 2\nwarmup = 0\n"
                "\n" + body)
    return path


def run_json(hb, argv, status=0, env=None):
    """hostbench ARGV --format json, parsed."""
    p = run([hb] + argv + ["--format", "json"], status=status, env=env)
    return json.loads(p.stdout), p


def build_example(sdk_prefix, build_dir, cflags=""):
    """Configure and build examples/accelerator against sdk_prefix only."""
    shutil.rmtree(build_dir, ignore_errors=True)
    p = run([CMAKE, "-S", EXAMPLE, "-B", build_dir,
             "-DCMAKE_PREFIX_PATH=" + sdk_prefix,
             "-DCMAKE_BUILD_TYPE=Release",
             "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
             "-DCMAKE_C_FLAGS=" + cflags])
    run([CMAKE, "--build", build_dir])
    return p.stdout


def installed_hostbench():
    if not os.path.isdir(PREFIX):
        skip("no install prefix: the install_prefix test did not run")
    return os.path.join(PREFIX, "bin", "hostbench")


def by_backend(results):
    return {r["backend"]: r for r in results}


# --- the fixture ----------------------------------------------------------

def test_install_prefix():
    fresh_dir(WORK)
    # An install under a permissive umask must still load its plugins.
    os.umask(0o002)
    run([CMAKE, "--install", BUILD, "--prefix", PREFIX])
    plugins = plugin_dir(PREFIX)
    for rel in ["bin/hostbench", "include/hostbench/plugin.h",
                "include/hostbench/crypto.h",
                "share/hostbench/conf/default.ini",
                "share/hostbench/conf/extended.ini",
                "share/man/man1/hostbench.1.gz",
                "share/bash-completion/completions/hostbench",
                "libexec/hostbench/hostbench-serve"]:
        expect(os.path.isfile(os.path.join(PREFIX, rel)), rel)
    expect(glob.glob(os.path.join(PREFIX, "lib*", "**",
                                  "hostbench-plugin.pc"), recursive=True),
           "no hostbench-plugin.pc in the prefix")
    expect(glob.glob(os.path.join(PREFIX, "lib*", "**",
                                  "hostbench-config.cmake"), recursive=True),
           "no hostbench-config.cmake in the prefix")
    for root, dirs, files in os.walk(PREFIX):
        for name in dirs + files:
            mode = os.stat(os.path.join(root, name)).st_mode
            expect(not mode & (stat.S_IWGRP | stat.S_IWOTH),
                   "%s is group/other writable" % os.path.join(root, name))
    out = build_example(PREFIX, EXAMPLE_BUILD)
    expect("plugins in %s" % plugins in out, out)
    # Nothing from the source tree: only the prefix's include directory.
    with open(os.path.join(EXAMPLE_BUILD, "compile_commands.json")) as f:
        commands = " ".join(c["command"] for c in json.load(f))
    expect(os.path.join(SRC, "include") not in commands, commands)
    expect(os.path.join(PREFIX, "include") in commands, commands)
    run([CMAKE, "--install", EXAMPLE_BUILD])
    expect(os.path.isfile(os.path.join(plugins, "example_accel.so")),
           "example_accel.so is not in " + plugins)


# --- the installed tree ---------------------------------------------------

def test_example_beside_openssl():
    hb = installed_hostbench()
    s = suite(os.path.join(WORK, "beside.ini"),
              "[AES256/CTR]\ntarget = crypto/aes-256-ctr\n"
              "backend = example-accel, openssl\nsize = 16K\n")
    doc, _ = run_json(hb, ["run", s])
    res = by_backend(doc["results"])
    expect(sorted(res) == ["example-accel", "openssl"], res.keys())
    for r in res.values():
        expect(r["status"] == "ok", r)
        expect(r["params"]["size"] == 16384, r["params"])
        expect(r["stats"]["median"] > 0, r["stats"])
        expect(len(r["samples"]) == 2, r["samples"])
    libs = json.dumps(doc["libraries"])
    expect("software AES-CTR" in libs, doc["libraries"])


def test_example_every_mode_and_direction():
    hb = installed_hostbench()
    s = suite(os.path.join(WORK, "modes.ini"),
              "[ctr]\ntarget = crypto/aes-256-ctr\nbackend = example-accel\n"
              "size = 1000\nmode = message, stream\n"
              "direction = encrypt, decrypt\nparallel = 1, 2\n")
    doc, _ = run_json(hb, ["run", s])
    expect(len(doc["results"]) == 8, len(doc["results"]))
    for r in doc["results"]:
        expect(r["status"] == "ok", r)


def test_example_options_match_builtin():
    hb = installed_hostbench()
    doc, _ = run_json(hb, ["describe", "crypto/aes-256-ctr"])
    opts = {d["backend"]: d["options"] for d in doc}
    expect("example-accel" in opts, opts.keys())
    names = [o["name"] for o in opts["example-accel"]]
    expect(names == ["size", "mode", "direction"], names)
    for backend in ("openssl", "gcrypt"):
        if backend in opts:
            expect(opts[backend][:3] == opts["example-accel"], backend)
    # One job, the same keys, every backend: the suite validates for all.
    backends = ", ".join(["example-accel"] + [b for b in ("openssl", "gcrypt")
                                              if b in opts])
    s = suite(os.path.join(WORK, "same-keys.ini"),
              "[ctr]\ntarget = crypto/aes-256-ctr\nbackend = %s\n"
              "size = 4K\nmode = stream\ndirection = decrypt\n" % backends)
    doc, _ = run_json(hb, ["run", s])
    expect(all(r["status"] == "ok" for r in doc["results"]), doc["results"])


def test_example_without_device_skips():
    hb = installed_hostbench()
    env = dict(ENV, EXAMPLE_ACCEL_DEVICES="0")
    doc, _ = run_json(hb, ["list"], env=env)
    mine = [t for t in doc["targets"] if t["backend"] == "example-accel"]
    expect(len(mine) == 1 and not mine[0]["usable"], mine)
    s = suite(os.path.join(WORK, "nodev.ini"),
              "[ctr]\ntarget = crypto/aes-256-ctr\nbackend = example-accel\n"
              "size = 4K\n")
    doc, _ = run_json(hb, ["run", s], env=env)
    r = doc["results"][0]
    expect(r["status"] == "skipped" and "no device" in r["reason"], r)


def test_example_keeps_messages_in_flight_on_its_device():
    hb = installed_hostbench()
    s = suite(os.path.join(WORK, "inflight.ini"),
              "[ctr]\ntarget = crypto/aes-256-ctr\nbackend = example-accel\n"
              "size = 4K\nqueue_depth = 1, 16\n"
              "direction = encrypt, decrypt\n")
    doc, _ = run_json(hb, ["run", s])
    got = sorted((r["params"]["queue_depth"], r["params"]["direction"])
                 for r in doc["results"])
    expect(got == [(1, "decrypt"), (1, "encrypt"), (16, "decrypt"),
                   (16, "encrypt")], got)
    for r in doc["results"]:
        expect(r["status"] == "ok" and r["flags"]["offload"], r)
        lat = r.get("latency", {})
        expect(lat.get("count", 0) > 0 and lat.get("p50", 0) > 0, lat)


def test_example_passes_check_with_its_timed_paths_verified():
    hb = installed_hostbench()
    p = run([hb, "check", "example-accel"])
    rows = {(r[0], r[1]): r for r in
            (line.split(None, 3) for line in p.stdout.splitlines()[2:-1])}
    for check in ("options", "sizes", "decrypt", "counter", "repeat",
                  "run", "submit", "async"):
        row = rows.get(("crypto/aes-256-ctr", check))
        expect(row and row[2] == "ok", "%s: %s" % (check, p.stdout))
    expect("depth 1 and 16" in rows[("crypto/aes-256-ctr", "submit")][3],
           rows[("crypto/aes-256-ctr", "submit")])
    expect(re.match(r"^\d+ ok, 0 failed, 0 skipped$",
                    p.stdout.splitlines()[-1]), p.stdout.splitlines()[-1])


def pkgconfig_plugin(out_dir, defines=()):
    """Build the example with one cc line from hostbench-plugin.pc."""
    pc_dirs = glob.glob(os.path.join(PREFIX, "lib*", "**", "pkgconfig"),
                        recursive=True)
    env = dict(ENV, PKG_CONFIG_PATH=":".join(pc_dirs))
    cflags = run(["pkg-config", "--cflags", "hostbench-plugin"],
                 env=env).stdout.split()
    expect("-fvisibility=hidden" in cflags, cflags)
    sources = [os.path.join(EXAMPLE, f) for f in
               ("accel.c", "inflight.c", "kat.c", "device_soft.c",
                "aes256.c")]
    fresh_dir(out_dir)
    so = os.path.join(out_dir, "example_accel.so")
    run(["cc", "-O2", "-Wall", "-Wextra", "-Werror", "-fPIC", "-shared",
         "-Wl,--no-undefined", "-o", so] + cflags +
        ["-D" + d for d in defines] + sources + ["-lpthread"], env=env)
    os.chmod(so, 0o644)
    plugindir = run(["pkg-config", "--variable=plugindir",
                     "hostbench-plugin"], env=env).stdout.strip()
    expect(os.path.samefile(plugindir, plugin_dir(PREFIX)), plugindir)
    return out_dir


def test_pkgconfig_builds_plugin():
    hb = installed_hostbench()
    d = pkgconfig_plugin(os.path.join(WORK, "pc-plugin"))
    doc, _ = run_json(hb, ["--plugin-dir", d, "list"])
    paths = [p["path"] for p in doc["plugins"] if p["name"] == "example-accel"]
    expect(paths == [os.path.join(os.path.realpath(d), "example_accel.so")],
           paths)


def test_example_wrong_answer_fails():
    hb = installed_hostbench()
    d = pkgconfig_plugin(os.path.join(WORK, "corrupt-plugin"),
                         ["EXAMPLE_ACCEL_KAT_CORRUPT"])
    s = suite(os.path.join(WORK, "corrupt.ini"),
              "[ctr]\ntarget = crypto/aes-256-ctr\n"
              "backend = example-accel, openssl\nsize = 4K\n")
    doc, _ = run_json(hb, ["--plugin-dir", d, "run", s], status=1)
    res = by_backend(doc["results"])
    bad = res["example-accel"]
    expect(bad["status"] == "failed", bad)
    expect("NIST SP 800-38A F.5.5" in bad["reason"], bad["reason"])
    expect("stats" not in bad or not bad["stats"], bad)
    expect(res["openssl"]["status"] == "ok", res["openssl"])


# --- the crypto SDK example of docs/plugins.md ----------------------------

def docs_crypto_plugin(name, include_dir=None):
    """Build the <hostbench/crypto.h> example of docs/plugins.md against
    the prefix (include_dir, when given, is searched first) into a fresh
    plugin directory WORK/name; returns the directory."""
    with open(os.path.join(SRC, "docs", "plugins.md")) as f:
        blocks = re.findall(r"```c\n(.*?)```", f.read(), re.S)
    code = [b for b in blocks if "#include <hostbench/crypto.h>" in b]
    expect(len(code) == 1, "one crypto SDK example in docs/plugins.md")
    src_dir = fresh_dir(os.path.join(WORK, name + "-src"))
    source = os.path.join(src_dir, "docs_accel.c")
    with open(source, "w") as f:
        f.write(code[0])
    pc_dirs = glob.glob(os.path.join(PREFIX, "lib*", "**", "pkgconfig"),
                        recursive=True)
    env = dict(ENV, PKG_CONFIG_PATH=":".join(pc_dirs))
    cflags = run(["pkg-config", "--cflags", "hostbench-plugin"],
                 env=env).stdout.split()
    crypto = run(["pkg-config", "--cflags", "--libs", "libcrypto"],
                 env=env).stdout.split()
    first = ["-I", include_dir] if include_dir else []
    out_dir = fresh_dir(os.path.join(WORK, name))
    so = os.path.join(out_dir, "docs_accel.so")
    run(["cc", "-O2", "-Wall", "-Wextra", "-Werror", "-fPIC", "-shared",
         "-Wl,--no-undefined", "-o", so] + first + cflags + [source] +
        crypto, env=env)
    os.chmod(so, 0o644)
    return out_dir


def test_docs_crypto_plugin_runs_beside_openssl():
    hb = installed_hostbench()
    d = docs_crypto_plugin("docs-crypto")
    doc, _ = run_json(hb, ["--plugin-dir", d, "describe",
                           "crypto/aes-256-ctr"])
    opts = {t["backend"]: t["options"] for t in doc}
    expect(opts["docs-accel"] == opts["openssl"][:3], opts["docs-accel"])
    s = suite(os.path.join(WORK, "docs-crypto.ini"),
              "[ctr]\ntarget = crypto/aes-256-ctr\n"
              "backend = docs-accel, openssl\nsize = 4K\n"
              "mode = message, stream\ndirection = encrypt, decrypt\n")
    doc, _ = run_json(hb, ["--plugin-dir", d, "run", s])
    got = sorted((r["backend"], r["params"]["mode"], r["params"]["direction"],
                  r["status"]) for r in doc["results"])
    expect(got == sorted((b, m, dr, "ok") for b in ("docs-accel", "openssl")
                         for m in ("message", "stream")
                         for dr in ("encrypt", "decrypt")), got)


def test_docs_crypto_plugin_passes_check():
    hb = installed_hostbench()
    d = docs_crypto_plugin("docs-crypto-check")
    p = run([hb, "--plugin-dir", d, "check", "docs-accel"])
    rows = [line.split(None, 3) for line in p.stdout.splitlines()[2:]]
    checks = {(r[0], r[1]): r[2] for r in rows if len(r) > 2}
    for check in ("options", "sizes", "decrypt", "counter", "repeat",
                  "run"):
        expect(checks.get(("crypto/aes-256-ctr", check)) == "ok",
               "%s: %s" % (check, p.stdout))


def test_docs_crypto_plugin_checks_the_sdk_vector():
    hb = installed_hostbench()
    corrupt = os.path.join(WORK, "corrupt-include")
    shutil.rmtree(corrupt, ignore_errors=True)
    shutil.copytree(os.path.join(PREFIX, "include"), corrupt)
    header = os.path.join(corrupt, "hostbench", "crypto.h")
    with open(header) as f:
        text = f.read()
    # the last byte of the AES-256-CTR ciphertext of SP 800-38A F.5.5
    expect(text.count('13c2dd08457941a6"') == 1, "the vector's last line")
    with open(header, "w") as f:
        f.write(text.replace('13c2dd08457941a6"', '13c2dd08457941a7"'))
    d = docs_crypto_plugin("docs-crypto-corrupt", include_dir=corrupt)
    s = suite(os.path.join(WORK, "docs-corrupt.ini"),
              "[ctr]\ntarget = crypto/aes-256-ctr\n"
              "backend = docs-accel, openssl\nsize = 4K\n"
              "direction = encrypt, decrypt\n")
    doc, _ = run_json(hb, ["--plugin-dir", d, "run", s], status=1)
    for r in doc["results"]:
        if r["backend"] == "openssl":
            expect(r["status"] == "ok", r)
            continue
        expect(r["status"] == "failed", r)
        expect("known-answer check failed: AES-256-CTR" in r["reason"] and
               "NIST SP 800-38A F.5.5" in r["reason"], r["reason"])


def test_relocated_prefix_works():
    installed_hostbench()
    moved = os.path.join(WORK, "moved")
    shutil.rmtree(moved, ignore_errors=True)
    shutil.copytree(PREFIX, moved, symlinks=True)
    hb = os.path.join(moved, "bin", "hostbench")
    doc, _ = run_json(hb, ["list"])
    names = sorted(p["name"] for p in doc["plugins"])
    expect("example-accel" in names and "openssl" in names, names)
    for p in doc["plugins"]:
        expect(p["path"].startswith(os.path.realpath(moved) + "/"), p["path"])
    # The moved tree's own suites, not the build's or the old prefix's.
    conf = os.path.join(moved, "share", "hostbench", "conf")
    for name, label in (("default.ini", "moved-default"),
                        ("extended.ini", "moved-extended")):
        suite(os.path.join(conf, name),
              "[%s]\ntarget = mem/memcpy\nsize = 4K\n" % label)
    doc, _ = run_json(hb, [])
    expect([r["job"] for r in doc["results"]] == ["moved-default"], doc)
    doc, _ = run_json(hb, ["--extended"])
    expect([r["job"] for r in doc["results"]] == ["moved-extended"], doc)
    p = run([hb, "serve", "--help"])
    expect("--listen" in p.stdout, p.stdout)
    # The SDK files moved along: pkg-config names the moved plugin dir.
    pc = glob.glob(os.path.join(moved, "lib*", "**", "pkgconfig"),
                   recursive=True)
    env = dict(ENV, PKG_CONFIG_PATH=":".join(pc))
    plugindir = run(["pkg-config", "--variable=plugindir",
                     "hostbench-plugin"], env=env).stdout.strip()
    expect(os.path.samefile(plugindir, plugin_dir(moved)), plugindir)


def sdk_with_abi(name, major, minor):
    """A copy of the installed SDK whose plugin.h says ABI major.minor."""
    sdk = fresh_dir(os.path.join(WORK, name))
    shutil.copytree(os.path.join(PREFIX, "include"),
                    os.path.join(sdk, "include"))
    for d in glob.glob(os.path.join(PREFIX, "lib*")):
        for cfg in glob.glob(os.path.join(d, "**", "cmake"), recursive=True):
            shutil.copytree(cfg, os.path.join(
                sdk, os.path.relpath(cfg, PREFIX)))
    header = os.path.join(sdk, "include", "hostbench", "plugin.h")
    with open(header) as f:
        text = f.read()
    text = re.sub(r"#define HB_ABI_MAJOR \d+", "#define HB_ABI_MAJOR %d"
                  % major, text)
    text = re.sub(r"#define HB_ABI_MINOR \d+", "#define HB_ABI_MINOR %d"
                  % minor, text)
    with open(header, "w") as f:
        f.write(text)
    return sdk


def core_abi():
    with open(os.path.join(PREFIX, "include", "hostbench", "plugin.h")) as f:
        text = f.read()
    return tuple(int(re.search(r"#define HB_ABI_%s (\d+)" % k, text).group(1))
                 for k in ("MAJOR", "MINOR"))


def check_abi_refused(name, major, minor):
    hb = installed_hostbench()
    sdk = sdk_with_abi(name, major, minor)
    build = os.path.join(WORK, name + "-build")
    build_example(sdk, build)
    d = fresh_dir(os.path.join(WORK, name + "-plugins"))
    so = os.path.join(d, "example_accel.so")
    shutil.copy(os.path.join(build, "example_accel.so"), so)
    os.chmod(so, 0o644)
    doc, p = run_json(hb, ["--plugin-dir", d, "list"])
    refused = [r for r in doc["refused"] if r["path"].endswith(
        "/" + name + "-plugins/example_accel.so")]
    expect(len(refused) == 1, doc["refused"])
    want = "built for ABI %d.%d, this hostbench speaks %d.%d" % (
        (major, minor) + core_abi())
    expect(want in refused[0]["reason"], refused[0]["reason"])
    line = [l for l in p.stderr.splitlines() if "refused" in l]
    expect(line and so in line[0] and want in line[0], p.stderr)
    # The shadowed install is not used instead, and the others still load.
    names = [q["name"] for q in doc["plugins"]]
    expect("example-accel" not in names and "openssl" in names, names)
    s = suite(os.path.join(WORK, name + ".ini"),
              "[ctr]\ntarget = crypto/aes-256-ctr\n"
              "backend = example-accel, openssl\nsize = 4K\n")
    doc, _ = run_json(hb, ["--plugin-dir", d, "run", s], status=1)
    res = by_backend(doc["results"])
    expect(res["example-accel"]["status"] == "failed", res)
    expect(want in res["example-accel"]["reason"], res)
    expect(res["openssl"]["status"] == "ok", res)


def test_abi_newer_minor_refused():
    major, minor = core_abi()
    check_abi_refused("sdk-newer-minor", major, minor + 1)


def test_abi_other_major_refused():
    major, minor = core_abi()
    check_abi_refused("sdk-next-major", major + 1, 0)


# --- the Debian package ---------------------------------------------------

def built_deb(name):
    """cpack -G DEB into WORK-NAME; return (its directory, the .deb)."""
    for tool in ("dpkg-deb", "dpkg-shlibdeps", "file"):
        if not shutil.which(tool):
            skip("%s not installed (apt-get install dpkg-dev file)" % tool)
    # Beside WORK, not in it: the fixture may be rebuilding WORK meanwhile.
    out = fresh_dir(WORK + "-" + name)
    run([CPACK, "-G", "DEB", "--config",
         os.path.join(BUILD, "CPackConfig.cmake"), "-B", out])
    debs = glob.glob(os.path.join(out, "*.deb"))
    expect(len(debs) == 1, debs)
    return out, debs


def test_deb_lists_plugins():
    out, debs = built_deb("deb")
    depends = run(["dpkg-deb", "-f", debs[0], "Depends"]).stdout
    built = [os.path.basename(f) for f in
             glob.glob(os.path.join(BUILD, "plugins", "*.so"))]
    want = ["libinih1", "libjansson4"]
    if "crypto_openssl.so" in built:
        want.append("libssl3")
    if "crypto_gcrypt.so" in built:
        want.append("libgcrypt20")
    if "crypto_xxhash.so" in built:
        want.append("libxxhash0")
    for pkg in want:
        expect(re.search(r"\b%s(t64)?\b" % pkg, depends), (pkg, depends))
    root = fresh_dir(os.path.join(out, "root"))
    run(["dpkg", "-x", debs[0], root])
    hb = os.path.join(root, "usr", "bin", "hostbench")
    doc, _ = run_json(hb, ["list"])
    listed = sorted(os.path.basename(p["path"]) for p in doc["plugins"])
    expect(listed == sorted(built), (listed, built))
    for p in doc["plugins"]:
        expect(p["path"].startswith(os.path.realpath(root) + "/"), p["path"])
    expect(not doc["refused"], doc["refused"])
    for rel in ("usr/share/man/man1/hostbench.1.gz",
                "usr/share/bash-completion/completions/hostbench",
                "usr/include/hostbench/plugin.h",
                "usr/share/hostbench/conf/default.ini"):
        expect(os.path.isfile(os.path.join(root, rel)), rel)


def explained_lintian_tags():
    """The tags docs/packaging.md explains: its table's `tag` cells."""
    with open(os.path.join(SRC, "docs", "packaging.md")) as f:
        text = f.read()
    table = text.split("## What lintian says", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z0-9-]+)` \|", table, re.M))


def test_deb_has_the_license():
    out, debs = built_deb("deb-license")
    root = fresh_dir(os.path.join(out, "root"))
    run(["dpkg", "-x", debs[0], root])
    with open(os.path.join(root, "usr/share/doc/hostbench/copyright")) as f:
        text = f.read()
    expect(text.startswith("Format: https://www.debian.org/doc/"
                           "packaging-manuals/copyright-format/1.0/"), text)
    expect("License: Apache-2.0" in text, text)
    expect("/usr/share/common-licenses/Apache-2.0" in text, text)


def test_deb_lintian_tags_are_explained():
    if not shutil.which("lintian"):
        skip("lintian not installed (apt-get install lintian)")
    _, debs = built_deb("deb-lintian")
    p = subprocess.run(["lintian", "--allow-root", debs[0]],
                       capture_output=True, text=True, timeout=300)
    tags = set(re.findall(r"^[EWIPX]: hostbench: ([a-z0-9-]+)", p.stdout,
                          re.M))
    unexplained = tags - explained_lintian_tags()
    expect(not unexplained,
           "lintian tags docs/packaging.md does not explain: %s\n%s"
           % (sorted(unexplained), p.stdout))


# --- the man page and completion against --help ---------------------------

OPTION = r"(?<![\w-])(--?[A-Za-z][\w-]*)"


def help_words(argv):
    """Options a --help text names anywhere, those of its "Options:"
    section, and the commands of its "Commands:" section."""
    text = run([HB] + argv).stdout
    options = set(re.findall(OPTION, text))
    section_options, commands = set(), set()
    section = None
    for line in text.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            section = line
        elif section == "Commands:" and re.match(r"  [a-z]", line):
            commands.add(line.split()[0])
        elif section == "Options:":
            section_options |= set(re.findall(OPTION, line))
    return options, section_options, commands


def man_text():
    with open(os.path.join(SRC, "docs", "man", "hostbench.1")) as f:
        roff = f.read()
    return roff.replace("\\-", "-").replace("\\fB", "").replace(
        "\\fR", "").replace("\\fI", "").replace("\\fP", "")


def man_section(text, title):
    m = re.search(r"^\.SH %s\n(.*?)(?=^\.SH )" % title, text, re.S | re.M)
    expect(m, title)
    return m.group(1)


def help_commands():
    """The commands of `hostbench --help`, serve's own aside."""
    _, _, commands = help_words(["--help"])
    return sorted(commands - {"(none)", "serve"})


def command_options(cmd):
    """The options `hostbench CMD --help` lists (serve: names anywhere,
    and --help, which its program takes)."""
    if cmd == "serve":
        named, _, _ = help_words(["serve", "--help"])
        return named | {"--help"}
    _, section, _ = help_words([cmd, "--help"])
    return section


def test_man_covers_help():
    man = man_text()
    global_options, _, commands = help_words(["--help"])
    options = set(global_options)
    for cmd in help_commands() + ["serve"]:
        options |= command_options(cmd)
    expect("--format" in options and "run" in commands, (options, commands))
    documented = set()
    for title in ("OPTIONS", "SERVE OPTIONS"):
        for line in man_section(man, title).splitlines():
            if line.startswith((".B", ".BI", ".BR")):
                documented |= set(re.findall(OPTION, line))
    for opt in sorted(options):
        expect(opt in documented, "%s is in --help, not in hostbench.1" % opt)
    for opt in sorted(documented):
        expect(opt in options, "%s is in hostbench.1, not in --help" % opt)
    cmds = man_section(man, "COMMANDS")
    for c in sorted(commands - {"(none)"}):
        expect(re.search(r"^\.BI? %s\b" % c, cmds, re.M),
               "command %s is not in hostbench.1" % c)
    for env in re.findall(r"\b(HOSTBENCH_[A-Z_]+)", run([HB, "--help"]).stdout):
        expect(env in man_section(man, "ENVIRONMENT"), env)
    version = run([HB, "--version"]).stdout.split()[-1]
    expect(re.search(r'^\.TH HOSTBENCH 1 .*"hostbench %s"' % re.escape(version),
                     man, re.M), "hostbench.1 is not for version " + version)


def man_options_by_command():
    """Each command's options in hostbench.1's OPTIONS BY COMMAND."""
    section = man_section(man_text(), "OPTIONS BY COMMAND")
    found = {}
    for entry in section.split(".TP\n")[1:]:
        lines = entry.splitlines()
        found[lines[0].split()[-1]] = set(re.findall(OPTION, " ".join(
            lines[1:])))
    return found


def usage_options_by_command():
    """Each command's options in docs/usage.md's table of them."""
    with open(os.path.join(SRC, "docs", "usage.md")) as f:
        text = f.read()
    return {m.group(1): set(re.findall(r"`(--?[A-Za-z][\w-]*)`", m.group(2)))
            for m in re.finditer(r"^\| `(\w+)` \| (`-.*) \|$", text, re.M)}


def test_docs_list_each_commands_options():
    # each command's --help, docs/usage.md and hostbench.1 name the same
    # options for it, both ways
    commands = help_commands() + ["serve"]
    for where, listed in (("docs/usage.md", usage_options_by_command()),
                          ("hostbench.1", man_options_by_command())):
        expect(sorted(listed) == sorted(commands),
               "%s lists options for %s, --help has %s" % (
                   where, sorted(listed), commands))
        for cmd in commands:
            helped = command_options(cmd)
            expect(len(helped) >= 2, "%s --help lists %s" % (cmd, helped))
            for opt in sorted(helped - listed[cmd]):
                expect(False, "%s --help lists %s, %s does not" % (
                    cmd, opt, where))
            for opt in sorted(listed[cmd] - helped):
                expect(False, "%s lists %s for %s, its --help does not" % (
                    where, opt, cmd))


def complete(words):
    """COMPREPLY of the bash completion for the command line words."""
    script = os.path.join(SRC, "docs", "completion", "hostbench.bash")
    line = " ".join("'%s'" % w for w in words)
    p = run(["bash", "-c",
             'source "$1"; COMP_WORDS=(%s); COMP_CWORD=%d; _hostbench; '
             'printf "%%s\\n" "${COMPREPLY[@]}"' % (line, len(words) - 1),
             "bash", script])
    return p.stdout.split()


def test_completion_follows_help():
    _, _, commands = help_words(["--help"])
    expect(sorted(complete([HB, ""])) == sorted(commands), commands)
    for cmd in help_commands():
        want = sorted(o for o in command_options(cmd) if o.startswith("--"))
        expect(sorted(complete([HB, cmd, "--"])) == want, (cmd, want))
    run_options = sorted(o for o in command_options("run")
                         if o.startswith("--"))
    expect(sorted(complete([HB, "--"])) == run_options, run_options)
    expect(complete([HB, "--format", "j"]) == ["json"], "--format j")
    expect(complete([HB, "desc"]) == ["describe"], "desc")
    expect("crypto/aes-256-ctr"
           in complete([HB, "describe", "crypto/aes-256-c"]),
           "describe crypto/aes-256-c")
    serve, _, _ = help_words(["serve", "--help"])
    expect(sorted(complete([HB, "serve", "--"])) == sorted(
        o for o in serve | {"--help"} if o.startswith("--")), serve)


if __name__ == "__main__":
    hbtest.main()
