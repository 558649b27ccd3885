#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The default host benchmark (hostbench with no arguments) twice, back to
# back: each run's wall time and peak memory (/usr/bin/time -v), the 95%
# interval of each line's median (recomputed from its samples, so a report
# of any version reads alike), then `hostbench compare` of the two runs and
# whether it flagged any case (a false change: nothing changed).
# Usage: bench/default_run.sh [HOSTBENCH] [EXTRA ARGS...]
#   HOSTBENCH defaults to build/hostbench; run it from a directory with
#   1 GiB free (the io lines write their file in the current directory).
#   KEEP=DIR keeps the two reports there (a.json, b.json), e.g. to compare
#   them with another build's `hostbench compare`.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
hb=${1:-$here/../build/hostbench}
[ $# -gt 0 ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A report's lines: samples, median and the half-width of its interval.
widths() {
	python3 - "$1" <<'PY'
import json, math, sys

def ranks(n):
    """1-based ranks of the median's 95% interval (binomial, Conover)."""
    cdf, k = 0.0, 0
    while k < n:
        term = math.comb(n, k) / 2.0 ** n
        if cdf + term > 0.025:
            break
        cdf += term
        k += 1
    lo = max(k, 1)
    return lo, n + 1 - lo

doc = json.load(open(sys.argv[1]))
print("%-34s %7s %12s %8s %s" % ("line", "samples", "median Gbps", "CI95",
                                 "flags"))
for r in doc["results"]:
    label = r["title"] if "title" in r else r["job"]
    if r["status"] != "ok":
        print("%-34s %s" % (label, r["status"]))
        continue
    v = sorted(r["samples"])
    n = len(v)
    lo, hi = ranks(n)
    med = r["stats"]["median"]
    half = max(med - v[lo - 1], v[hi - 1] - med) / med if med else 0
    flags = [k for k, on in r.get("flags", {}).items() if on]
    print("%-34s %7d %12.2f %7.1f%% %s" % (label[:34], n, med * 8 / 1e9,
                                            half * 100, ",".join(flags)))
PY
}

# One run in $tmp: report $1.json, /usr/bin/time's answer in $1.time.
one_run() {
	(cd "$tmp" && /usr/bin/time -v "$hb" "$@" --format json \
		-o "$tmp/$run.json" 2>"$tmp/$run.time" || true)
	wall=$(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$tmp/$run.time")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' \
		"$tmp/$run.time")
	echo "run $run: wall $wall, peak memory $((rss / 1024)) MiB"
	widths "$tmp/$run.json"
	echo
}

run=a one_run "$@"
run=b one_run "$@"
"$hb" compare "$tmp/a.json" "$tmp/b.json" >"$tmp/compare.txt" || true
tail -n 1 "$tmp/compare.txt"
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	cp "$tmp/a.json" "$tmp/b.json" "$KEEP/"
fi
# the verdicts from compare's JSON: a text line may end "(per CPU-s)"
"$hb" compare "$tmp/a.json" "$tmp/b.json" --format json \
	>"$tmp/compare.json" || true
python3 - "$tmp/compare.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
changed = [c for c in doc["cases"] if c["verdict"] in ("regressed", "improved")]
print("cases flagged as changed between the two runs: %d" % len(changed))
for c in changed:
    print("  %s: %s %+.1f%%" % (c["title"], c["verdict"], c["diff"] * 100))
PY
