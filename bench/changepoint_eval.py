#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Quality of the change-point detector (core/history/changepoint.c).

Builds bench/changepoint_cli.c with cc against the detector's sources and
feeds it series on stdin:

- real-like series (trend, seasonality, AR(1) noise and a few level shifts,
  the shifts annotated), scored as TCPDBench scores a method: F1 with a
  margin of 5 points and the covering metric, the start of the series a
  change point for both, averaged over annotators;
- with --tcpd DIR, the Turing Change Point Dataset's univariate series
  (DIR holds its datasets' NAME.json files, or datasets/NAME/NAME.json, and
  annotations.json), scored the same way;
- synthetic series of 200 points at 2% CV under five noise models
  (bimodal, Student's t with 2 dof, 1% outliers, AR(1) 0.5, a gradual drift
  of 10%): steps reported per 1,000 points without a step, and the recall
  of one step of 5, 10 and 20% (found within 5 points).

Usage: bench/changepoint_eval.py [--method pelt|binseg] [--penalty P]
       [--min-change F] [--trials N] [--tcpd DIR] [--seed S]
Prints Markdown tables. python3 and cc only.
"""
import argparse
import glob
import json
import math
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
SOURCES = ["changepoint.c", "changepoint_ttest.c", "robust.c", "segfit.c",
           "cpsearch.c"]
MARGIN = 5
POINTS = 200
CV = 0.02


def build(tmp):
    exe = os.path.join(tmp, "changepoint_cli")
    src = [os.path.join(HERE, "changepoint_cli.c")]
    src += [os.path.join(TOP, "core", "history", s) for s in SOURCES]
    subprocess.run(["cc", "-O2", "-I" + os.path.join(TOP, "core"), "-o", exe]
                   + src + ["-lm"], check=True)
    return exe


def detect(exe, args, series):
    """Steps (indices) and drifts ((start, end)) of each series."""
    text = "".join(" ".join(repr(v) for v in s) + "\n" for s in series)
    out = subprocess.run([exe] + args, input=text, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    if len(out) != len(series):
        sys.exit("changepoint_cli: %d answers for %d series"
                 % (len(out), len(series)))
    steps, drifts = [], []
    for line in out:
        st, dr = [], []
        for tok in line.split():
            if tok.startswith("d"):
                a, b = tok[1:].split("-")
                dr.append((int(a), int(b)))
            else:
                st.append(int(tok))
        steps.append(st)
        drifts.append(dr)
    return steps, drifts


# TCPDBench's metrics (van den Burg and Williams, 2020), as its
# analysis/scripts/metrics.py defines them.
def true_positives(truth, pred, margin=MARGIN):
    pred = set(pred)
    tp = set()
    for tau in truth:
        close = sorted((abs(tau - x), x) for x in pred
                       if abs(tau - x) <= margin)
        if not close:
            continue
        tp.add(tau)
        pred.remove(close[0][1])
    return tp


def f_measure(annotations, pred, margin=MARGIN):
    tks = [set(a) | {0} for a in annotations.values()]
    x = set(pred) | {0}
    tstar = set().union(*tks)
    p = len(true_positives(tstar, x, margin)) / len(x)
    r = sum(len(true_positives(t, x, margin)) / len(t) for t in tks) / len(tks)
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def partition(cps, n):
    bounds = sorted({c for c in cps if 0 < c < n})
    edges = [0] + bounds + [n]
    return [set(range(a, b)) for a, b in zip(edges, edges[1:]) if b > a]


def cover_single(pred_parts, true_parts):
    total = sum(map(len, true_parts))
    c = 0.0
    for r in true_parts:
        c += len(r) * max(len(r & q) / len(r | q) for q in pred_parts)
    return c / total


def covering(annotations, pred, n):
    pp = partition(pred, n)
    cs = [cover_single(pp, partition(a, n)) for a in annotations.values()]
    return sum(cs) / len(cs)


def score(exe, args, cases):
    """Mean F1 and cover of cases [(series, annotations)]; steps only."""
    steps, _ = detect(exe, args, [c[0] for c in cases])
    f1 = [f_measure(a, s) for (x, a), s in zip(cases, steps)]
    cov = [covering(a, s, len(x)) for (x, a), s in zip(cases, steps)]
    return sum(f1) / len(f1), sum(cov) / len(cov), steps


def real_like(rng, count):
    """Series with trend, seasonality, AR(1) noise, 0-3 annotated shifts."""
    cases = []
    for _ in range(count):
        n = rng.randint(100, 600)
        level = 10 ** rng.uniform(1, 6)
        sd = level * rng.uniform(0.005, 0.03)
        slope = rng.choice([0, 1, 1]) * rng.uniform(-0.5, 0.5) * level / n
        season = rng.choice([0, 1]) * rng.uniform(1, 6) * sd
        period = rng.choice([4, 7, 12, 24, 52])
        phi = rng.uniform(0, 0.7)
        k = rng.choice([0, 1, 1, 2, 2, 3])
        at = sorted(rng.sample(range(15, n - 15), k))
        while any(b - a < 15 for a, b in zip(at, at[1:])):
            at = sorted(rng.sample(range(15, n - 15), k))
        shifts = [rng.choice([-1, 1]) * rng.uniform(0.1, 0.35) * level
                  for _ in at]
        e, x = 0.0, []
        for i in range(n):
            e = phi * e + math.sqrt(1 - phi * phi) * rng.gauss(0, sd)
            v = level + slope * i + season * math.sin(2 * math.pi * i / period)
            v += sum(s for a, s in zip(at, shifts) if i >= a)
            x.append(v + e)
        cases.append((x, {"1": at}))
    return cases


def tcpd(root):
    """The univariate series of the Turing Change Point Dataset in root."""
    with open(os.path.join(root, "annotations.json")) as f:
        notes = json.load(f)
    cases = []
    for name in sorted(notes):
        paths = [os.path.join(root, name + ".json"),
                 os.path.join(root, "datasets", name, name + ".json")]
        path = next((p for p in paths if os.path.exists(p)), None)
        if not path:
            continue
        with open(path) as f:
            d = json.load(f)
        if d.get("n_dim", len(d["series"])) != 1:
            continue
        x = [float(v) if v is not None else math.nan
             for v in d["series"][0]["raw"]]
        if any(math.isnan(v) for v in x):
            continue
        cases.append((x, notes[name], name))
    return cases


def noise(rng, model):
    """One point's relative noise under model, scale CV."""
    if model == "bimodal":
        return rng.choice([-1, 1]) * CV + rng.gauss(0, CV / 2)
    if model == "t2":
        return CV * rng.gauss(0, 1) / math.sqrt(rng.gammavariate(1, 2) / 2)
    if model == "outliers":
        if rng.random() < 0.01:
            return rng.choice([-1, 1]) * rng.uniform(0.3, 1.0)
        return rng.gauss(0, CV)
    return rng.gauss(0, CV)


