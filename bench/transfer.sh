#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# transfer/tcp against iperf3, and transfer/tls against the cipher's own
# speed. iperf3 (server bound to 127.0.0.1, stopped by its PID) and
# hostbench take turns, ROUNDS times, one stream then two, and are
# compared: hostbench / iperf3 (1.00 = as fast as iperf3). iperf3 3.12 runs
# all its streams in one thread, hostbench one thread per stream, so above
# one stream hostbench may pass it. Each column is the best of the ROUNDS
# runs (for hostbench: of its per-run medians), as bench/crypto.sh does,
# since on a shared machine other work only ever slows a run down. Then
# transfer/tls with TLS_AES_256_GCM_SHA384 against `openssl speed -evp
# aes-256-gcm` on 16 KiB blocks (one TLS record), timed on the wall clock
# (-elapsed): the share of the cipher's speed that reaches the wire.
#
# Usage: bench/transfer.sh [BUILD_DIR] [SECONDS] [ROUNDS]
#   SECONDS  per measurement (default 5)
#   ROUNDS   turns of each tool (default 3)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
secs=${2:-5}
rounds=${3:-3}

case $secs in
''|*[!0-9]*|0) echo "transfer.sh: SECONDS must be a whole number >= 1" >&2; exit 2 ;;
esac
command -v iperf3 >/dev/null || { echo "transfer.sh: iperf3 not found" >&2; exit 2; }
tmp=$(mktemp -d)
iperf_pid=
cleanup() {
	if [ -n "$iperf_pid" ]; then
		kill "$iperf_pid" 2>/dev/null || true
		wait "$iperf_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap "exit 130" INT TERM

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
iperf3 -s -B 127.0.0.1 -p "$port" >"$tmp/iperf-server.log" 2>&1 &
iperf_pid=$!
sleep 0.5

# iperf3's received Gbit/s with P streams: iperf_gbps P
iperf_gbps() {
	iperf3 -c 127.0.0.1 -p "$port" -t "$secs" -P "$1" -J >"$tmp/iperf.json"
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["end"]["sum_received"]
print("%.2f" % (d["bits_per_second"] / 1e9))' "$tmp/iperf.json"
}

# hostbench's median Gbit/s for one case: hb_gbps TARGET KEY=VALUE...
hb_gbps() {
	target=$1
	shift
	{
		echo "[bench]"
		echo "target = $target"
		echo "duration = $(python3 -c "print(max(0.2, $secs / 5))")s"
		echo "repetitions = 5"
		echo "warmup = 1"
		for kv in "$@"; do echo "$kv"; done
	} | sed 's/=/ = /' >"$tmp/hb.ini"
	"$build/hostbench" run "$tmp/hb.ini" --format json >"$tmp/hb.json"
	python3 - "$tmp/hb.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
if r["status"] != "ok":
    sys.exit("hostbench: %s: %s" % (r["status"], r.get("reason")))
print("%.2f" % (r["stats"]["median"] * 8 / 1e9))
PY
}

best() {
	python3 -c 'import sys
print("%.2f" % max(float(x) for x in sys.argv[1:]))' "$@"
}

row() {
	python3 -c 'import sys
n, a, b = sys.argv[1:]
print("%-32s %12s %12s %8.2f" % (n, a, b, float(b) / float(a)))' "$@"
}

printf '%-32s %12s %12s %8s\n' "loopback, 128 KiB sends" "iperf3 Gbps" \
	"hb Gbps" "hb/iperf"
for streams in 1 2; do
	ip=""
	hb=""
	for _ in $(seq "$rounds"); do
		ip="$ip $(iperf_gbps "$streams")"
		hb="$hb $(hb_gbps transfer/tcp parallel="$streams")"
	done
	row "tcp, $streams stream(s)" "$(best $ip)" "$(best $hb)"
done

speed=$(openssl speed -elapsed -evp aes-256-gcm -bytes 16384 \
	-seconds "$secs" 2>/dev/null | awk '/^AES-256-GCM/ { sub("k", "", $2); print $2 }')
ossl=$(python3 -c "print('%.2f' % (float('$speed') * 1000 * 8 / 1e9))")
tls=""
for _ in $(seq "$rounds"); do
	tls="$tls $(hb_gbps transfer/tls cipher=TLS_AES_256_GCM_SHA384)"
done
printf '\n%-32s %12s %12s %8s\n' "AES-256-GCM" "speed Gbps" "tls Gbps" \
	"tls/speed"
row "openssl speed 16K vs tls, 1" "$ossl" "$(best $tls)"
