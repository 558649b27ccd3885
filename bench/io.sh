#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The io targets against fio doing the same work in the same directory,
# one after the other: sync engine, same block size, file size, direct
# flag and job count. Prints MB/s for each and the ratio hostbench / fio
# (1.00 = as fast as fio), then the filesystem it ran on.
#
# Shared disks are noisy: each line runs ROUNDS times, fio and hostbench
# taking turns to go first, with `sync` before every measurement so one
# tool's dirty pages do not slow the other; the medians are compared.
#
# Buffered reads: hostbench syncs the files it wrote, drops their cached
# pages and drops them again whenever a pass wraps to the start. fio
# invalidates the cache only when it opens a file: its own layout leaves
# dirty pages that cannot be dropped, and a time-based run wraps without
# reopening, so it would reread its files from memory. For that line fio
# lays the files out in a run of its own, then (after sync) reads them
# with loops, which reopen and so invalidate the files every pass.
#
# Usage: bench/io.sh [BUILD_DIR] [DIR] [FILE_SIZE] [SECONDS] [ROUNDS] [LINES]
#   DIR        where the files go (default: a fresh directory in /var/tmp);
#              everything made there is removed at the end
#   FILE_SIZE  per job for the large-file lines (default 1G; 4 jobs)
#   SECONDS    per measurement, fio's runtime (default 10)
#   ROUNDS     measurements per tool and line (default 3)
#   LINES      only the lines whose label contains this text (default: all)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
base=${2:-/var/tmp}
fsize=${3:-1G}
secs=${4:-10}
rounds=${5:-3}
lines=${6:-}
jobs=4

command -v fio >/dev/null || { echo "io.sh: fio not found" >&2; exit 2; }
dir=$(mktemp -d "$base/hostbench-io-bench.XXXXXX")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$dir"' EXIT INT TERM

# fio's aggregate MB/s (10^6 bytes/s) of one job group: fio RW ARGS...
# RW "coldread" reads files laid out beforehand, cold on every pass;
# "coldwrite" writes over them, as hostbench does, from a dropped cache.
fio_mbs() {
	rw=$1
	shift
	set -- --directory="$dir" --ioengine=sync --numjobs=$jobs \
		--group_reporting --name=bench "$@"
	case $rw in
	coldread)
		rw="read"
		fio "$@" --rw=read --create_only=1 >/dev/null
		set -- "$@" --loops=1000000
		;;
	coldwrite)
		rw="write"
		fio "$@" --rw=write --runtime="$secs" --create_only=1 >/dev/null
		set -- "$@" --overwrite=1 --loops=4
		;;
	esac
	sync
	fio --output-format=json --runtime="$secs" --unlink=1 --rw="$rw" \
		"$@" >"$tmp/fio.json"
	python3 - "$tmp/fio.json" "$rw" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
side = "write" if "write" in sys.argv[2] else "read"
print("%.1f" % (doc["jobs"][0][side]["bw_bytes"] / 1e6))
PY
}

# hostbench's median MB/s for one case: hb_mbs TARGET KEY=VALUE...
hb_mbs() {
	target=$1
	shift
	{
		echo "[bench]"
		echo "target = $target"
		echo "dir = $dir"
		echo "parallel = $jobs"
		echo "duration = $((secs / 5 > 0 ? secs / 5 : 1))s"
		echo "repetitions = 4"
		echo "warmup = 1"
		for kv in "$@"; do echo "$kv"; done
	} | sed 's/=/ = /' >"$tmp/hb.ini"
	sync
	"$build/hostbench" run "$tmp/hb.ini" --format json --no-store \
		>"$tmp/hb.json"
	python3 - "$tmp/hb.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
if r["status"] != "ok":
    sys.exit("hostbench: %s: %s" % (r["status"], r.get("reason")))
print("%.1f" % (r["stats"]["median"] / 1e6))
PY
}

