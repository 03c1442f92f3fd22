#!/usr/bin/env bash
# Rows per second through pg.queue with 1, 2 and 4 workers: a table of
# 100 000 jobs, batches of 100, each job's result inserted in its batch,
# the workers draining the table in separate flow processes. Runs against a
# throwaway cluster (.ci/test-database), or DATABASE_URL when set.
#
#   Benchmarks/queue-throughput.sh [path/to/flow] [rows]
#
# Build flow in release mode first (swift build -c release --product flow).
set -euo pipefail
cd "$(dirname "$0")/.."
flow=${1:-.build/release/flow}
rows=${2:-100000}
[ -x "$flow" ] || { echo "no $flow: swift build -c release --product flow" >&2; exit 2; }

if [ -z "${DATABASE_URL:-}" ]; then
    cluster=$(mktemp -d /tmp/flow-bench-db.XXXXXX)
    trap '.ci/test-database stop "$cluster"' EXIT
    DATABASE_URL=$(.ci/test-database start "$cluster")
    export DATABASE_URL
fi

script=$(mktemp /tmp/flow-queue-bench.XXXXXX.flow)
trap 'rm -f "$script"; [ -n "${cluster:-}" ] && .ci/test-database stop "$cluster"' EXIT
cat > "$script" <<'FLOW'
pg.queue("bench_jobs", batch: 100, drain: true) { job in just((id: job.id, doubled: job.id * 2)) }
  .sink(pg.insert("bench_results"))
FLOW

echo "pg.queue: $rows rows, batches of 100, each job's result committed before its batch is deleted"
for workers in 1 2 4; do
    psql -X -q -d "$DATABASE_URL" -c "SET client_min_messages = warning; DROP TABLE IF EXISTS bench_jobs, bench_results;
        CREATE TABLE bench_jobs (id int PRIMARY KEY); CREATE TABLE bench_results (id int, doubled int);
        INSERT INTO bench_jobs SELECT generate_series(1, $rows)" >/dev/null
    psql -X -q -d "$DATABASE_URL" -c "VACUUM ANALYZE bench_jobs" >/dev/null
    start=$(date +%s.%N)
    pids=()
    for _ in $(seq "$workers"); do "$flow" run "$script" & pids+=($!); done
    for pid in "${pids[@]}"; do wait "$pid"; done
    end=$(date +%s.%N)
    handled=$(psql -X -tA -d "$DATABASE_URL" -c "SELECT count(DISTINCT id) FROM bench_results")
    left=$(psql -X -tA -d "$DATABASE_URL" -c "SELECT count(*) FROM bench_jobs")
    awk -v w="$workers" -v n="$handled" -v l="$left" -v s="$start" -v e="$end" \
        'BEGIN { printf "  %d worker%s  %8.0f rows/s  (%d rows handled, %d left, %.2f s)\n", w, (w == 1 ? " " : "s"), n / (e - s), n, l, e - s }'
done