def synthetic(rng, model, step, at, sign):
    x, e = [], 0.0
    for i in range(POINTS):
        if model == "ar1":
            e = 0.5 * e + math.sqrt(0.75) * rng.gauss(0, CV)
            r = e
        else:
            r = noise(rng, model)
        trend = 0.10 * i / POINTS if model == "drift" else 0
        lv = 1 + trend + (sign * step if i >= at else 0)
        x.append(1e9 * lv * (1 + r))
    return x


MODELS = ["bimodal", "t2", "outliers", "ar1", "drift"]


def noise_table(exe, args, rng, trials):
    print("| noise | false alarms / 1,000 points | recall 5% | recall 10% "
          "| recall 20% |")
    print("|---|---|---|---|---|")
    for m in MODELS:
        flat = [synthetic(rng, m, 0, POINTS, 1) for _ in range(trials)]
        steps, _ = detect(exe, args, flat)
        fa = 1000 * sum(map(len, steps)) / (trials * POINTS)
        rec = []
        for size in (0.05, 0.10, 0.20):
            ats = [rng.randint(20, POINTS - 20) for _ in range(trials)]
            xs = [synthetic(rng, m, size, a, rng.choice([-1, 1]))
                  for a in ats]
            steps, _ = detect(exe, args, xs)
            hits = sum(any(abs(s - a) <= MARGIN for s in st)
                       for a, st in zip(ats, steps))
            rec.append(hits / trials)
        print("| %s | %.2f | %.3f | %.3f | %.3f |" % (m, fa, *rec))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--method", default="pelt", choices=["pelt", "binseg"])
    ap.add_argument("--penalty", type=float, default=0)
    ap.add_argument("--min-change", type=float, default=0)
    ap.add_argument("--trials", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tcpd", help="the Turing Change Point Dataset's files")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    args = [a.method, repr(a.penalty), repr(a.min_change)]
    rng = random.Random(a.seed)
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(tmp)
        print("| corpus | series | F1 | cover | F1, no change | "
              "cover, no change |")
        print("|---|---|---|---|---|---|")
        corpora = [("real-like", [c + ("",) for c in real_like(rng, 100)])]
        if a.tcpd:
            corpora.append(("TCPD", tcpd(a.tcpd)))
        for name, cases in corpora:
            pairs = [(x, notes) for x, notes, _ in cases]
            f1, cov, steps = score(exe, args, pairs)
            z1 = sum(f_measure(n, []) for _, n in pairs) / len(pairs)
            zc = sum(covering(n, [], len(x)) for x, n in pairs) / len(pairs)
            print("| %s | %d | %.3f | %.3f | %.3f | %.3f |"
                  % (name, len(pairs), f1, cov, z1, zc))
            if a.verbose:
                for (x, notes, nm), st in zip(cases, steps):
                    print("  %s n=%d found %s f1=%.2f" %
                          (nm, len(x), st, f_measure(notes, st)),
                          file=sys.stderr)
        print()
        noise_table(exe, args, rng, a.trials)


if __name__ == "__main__":
    main()
