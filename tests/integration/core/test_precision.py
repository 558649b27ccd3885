# SPDX-License-Identifier: Apache-2.0
"""Sampling to a precision, warm-up and interleaved rounds, end to end.

Usage: test_precision.py NAME HOSTBENCH FIXTURE_DIR
Runs test_NAME against the fixture plugin, whose `noise` option swings the
bytes it reports in a known pattern (+1, -1, +1/2, -1/2 times noise%).
Timing enters only through generous bounds: the machine is shared.
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

HB, FIXTURES = hbtest.args("HOSTBENCH", "FIXTURE_DIR")
GOOD = os.path.join(FIXTURES, "good")


def run(*args, plugins=True):
    """Run hostbench with the good fixture (plugins: a command that loads
    them, which alone takes --plugin-dir); return (status, out, err)."""
    dirs = ["--plugin-dir", GOOD] if plugins else []
    p = subprocess.run([HB, *dirs, *args],
                       capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def suite(text):
    """A temporary suite file holding text; returns its path."""
    f = tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False)
    f.write(text)
    f.close()
    return f.name


def results(text, *args):
    """Run suite text as JSON; the results (and the report's path)."""
    path = suite(text)
    out_path = path + ".json"
    status, _, err = run("run", path, "--format", "json", "-o", out_path,
                         *args)
    expect(status == 0, f"exit {status}: {err}")
    with open(out_path, encoding="utf-8") as f:
        return json.load(f)["results"], out_path


SPIN = """[global]
duration = 20ms
unit = GB/s
%s

[spin]
target = fixture/spin
backend = fixture
%s
"""


def kept_seconds(r):
    return sum(s["seconds"] for s in r["sample_details"])


def test_planted_noise_stops_at_max_time_imprecise():
    res, path = results(SPIN % ("precision = 1%\nmax_time = 1s",
                                "noise = 20"))
    r = res[0]
    # +-20% in a fixed pattern: the median's interval never gets near 1%
    expect(r["status"] == "ok", r)
    expect(r["flags"]["imprecise"], r["flags"])
    expect(r["precision"] == 0.01, r["precision"])
    s = r["stats"]
    half = max(s["median"] - s["ci95_low"], s["ci95_high"] - s["median"])
    expect(half / s["median"] > 0.01, f"interval {s}")
    # it sampled until max_time, and no longer: past min_repetitions (5)
    # the core looks at the clock before each sample, so the samples but
    # the last ended within the second and the last one ended past it.
    # Gaps between samples count towards max_time (a busy host makes them
    # long: the samples themselves may add up to half the second, and five
    # may take longer than it), and the first sample starts a thread
    # wake-up after the clock does, hence the margin.
    d = r["sample_details"]
    first, ends = d[0]["start"], [x["start"] + x["seconds"] for x in d]
    expect(len(d) >= 5, len(d))
    expect(len(d) == 5 or ends[-2] - first < 1,
           f"{len(d)} samples: sampled on after {ends[-2] - first} s")
    expect(ends[-1] - first > 0.9, f"stopped after {ends[-1] - first} s")
    expect(any(w.startswith("imprecise: ") for w in r["warnings"]),
           r["warnings"])
    # every format says so
    # (text: once under its section, what was asked and what was reached)
    for fmt, pattern in (("text", r"^spin \(\S+\) : [0-9.]+GB/s ±[0-9.]+% "
                                  r"\([0-9.]+GB/s per CPU-s\)( \[1\])?\n"
                                  r"(.*\n)*"
                                  r"  \* imprecise: asked ±1%, reached "
                                  r"±[0-9.]+% \(1 of 1 lines\)"),
                         ("md", r"\| ±[0-9.]+% \| [0-9.]* \| GB/s \| "
                                r".*imprecise"),
                         ("html", r"imprecise: asked ±1%"),
                         # imprecise, warm-up samples, cpus and cycles,
                         # then the run's uuid, start and (empty) label
                         ("csv", r",true,[0-9]+,[0-9;]*,[0-9.e+-]*,"
                                 r"[a-z]*,[0-9a-f-]*,[0-9T:.Z-]*,\r?$")):
        status, out, err = run("report", path, "--format", fmt,
                               plugins=False)
        expect(status == 0, f"{fmt}: exit {status}: {err}")
        expect(re.search(pattern, out, re.M), f"{fmt}: {out[-600:]!r}")


def test_precision_reached_early_stops_early():
    # a loose precision that a quiet fixture meets in a few samples
    res, _ = results(SPIN % ("precision = 30%\nmax_time = 60s", ""))
    r = res[0]
    expect(not r["flags"]["imprecise"], r)
    expect(5 <= len(r["samples"]) < 100, len(r["samples"]))
    expect(kept_seconds(r) < 20, f"kept {kept_seconds(r)} s of 60 s")
    # the result says how many samples it took, not the key's default
    expect(r["repetitions"] == len(r["samples"]),
           (r["repetitions"], len(r["samples"])))


def test_min_repetitions_come_first():
    res, _ = results(SPIN % ("precision = 30%\nmin_repetitions = 12", ""))
    expect(len(res[0]["samples"]) >= 12, len(res[0]["samples"]))
    expect(res[0]["repetitions"] == len(res[0]["samples"]),
           (res[0]["repetitions"], len(res[0]["samples"])))


def test_fixed_repetitions_unchanged():
    res, _ = results(SPIN % ("repetitions = 4\nwarmup = 2", "noise = 20"))
    r = res[0]
    expect(len(r["samples"]) == 4, len(r["samples"]))
    expect(r["warmup_samples"] == 2, r["warmup_samples"])
    expect(r["precision"] is None, r["precision"])
    expect(not r["flags"]["imprecise"], r["flags"])
    # four samples: the interval is their whole range
    s = r["stats"]
    expect(s["ci95_low"] == s["min"] and s["ci95_high"] == s["max"], s)


def test_warmup_count_in_json_not_in_text():
    # the warm-up samples dropped are routine: the JSON report keeps their
    # count, the text report keeps its footnotes for what a reader must know
    path = suite(SPIN % ("repetitions = 3\nwarmup = 3", ""))
    status, out, err = run("run", path)
    expect(status == 0, err)
    expect(re.search(r"^spin \(\S+\) : ", out, re.M) and "warm-up" not in out,
           out[-400:])
    res, _ = results(SPIN % ("repetitions = 3\nwarmup = auto", ""))
    expect(2 <= res[0]["warmup_samples"] <= 10, res[0]["warmup_samples"])
    expect(res[0]["warmup"] == res[0]["warmup_samples"],
           (res[0]["warmup"], res[0]["warmup_samples"]))


def starts(res):
    """Which case took each sample, in the order the samples started."""
    order = sorted((s["start"], k) for k, r in enumerate(res)
                   for s in r["sample_details"])
    return [k for _, k in order]


def test_interleaved_cases_take_turns():
    res, _ = results(SPIN % ("precision = 1%\nmax_time = 500ms\n"
                             "order = interleaved", "noise = 0, 20, 0"))
    counts = [len(r["samples"]) for r in res]
    expect(all(r["status"] == "ok" for r in res), res)
    expect(len(set(counts)) == 1 and counts[0] >= 5, counts)
    # round robin: 0 1 2 0 1 2 ... from the first sample to the last
    seq = starts(res)
    expect(seq == [0, 1, 2] * counts[0], seq)


def test_sequential_cases_run_one_after_the_other():
    res, _ = results(SPIN % ("repetitions = 3", "noise = 0, 20"))
    expect(starts(res) == [0, 0, 0, 1, 1, 1], starts(res))


def test_interleaved_fixed_repetitions_alternate():
    res, _ = results(SPIN % ("repetitions = 4\norder = interleaved",
                             "mode = a, b"))
    expect([len(r["samples"]) for r in res] == [4, 4], res)
    expect(starts(res) == [0, 1] * 4, starts(res))


def bad_input(text, fragment):
    status, out, err = run("run", suite(text))
    lines = [l for l in err.splitlines() if not l.startswith("Try ")]
    expect(status == 2 and out == "", f"exit {status}: {err}")
    expect(len(lines) == 1 and fragment in lines[0], lines)


def test_bad_sampling_keys_are_bad_input():
    spin = "[s]\ntarget = fixture/spin\nbackend = fixture\n"
    bad_input(spin + "precision = 1\n",
              '[s] precision: "1" is not a percentage')
    bad_input(spin + "precision = 80%\n",
              '[s] precision: "80%" is out of range')
    bad_input(spin + "order = random\n",
              '[s] order: "random" is not one of: sequential, interleaved')
    bad_input(spin + "max_time = 0\n", "[s] max_time:")
    bad_input(spin + "min_repetitions = 0\n",
              '[s] min_repetitions: "0" is out of range')
    bad_input(spin + "warmup = sometimes\n", "[s] warmup:")


if __name__ == "__main__":
    hbtest.main()
