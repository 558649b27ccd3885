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
import datetime, json, os, sys, uuid
work = sys.argv[1]
base = json.load(open(os.path.join(work, "base.json")))
one = base["results"][0]
t0 = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


def as_run(d, i):
    """A run of its own: a run is stored once, by its uuid."""
    d["run"]["uuid"] = str(uuid.UUID(int=i + 1))
    t = t0 + datetime.timedelta(minutes=i)
    d["run"]["started"] = t.strftime("%Y-%m-%dT%H:%M:%S.000Z")

os.makedirs(os.path.join(work, "wide"))
os.makedirs(os.path.join(work, "long"))
for i in range(100):  # 100 reports x 100 cases
    d = json.loads(json.dumps(base))
    as_run(d, i)
    d["results"] = []
    for k in range(100):
        r = json.loads(json.dumps(one))
        r["params"]["size"] = 1024 * (k + 1)
        d["results"].append(r)
    json.dump(d, open(os.path.join(work, "wide", f"{i:03}.json"), "w"))
for i in range(10000):  # one series, 10,000 runs
    d = json.loads(json.dumps(base))
    as_run(d, i)
    json.dump(d, open(os.path.join(work, "long", f"{i:05}.json"), "w"))
PY

# "WALL CPU" milliseconds of a command (bench/timed.py)
timed() {
	python3 "$(dirname "$0")/timed.py" "$@"
}

set -- $(timed "$HB" store import "$work"/wide/*.json \
	--store "sqlite:$work/wide.db")
echo "import of 10,000 results (100 reports): $1 ms wall, $2 ms CPU"
size=$(stat -c %s "$work/wide.db")
wal=$(stat -c %s "$work/wide.db-wal" 2>/dev/null || echo 0)
echo "database bytes per result: $(((size + wal) / 10000)) (with 3 samples each and the whole report)"

find "$work/long" -name '*.json' | sort | xargs "$HB" store import \
	--store "sqlite:$work/long.db" 2>/dev/null
best=999999
best_cpu=999999
for _ in 1 2 3 4 5; do
	set -- $(timed "$HB" history --store "sqlite:$work/long.db" -f json)
	[ "$1" -lt $best ] && best=$1
	[ "$2" -lt $best_cpu ] && best_cpu=$2
done
echo "history of one series over 10,000 runs (json, best of 5): $best ms wall, $best_cpu ms CPU"
