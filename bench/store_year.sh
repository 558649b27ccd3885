#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A year of a lab (docs/history.md): hosts x 40 cases x 365 nightly runs
# stored on SQLite and on PostgreSQL; at each number of hosts in HOSTS,
# the time of the import (each host's year as it is added), the history
# of one series, regressions over every series and the dashboard, and the
# database's bytes per result; then each figure fitted (linear and
# n log n in the hosts) and extrapolated to 50 and 500 hosts. CPU is the
# command's; on PostgreSQL the server's CPU for the import, regressions
# and dashboard is in the last three columns.
#
#   bench/store_year.sh [HOSTS] [build/hostbench] [BACKENDS]
#
# HOSTS: "5 10 25 50" by default; BACKENDS: "sqlite postgresql" (a private
# PostgreSQL server on a Unix socket, as tests/integration/store does).
set -eu
HOSTS=${1:-5 10 25 50}
HB=$(realpath "${2:-build/hostbench}")
BACKENDS=${3:-sqlite postgresql}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
chmod 755 "$work" # the postgres user reaches its socket and data here
pgdata=$work/pgdata
pgsock=$work/pgsock

as_postgres() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
pgbin() {
	ls /usr/lib/postgresql/*/bin/"$1" | sort | tail -1
}
cleanup() {
	[ -f "$pgdata/postmaster.pid" ] &&
		as_postgres "$(pgbin pg_ctl)" -D "$pgdata" -m immediate stop \
			>/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT

pguser=$(id -un)
[ "$(id -u)" = 0 ] && pguser=postgres
case " $BACKENDS " in *" postgresql "*)
	mkdir -p "$pgdata" "$pgsock"
	[ "$(id -u)" = 0 ] && chown postgres: "$pgdata" "$pgsock"
	as_postgres "$(pgbin initdb)" -D "$pgdata" -U "$pguser" -A trust \
		>/dev/null
	as_postgres "$(pgbin pg_ctl)" -D "$pgdata" -w -l "$pgdata/log" \
		-o "-k $pgsock -c listen_addresses=''" start >/dev/null
	;;
esac

url() {
	case $1 in
	sqlite) echo "sqlite:$work/db/year.db" ;;
	postgresql) echo "postgresql://$pguser@/postgres?host=$pgsock" ;;
	esac
}

# CPU milliseconds the PostgreSQL server has spent so far: the
# postmaster's, its live children's and those it has reaped (every
# connection's backend); 0 for SQLite, whose work is the command's own
server_ms() {
	[ "$1" = postgresql ] || {
		echo 0
		return
	}
	pm=$(head -1 "$pgdata/postmaster.pid")
	ticks=$(for p in $pm $(pgrep -P "$pm"); do
		cut -d' ' -f14-17 "/proc/$p/stat" 2>/dev/null
	done | awk -v pm="$pm" '{ n += $1 + $2 } NR == 1 { n += $3 + $4 }
		END { print n }')
	echo $((ticks * 1000 / $(getconf CLK_TCK)))
}

# the database's bytes (tables, their indexes and TOAST; SQLite's WAL)
bytes() {
	case $1 in
	sqlite)
		echo $(($(stat -c %s "$work/db/year.db") + \
			$(stat -c %s "$work/db/year.db-wal" 2>/dev/null || echo 0)))
		;;
	postgresql)
		psql -h "$pgsock" -U "$pguser" -d postgres -At -c "SELECT \
sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n \
ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'"
		;;
	esac
}

timed() {
	python3 "$here/timed.py" "$@"
}

# one short real run gives genuine results to copy
mkdir -m 700 "$work/db"
cat >"$work/base.ini" <<'INI'
[global]
duration = 5ms
repetitions = 3
warmup = 0
[fill]
target = mem/memset
size = 64K
[copy]
target = mem/memcpy
size = 64K
[gcm]
target = crypto/aes-256-gcm
size = 16K
[chacha]
target = crypto/chacha20-poly1305
size = 16K
INI
"$HB" run "$work/base.ini" -f json -o "$work/base.json" --no-store 2>/dev/null

echo "backend hosts results import_wall_ms import_cpu_ms history_wall_ms" \
	"history_cpu_ms regressions_wall_ms regressions_cpu_ms" \
	"dashboard_wall_ms dashboard_cpu_ms bytes_per_result" \
	"import_server_cpu_ms regressions_server_cpu_ms" \
	"dashboard_server_cpu_ms" >"$work/rows"
for b in $BACKENDS; do
	echo 0 0 0 >"$work/import-$b"
done
h=0
for n in $HOSTS; do
	while [ $h -lt "$n" ]; do
		python3 "$here/year_reports.py" "$work/base.json" "$work/g" \
			$h $((h + 1))
		for b in $BACKENDS; do
			s0=$(server_ms $b)
			set -- $(timed sh -c 'find "$1" -name "*.json" | sort |
				xargs "$2" store import --store "$3"' - \
				"$work/g" "$HB" "$(url $b)")
			read -r w c s <"$work/import-$b"
			echo $((w + $1)) $((c + $2)) \
				$((s + $(server_ms $b) - s0)) >"$work/import-$b"
		done
		rm -rf "$work/g"
		h=$((h + 1))
	done
	results=$((n * 365 * 40))
	for b in $BACKENDS; do
		u=$(url $b)
		read -r iw ic is <"$work/import-$b"
		hw=999999 hc=999999
		for _ in 1 2 3; do # best of 3
			set -- $(timed "$HB" history --store "$u" --host lab000 \
				--case fill-00 -f json)
			[ "$1" -lt $hw ] && hw=$1
			[ "$2" -lt $hc ] && hc=$2
		done
		s0=$(server_ms $b)
		set -- $(timed "$HB" regressions --store "$u" -f json)
		rw=$1 rc=$2 rs=$(($(server_ms $b) - s0))
		s0=$(server_ms $b)
		set -- $(timed "$HB" dashboard --store "$u" -o "$work/dash")
		rm -rf "$work/dash"
		row="$b $n $results $iw $ic $hw $hc $rw $rc $1 $2"
		row="$row $(($(bytes $b) / results))"
		row="$row $is $rs $(($(server_ms $b) - s0))"
		echo "$row" | tee -a "$work/rows"
	done
done

python3 - "$work/rows" <<'PY'
import math, sys

rows = [ln.split() for ln in open(sys.argv[1])]
head, rows = rows[0], rows[1:]


def fit(xs, ys, g):
    """Least squares y = a + b g(x); the sum of squared residuals."""
    gs = [g(x) for x in xs]
    n, mg, my = len(xs), sum(gs) / len(xs), sum(ys) / len(ys)
    var = sum((v - mg) ** 2 for v in gs)
    b = sum((v - mg) * (y - my) for v, y in zip(gs, ys)) / var if var else 0
    a = my - b * mg
    return a, b, sum((y - a - b * v) ** 2 for v, y in zip(gs, ys))


shapes = {"n": lambda n: n, "n log n": lambda n: n * math.log(n)}
print("\nfitted in the hosts n (CPU ms; the better fit first):")
for backend in sorted({r[0] for r in rows}):
    mine = [r for r in rows if r[0] == backend]
    if len(mine) < 2:
        continue
    xs = [int(r[1]) for r in mine]
    for col in (4, 6, 8, 10):
        ys = [int(r[col]) for r in mine]
        fits = sorted((fit(xs, ys, g)[2], s, fit(xs, ys, g))
                      for s, g in shapes.items())
        out = []
        for _, s, (a, b, _) in fits:
            g = shapes[s]
            out.append(f"{s}: {(a + b * g(50)) / 1000:.1f} s at 50, "
                       f"{(a + b * g(500)) / 1000:.1f} s at 500")
        print(f"  {backend} {head[col]}: " + "; ".join(out))
PY
