#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# What the plugin process model costs: `hostbench list` with a cold and a
# warm registry cache (and with the cache bypassed), and the cost of one
# case in a helper process started by exec (isolate = yes) against the
# same case run in the core (isolate = no) and, given an older build,
# against that build's fork-only child. Prints milliseconds, medians of
# ROUNDS runs.
# Usage: bench/plugins.sh [BUILD_DIR] [ROUNDS] [OLD_BUILD_DIR] [MANY_SO]
#   OLD_BUILD_DIR: a build of hostbench before exec'd workers (optional)
#   MANY_SO: a plugin with many targets, listed cold and warm (optional)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
rounds=${2:-11}
old=${3:-}
many=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# median_ms CMD...: run CMD rounds times, print the median wall time in ms
median_ms() {
	python3 - "$rounds" "$@" <<'PY'
import subprocess, sys, time, statistics
rounds = int(sys.argv[1]); cmd = sys.argv[2:]
times = []
for _ in range(rounds):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    times.append((time.perf_counter() - t) * 1000)
print("%.1f" % statistics.median(times))
PY
}

list_times() { # LABEL [VAR=VALUE...]: the environment of list
	label=$1
	shift
	cold=$(median_ms env "$@" XDG_CACHE_HOME="$tmp/cold" \
		sh -c 'rm -rf "$XDG_CACHE_HOME"; exec "$0" list' \
		"$build/hostbench")
	rm -rf "$tmp/warm"
	env "$@" XDG_CACHE_HOME="$tmp/warm" "$build/hostbench" list >/dev/null
	warm=$(median_ms env "$@" XDG_CACHE_HOME="$tmp/warm" \
		"$build/hostbench" list)
	nocache=$(median_ms env "$@" HOSTBENCH_NO_CACHE=1 \
		"$build/hostbench" list)
	printf '%-28s %10s %10s %10s\n' "$label" "$cold" "$warm" "$nocache"
}

printf '%-28s %10s %10s %10s\n' "hostbench list (ms)" cold warm no-cache
list_times "shipped plugins" HOSTBENCH_PROBE_TIMEOUT=10
if [ -n "$many" ]; then
	mkdir -p "$tmp/many"
	cp "$many" "$tmp/many/"
	chmod 755 "$tmp/many" "$tmp/many/"*
	list_times "+ $(basename "$many")" HOSTBENCH_PLUGIN_PATH="$tmp/many"
fi

# N tiny cases: the run's time over N is the cost of one case.
n=40
cases() { # isolate
	printf '[global]\nduration = 1ms\nrepetitions = 1\nwarmup = 0\n'
	printf 'isolate = %s\n' "$1"
	i=0
	while [ $i -lt $n ]; do
		printf '\n[c%d]\ntarget = mem/read\nsize = 4K\n' $i
		i=$((i + 1))
	done
}
cases yes >"$tmp/yes.ini"
cases no >"$tmp/no.ini"
echo
printf '%-40s %10s\n' "one case (ms, $n cases per run)" median
for iso in yes no; do
	t=$(median_ms "$build/hostbench" run "$tmp/$iso.ini" -f json)
	printf '%-40s %10s\n' "isolate = $iso" \
		"$(python3 -c "print('%.2f' % ($t / $n))")"
done
if [ -n "$old" ]; then
	t=$(median_ms "$old/hostbench" run "$tmp/yes.ini" -f json)
	printf '%-40s %10s\n' "isolate = yes, fork only ($old)" \
		"$(python3 -c "print('%.2f' % ($t / $n))")"
fi
