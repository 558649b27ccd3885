# SPDX-License-Identifier: Apache-2.0
"""A year of a lab's nightly reports, derived from one real report.

    year_reports.py BASE.json OUTDIR FIRST_HOST LAST_HOST [NIGHTS] [CASES]

Writes OUTDIR/hHHH-DDD.json for hosts FIRST_HOST..LAST_HOST - 1 and nights
0..NIGHTS - 1 (365): each a report of CASES (40) results, made from the
real results of BASE.json (its jobs in turn, each at sizes 1, 2, 4, ...
times its own). Each host x case has its own level; each night's figure is
that level times 1 + N(0, 1%), every figure of the result scaled with it
(samples, statistics, work per second; the seconds of each sample by the
inverse), so a report compresses as a real one does. Seeded by host:
every second host gets a kernel upgrade (a new context) at night 180, and
one series in 50 a 10% regression at a night of its own.
"""
import datetime
import json
import os
import random
import sys
import uuid

SCALED = ("median", "min", "max", "mean", "stddev", "p25", "p75",
          "ci95_low", "ci95_high")
INVERSE = ("cpu_seconds_per_gb", "cycles_per_byte")
T0 = datetime.datetime(2026, 1, 1, 2, 0, tzinfo=datetime.timezone.utc)


def size_text(n):
    for unit, div in (("M", 1 << 20), ("K", 1 << 10)):
        if n % div == 0:
            return f"{n // div}{unit}"
    return str(n)


def cases(base, n):
    """n case templates: base's results in turn, each at a larger size."""
    out = []
    real = [r for r in base["results"] if r["status"] == "ok"]
    for k in range(n):
        r = json.loads(json.dumps(real[k % len(real)]))
        size = r["params"]["size"] << (k // len(real))
        r["params"]["size"] = size
        r["case"]["params"]["size"] = size_text(size)
        r["job"] = r["title"] = r["case"]["title"] = f"{r['job']}-{k:02}"
        out.append(r)
    return out


def scaled(r, f, t):
    """Template r with every figure times f, its samples started at t."""
    s = dict(r)
    for key in ("stats", "ops_stats"):
        s[key] = {k: v * f if k in SCALED and v is not None else v
                  for k, v in r[key].items()}
    s["samples"] = [v * f for v in r["samples"]]
    s["sample_details"] = []
    for i, d in enumerate(r["sample_details"]):
        d = dict(d)
        d["seconds"] /= f
        d["start"] = t + i * 0.05
        s["sample_details"].append(d)
    s["bytes_per_cpu_second"] = r["bytes_per_cpu_second"] * f
    for key in INVERSE:
        s[key] = r[key] / f if r.get(key) else r.get(key)
    return s


def host_year(base, templates, out, h, nights):
    rnd = random.Random(h)
    level = [rnd.uniform(0.5, 2.0) for _ in templates]
    step = [rnd.randrange(30, nights) if rnd.random() < 0.02 else nights
            for _ in templates]
    doc = json.loads(json.dumps(base))
    doc["system"]["hostname"] = f"lab{h:03}"
    kernel = doc["system"]["kernel"]
    for night in range(nights):
        t = T0 + datetime.timedelta(days=night, seconds=rnd.randrange(600))
        doc["run"]["uuid"] = str(uuid.UUID(int=(h << 20) + night + 1))
        doc["run"]["started"] = t.strftime("%Y-%m-%dT%H:%M:%S.000Z")
        doc["run"]["ended"] = (t + datetime.timedelta(minutes=20)).strftime(
            "%Y-%m-%dT%H:%M:%S.000Z")
        doc["run"]["label"] = "nightly"
        if h % 2 == 0 and night >= 180:
            doc["system"]["kernel"] = kernel + " (upgraded)"
        start = 1000.0 + night * 86400 + rnd.random()
        doc["results"] = [
            scaled(r, level[k] * (0.9 if night >= step[k] else 1.0) *
                   rnd.gauss(1.0, 0.01), start + 10 * k)
            for k, r in enumerate(templates)]
        with open(os.path.join(out, f"h{h:03}-{night:03}.json"), "w") as f:
            json.dump(doc, f, separators=(",", ":"))


def main():
    base_path, out, first, last = sys.argv[1:5]
    nights = int(sys.argv[5]) if len(sys.argv) > 5 else 365
    ncases = int(sys.argv[6]) if len(sys.argv) > 6 else 40
    with open(base_path) as f:
        base = json.load(f)
    templates = cases(base, ncases)
    os.makedirs(out, exist_ok=True)
    for h in range(int(first), int(last)):
        host_year(base, templates, out, h, nights)


if __name__ == "__main__":
    main()
