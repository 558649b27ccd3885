#!/bin/sh
# The io targets against fio doing the same work in the same directory,
# one after the other: sync engine, same block size, file size, direct
# flag and job count. Prints MB/s for each and the ratio hostbench / fio
# (1.00 = as fast as fio), then the filesystem it ran on.
#
# Usage: bench/io.sh [BUILD_DIR] [DIR] [FILE_SIZE] [SECONDS]
#   DIR        where the files go (default: a fresh directory in /var/tmp);
#              everything made there is removed at the end
#   FILE_SIZE  per job for the large-file lines (default 1G; 4 jobs)
#   SECONDS    per measurement, fio's runtime (default 10)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
base=${2:-/var/tmp}
fsize=${3:-1G}
secs=${4:-10}
jobs=4

command -v fio >/dev/null || { echo "io.sh: fio not found" >&2; exit 2; }
dir=$(mktemp -d "$base/hostbench-io-bench.XXXXXX")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$dir"' EXIT INT TERM

# fio's aggregate MB/s (10^6 bytes/s) of one job group: fio RW ARGS...
fio_mbs() {
	rw=$1
	shift
	fio --output-format=json --directory="$dir" --ioengine=sync \
		--numjobs=$jobs --group_reporting --time_based \
		--runtime="$secs" --unlink=1 --name=bench --rw="$rw" "$@" \
		>"$tmp/fio.json"
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
	"$build/hostbench" run "$tmp/hb.ini" --format json >"$tmp/hb.json"
	python3 - "$tmp/hb.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
if r["status"] != "ok":
    sys.exit("hostbench: %s: %s" % (r["status"], r.get("reason")))
print("%.1f" % (r["stats"]["median"] / 1e6))
PY
}

line() {
	python3 -c "import sys; n, f, h = sys.argv[1:]; \
print('%-34s %10s %10s %8.2f' % (n, f, h, float(h) / float(f)))" "$@"
}

printf '%-34s %10s %10s %8s\n' "profile ($jobs jobs)" "fio MB/s" \
	"hb MB/s" "hb/fio"
for direct in 1 0; do
	flag=$([ $direct = 1 ] && echo true || echo false)
	label=$([ $direct = 1 ] && echo direct || echo buffered)
	f=$(fio_mbs write --bs=1M --size="$fsize" --direct=$direct)
	h=$(hb_mbs io/seq-write size=1M file_size="$fsize" direct=$flag)
	line "seq write 1M, $fsize, $label" "$f" "$h"
	f=$(fio_mbs read --bs=1M --size="$fsize" --direct=$direct)
	h=$(hb_mbs io/seq-read size=1M file_size="$fsize" direct=$flag)
	line "seq read 1M, $fsize, $label" "$f" "$h"
done
# open-io-close: one file at a time, opened, done whole, closed
small="--bs=4k --filesize=64k --nrfiles=250 --size=16000k --openfiles=1"
small="$small --file_service_type=sequential --direct=1"
# shellcheck disable=SC2086
f=$(fio_mbs write $small)
h=$(hb_mbs io/small-files mode=write size=4K file_size=64K files=250 \
	direct=true)
line "small files write 4K, 64K x250, direct" "$f" "$h"
# shellcheck disable=SC2086
f=$(fio_mbs read $small)
h=$(hb_mbs io/small-files mode=read size=4K file_size=64K files=250 \
	direct=true)
line "small files read 4K, 64K x250, direct" "$f" "$h"

echo
df -hT "$dir" | awk 'NR == 2 { printf "filesystem: %s on %s (%s free), dir %s\n", $2, $1, $5, "'"$dir"'" }'
