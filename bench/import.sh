#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The importers' costs (docs/interop.md, "Import"): one fio JSON of
# 10,000 job results and one openssl speed -mr file of 10,000 result
# lines, each imported into a new SQLite store; prints each one's wall
# and CPU seconds and the runs and results stored. Goal: under 2 s of
# CPU each. The files are made from one real run of each tool when it is
# installed (fio, openssl), else from their documented shapes.
#
#   bench/import.sh [build/hostbench]
set -eu
HB=${1:-build/hostbench}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# one genuine run of each gives the shape to copy
if command -v fio >/dev/null 2>&1; then
	fio --name=one --directory="$work" --rw=randread --bs=4k --size=1M \
		--ioengine=psync --output-format=json \
		--output="$work/fio-one.json" >/dev/null 2>&1 || true
fi
if command -v openssl >/dev/null 2>&1; then
	openssl speed -mr -seconds 1 -evp aes-128-gcm \
		>"$work/openssl-one.txt" 2>/dev/null || true
fi

python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
one = os.path.join(work, "fio-one.json")
if os.path.exists(one) and os.path.getsize(one):
    base = json.load(open(one))
else:  # fio's json shape, one read job
    lat = {"min": 1000, "max": 9000, "mean": 2000.0, "stddev": 10.0, "N": 100,
           "percentile": {"50.000000": 1900, "90.000000": 2500,
                          "99.000000": 4000, "99.900000": 8000}}
    d = {"io_bytes": 409600, "bw_bytes": 40960000, "bw": 40000,
         "iops": 10000.0, "runtime": 10, "total_ios": 100,
         "clat_ns": lat, "lat_ns": dict(lat)}
    idle = {"io_bytes": 0, "bw": 0, "iops": 0.0, "runtime": 0, "total_ios": 0}
    base = {"fio version": "fio-3.33", "timestamp": 1767225600,
            "timestamp_ms": 1767225600000,
            "jobs": [{"jobname": "one", "error": 0, "elapsed": 1,
                      "job options": {"rw": "randread", "bs": "4k"},
                      "read": d, "write": idle, "trim": idle}]}
job = base["jobs"][0]
jobs = []
for i in range(10000):
    j = json.loads(json.dumps(job))
    j["jobname"] = "job-%05d" % i
    j["job options"]["name"] = j["jobname"]
    jobs.append(j)
base["jobs"] = jobs
json.dump(base, open(os.path.join(work, "fio-10000.json"), "w"), indent=2)

sizes = "16:64:256:1024:8192:16384"
values = ":".join(["100000000.00"] * 6)
for line in open(os.path.join(work, "openssl-one.txt"), errors="replace") \
        if os.path.exists(os.path.join(work, "openssl-one.txt")) else []:
    if line.startswith("+F:"):
        values = line.strip().split(":", 3)[3]
    if line.startswith("+H:"):
        sizes = line.strip()[3:]
with open(os.path.join(work, "openssl-10000.txt"), "w") as f:
    f.write("+H:%s\n" % sizes)
    for i in range(10000):
        f.write("+F:%d:alg-%05d:%s\n" % (i, i, values))
PY

# "WALL CPU" milliseconds of a command (bench/timed.py)
timed() {
	python3 "$(dirname "$0")/timed.py" "$@"
}

for what in fio-10000.json openssl-10000.txt; do
	case $what in
	fio*) from=fio ;;
	*) from=openssl-speed ;;
	esac
	db="$work/$what.db"
	t=$(timed "$HB" store import --from "$from" --host lab-1 \
		--tool-version 3.0.19 --store "sqlite:$db" "$work/$what")
	results=$(python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(c.execute("select count(*) from result").fetchone()[0])' "$db")
	echo "$what: $results results stored: ${t% *} ms wall, ${t#* } ms CPU (goal < 2000 ms CPU)"
done