# The median of ROUNDS alternating runs of both sides, then the line:
# compare LABEL "FIO ARGS" "HOSTBENCH ARGS"
compare() {
	label=$1
	case $label in *"$lines"*) ;; *) return 0 ;; esac
	: >"$tmp/f"
	: >"$tmp/h"
	for r in $(seq "$rounds"); do
		if [ $((r % 2)) = 1 ]; then
			# shellcheck disable=SC2086
			fio_mbs $2 >>"$tmp/f"
			# shellcheck disable=SC2086
			hb_mbs $3 >>"$tmp/h"
		else
			# shellcheck disable=SC2086
			hb_mbs $3 >>"$tmp/h"
			# shellcheck disable=SC2086
			fio_mbs $2 >>"$tmp/f"
		fi
	done
	python3 - "$label" "$tmp/f" "$tmp/h" <<'PY'
import statistics, sys
label, f, h = sys.argv[1:]
f = [float(x) for x in open(f)]
h = [float(x) for x in open(h)]
mf, mh = statistics.median(f), statistics.median(h)
print("%-36s %9.1f %9.1f %7.2f   fio %s / hb %s" % (
    label, mf, mh, mh / mf, " ".join("%.0f" % x for x in f),
    " ".join("%.0f" % x for x in h)))
PY
}

reported=$(cat /sys/module/page_reporting/parameters/reported_kib 2>/dev/null || echo 0)
printf '%-36s %9s %9s %7s   %s\n' "profile ($jobs jobs, sync engine)" \
	"fio MB/s" "hb MB/s" "hb/fio" "each round"
big="--bs=1M --size=$fsize"
compare "seq write 1M, $fsize/job, direct" \
	"write $big --direct=1 --time_based" \
	"io/seq-write size=1M file_size=$fsize direct=true"
compare "seq read 1M, $fsize/job, direct" \
	"read $big --direct=1 --time_based" \
	"io/seq-read size=1M file_size=$fsize direct=true"
# Buffered writes: the figure includes the flush of what was written and
# starts from a dropped file cache. hostbench (fsync = end, its default)
# flushes and drops at the end of every sample and every pass and then
# writes over its file again. fio does the same: it lays its files out
# in a run of its own, then (after sync) overwrites them in 4 loops, each
# opened with invalidate=1 (the cache dropped) and flushed on close, and
# the last one with end_fsync. The page-cache figure is its own line:
# fio time-based without a flush (a wrap rewrites the cached pages) and
# hostbench with fsync = none.
compare "seq write 1M, $fsize/job, buffered" \
	"coldwrite $big --direct=0 --invalidate=1 --fsync_on_close=1 --end_fsync=1" \
	"io/seq-write size=1M file_size=$fsize direct=false"
compare "seq write 1M, $fsize/job, page cache" \
	"coldwrite $big --direct=0 --invalidate=1 --time_based" \
	"io/seq-write size=1M file_size=$fsize direct=false fsync=none"
compare "seq read 1M, $fsize/job, buffered" \
	"coldread $big --direct=0" \
	"io/seq-read size=1M file_size=$fsize direct=false"
# open-io-close: one file at a time, opened, done whole, closed
small="--bs=4k --filesize=64k --nrfiles=250 --size=16000k --openfiles=1"
small="$small --file_service_type=sequential --direct=1 --time_based"
hbsmall="size=4K file_size=64K files=250 direct=true"
compare "small files write 4K, 64K x250, direct" "write $small" \
	"io/small-files mode=write $hbsmall"
compare "small files read 4K, 64K x250, direct" "read $small" \
	"io/small-files mode=read $hbsmall"

echo
report=/sys/module/page_reporting/parameters/reported_kib
if [ -r "$report" ]; then
	echo "free page reporting: $((($(cat "$report") - reported) / 1048576)) GiB" \
		"of freed memory handed back to the host during this run (page-cache" \
		"figures vary with it: a page touched again must come back first)"
fi
df -hT "$dir" | awk 'NR == 2 { printf "filesystem: %s on %s (%s free), dir %s\n", $2, $1, $5, "'"$dir"'" }'
