#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The results store's costs (docs/history.md): import of 10,000 results
# into SQLite (100 reports of 100 results), the history of one series
# over 10,000 runs, and the database's bytes per result.
#
#   bench/store.sh [build/hostbench]
set -eu
HB=${1:-build/hostbench}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# one short real run gives a genuine report to copy
cat >"$work/s.ini" <<'INI'
[global]
duration = 5ms
repetitions = 3
warmup = 0
[fill]
target = mem/memset
size = 64K
INI
"$HB" run "$work/s.ini" -f json -o "$work/base.json" --no-store

python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
base = json.load(open(os.path.join(work, "base.json")))
one = base["results"][0]
os.makedirs(os.path.join(work, "wide"))
os.makedirs(os.path.join(work, "long"))
for i in range(100):  # 100 reports x 100 cases
    d = json.loads(json.dumps(base))
    d["saved_as"] = i
    d["results"] = []
    for k in range(100):
        r = json.loads(json.dumps(one))
        r["params"]["size"] = 1024 * (k + 1)
        d["results"].append(r)
    json.dump(d, open(os.path.join(work, "wide", f"{i:03}.json"), "w"))
for i in range(10000):  # one series, 10,000 runs
    d = json.loads(json.dumps(base))
    d["saved_as"] = i
    json.dump(d, open(os.path.join(work, "long", f"{i:05}.json"), "w"))
PY

ms() { python3 -c 'import time; print(int(time.time() * 1000))'; }

t0=$(ms)
"$HB" store import "$work"/wide/*.json --store "sqlite:$work/wide.db" 2>/dev/null
t1=$(ms)
echo "import of 10,000 results (100 reports): $((t1 - t0)) ms"
size=$(stat -c %s "$work/wide.db")
wal=$(stat -c %s "$work/wide.db-wal" 2>/dev/null || echo 0)
echo "database bytes per result: $(((size + wal) / 10000)) (with 3 samples each and the whole report)"

find "$work/long" -name '*.json' | sort | xargs "$HB" store import \
	--store "sqlite:$work/long.db" 2>/dev/null
best=999999
for _ in 1 2 3 4 5; do
	t0=$(ms)
	"$HB" history --store "sqlite:$work/long.db" -f json >/dev/null
	t1=$(ms)
	[ $((t1 - t0)) -lt $best ] && best=$((t1 - t0))
done
echo "history of one series over 10,000 runs (json, best of 5): $best ms"
