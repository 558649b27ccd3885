# SPDX-License-Identifier: Apache-2.0
"""fio job files as suites, and presets by name.

Usage: test_fiojobs.py NAME HOSTBENCH SOURCE_DIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB, SRC = hbtest.args("HOSTBENCH", "SOURCE_DIR")
FIO = os.path.join(SRC, "tests", "fixtures", "fio")
SHORT = ["--set", "duration=10ms", "--set", "repetitions=2",
         "--no-store", "-f", "json"]


def run(*args):
    p = subprocess.run([HB, *args], capture_output=True, text=True,
                       timeout=100)
    return p.returncode, p.stdout, p.stderr


def job_file(d, text, name="job.fio"):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def results(d, *args):
    """The results of a short run in directory d."""
    rc, out, err = run("run", *args, "--set", "dir=" + d, *SHORT)
    expect(rc == 0, f"run: {rc} {err}")
    return json.loads(out)["results"]


def test_reference_large_profile_runs_as_sequential_reads():
    d = hbtest.scratch("hb-fio-")
    r = results(d, os.path.join(FIO, "cte-perf-large.conf"),
                "--set", "file_size=1M")
    expect(len(r) == 1 and r[0]["status"] == "ok", f"{r}")
    r = r[0]
    expect(r["job"] == "cte_perf_jobs" and r["target"] == "io/seq-read",
           f"{r['job']} {r['target']}")
    expect(r["params"]["parallel"] == 4 and r["params"]["size"] == 1 << 20
           and r["params"]["direct"] is True, f"{r['params']}")


def test_reference_small_profile_runs_as_small_files():
    d = hbtest.scratch("hb-fio-")
    r = results(d, os.path.join(FIO, "cte-perf-small.conf"),
                "--set", "files=8")
    expect(len(r) == 1 and r[0]["status"] == "ok", f"{r}")
    p = r[0]["params"]
    expect(r[0]["target"] == "io/small-files" and p["size"] == 4096
           and p["file_size"] == 65536 and p["parallel"] == 4
           and p["mode"] == "read", f"{r[0]['target']} {p}")


def test_runtime_becomes_five_samples_of_a_fifth():
    d = hbtest.scratch("hb-fio-")
    path = job_file(d, "[w]\nrw=write\nsize=1m\nruntime=1\n")
    rc, out, err = run("run", path, "--set", "dir=" + d, "--no-store",
                       "-f", "json")
    expect(rc == 0, f"run: {rc} {err}")
    r = json.loads(out)["results"][0]
    expect(r["duration"] == 0.2 and r["repetitions"] == 5
           and r["warmup"] == 0, f"{r['duration']} {r['repetitions']}")


def test_global_is_inherited_and_name_names_the_job():
    d = hbtest.scratch("hb-fio-")
    path = job_file(d, "[global]\nrw=write\nbs=64k\nend_fsync=1\n"
                       "[a]\nname=writer\nsize=1m\nnumjobs=2\n")
    r = results(d, path)
    p = r[0]["params"]
    expect(r[0]["job"] == "writer" and r[0]["target"] == "io/seq-write"
           and p["size"] == 65536 and p["file_size"] == 1 << 20
           and p["fsync"] == "end" and p["parallel"] == 2, f"{r[0]}")


def test_a_key_the_io_plugin_cannot_honour_is_refused_at_its_line():
    d = hbtest.scratch("hb-fio-")
    path = job_file(d, "[global]\nrw=write\n[a]\nsize=1m\n\n"
                       "[job3]\nbs=4k\niodepth_batch=4\n")
    out = os.path.join(d, "r.json")
    rc, _, err = run("run", path, "-o", out, "--no-store")
    expect(rc == 2, f"status {rc}")
    expect(err.strip() == f"hostbench: {path}:8: [job3] iodepth_batch: "
           "not something hostbench's io plugin can do", err)
    expect(not os.path.exists(out), "nothing written")


def test_random_io_is_refused_with_its_value():
    d = hbtest.scratch("hb-fio-")
    path = job_file(d, "[r]\nrw=randread\nsize=1m\n")
    rc, _, err = run("run", path, "--no-store")
    expect(rc == 2 and f"{path}:2: [r] rw: a sequential read or write "
           'only (read, write) ("randread")' in err, err)


def test_fio_option_reads_any_file_as_a_job_file():
    d = hbtest.scratch("hb-fio-")
    path = job_file(d, "[plain]\nsize=1m\n", "jobs.txt")
    rc, _, err = run("run", path, "--no-store")
    expect(rc == 2, f"without --fio: {rc} {err}")
    r = results(d, path, "--fio")
    expect(r[0]["target"] == "io/seq-read", f"{r[0]['target']}")


def test_preset_runs_by_name():
    d = hbtest.scratch("hb-fio-")
    rc, out, err = run("run", "cte-large", "--set", "dir=" + d,
                       "--set", "file_size=1M", *SHORT)
    expect(rc == 0, f"run: {rc} {err}")
    doc = json.loads(out)
    expect(doc["run"]["suites"][0]["path"].endswith(
        "presets/cte-large.ini"), f"{doc['run']['suites']}")
    expect([r["target"] for r in doc["results"]]
           == ["io/seq-write", "io/seq-read"], "the preset's jobs")


def test_presets_lists_each_with_its_own_line():
    rc, out, err = run("presets")
    expect(rc == 0, f"presets: {rc} {err}")
    names = sorted(f[:-4] for f in os.listdir(os.path.join(SRC, "conf",
                                                           "presets"))
                   if f.endswith(".ini"))
    lines = out.splitlines()
    expect([ln.split()[0] for ln in lines] == names, out)
    expect("cte-large            Large-file sequential I/O, as the "
           "storage-encryption benchmark's fio profile cte-perf-large.conf"
           in lines, out)


def test_an_unknown_preset_gets_a_did_you_mean():
    rc, _, err = run("run", "cte-larg", "--no-store")
    expect(rc == 2 and 'did you mean "cte-large"?' in err
           and len(err.splitlines()) == 1, err)


if __name__ == "__main__":
    hbtest.main()
