#!/usr/bin/env bash
# A CSV loaded into PostgreSQL two ways, side by side on the same file and
# the same server: flow (csv.read into pg.copy, COPY FROM STDIN in
# transactions of 10 000 rows) and Python (its csv module, the rows written
# in COPY's text format to psql's COPY FROM STDIN, one transaction; psycopg
# is not installed here, and psql's COPY is the fastest path Python has
# without it). Prints each one's wall-clock time and peak resident memory
# (GNU time's %M: for Python, the largest of python3 and psql), and checks
# both tables hold the same rows. Run it at two sizes to see that flow's
# memory does not grow with the file (demand: the file is read as the
# batches commit).
#
#   Benchmarks/bulk-load.sh [path/to/flow] [megabytes]
#
# Build flow in release mode first (swift build -c release --product flow).
# Runs against a throwaway cluster (.ci/test-database), or DATABASE_URL when set.
set -euo pipefail
cd "$(dirname "$0")/.."
flow=${1:-.build/release/flow}
megabytes=${2:-200}
[ -x "$flow" ] || { echo "no $flow: swift build -c release --product flow" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed to measure peak memory" >&2; exit 2; }

work=$(mktemp -d /tmp/flow-bulk-load.XXXXXX)
cleanup() {
    rm -rf "$work"
    if [ -n "${cluster:-}" ]; then .ci/test-database stop "$cluster"; fi
}
trap cleanup EXIT
if [ -z "${DATABASE_URL:-}" ]; then
    cluster=$(mktemp -d /tmp/flow-bench-db.XXXXXX)
    DATABASE_URL=$(.ci/test-database start "$cluster")
    export DATABASE_URL
fi

csv="$work/orders.csv"
python3 - "$csv" "$megabytes" <<'PY'
import sys
path, megabytes = sys.argv[1], int(sys.argv[2])
target = megabytes * 1_000_000
with open(path, "w", newline="") as out:
    out.write("id,customer,amount,note\n")
    i, size = 0, 0
    while size < target:
        # Quotes, a comma inside quotes, an empty field, as exports have them.
        note = f'"said ""hello"", {i % 97}"' if i % 7 == 0 else ("" if i % 11 == 0 else f"plain note {i}")
        line = f"{i},customer {i % 5000},{i % 100000 / 100:.2f},{note}\n"
        out.write(line)
        size += len(line)
        i += 1
PY
rows=$(($(wc -l < "$csv") - 1))

psql -X -q -d "$DATABASE_URL" -c "SET client_min_messages = warning;
    DROP TABLE IF EXISTS bulk_flow, bulk_python;
    CREATE TABLE bulk_flow (id int, customer text, amount numeric, note text);
    CREATE TABLE bulk_python (LIKE bulk_flow)" >/dev/null

cat > "$work/load.flow" <<'FLOW'
csv.read(args[0], header: true).sink(pg.copy(into: "bulk_flow"))
FLOW

cat > "$work/load.py" <<'PY'
import csv, subprocess, sys
path, url = sys.argv[1], sys.argv[2]
def field(text):
    # COPY's text format: an empty field is an empty string, as csv.read gives it.
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
copy = subprocess.Popen(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url,
                         "-c", "COPY bulk_python (id, customer, amount, note) FROM STDIN"],
                        stdin=subprocess.PIPE, text=True, bufsize=1 << 20)
with open(path, newline="") as source:
    reader = csv.reader(source)
    next(reader)
    for row in reader:
        copy.stdin.write("\t".join(field(f) for f in row) + "\n")
copy.stdin.close()
sys.exit(copy.wait())
PY

measure() {
    local label=$1; shift
    /usr/bin/time -f "%e %M" -o "$work/$label.time" "$@" > "$work/$label.out" 2>&1 || {
        echo "$label failed:" >&2; cat "$work/$label.out" >&2; exit 1; }
    read -r seconds kilobytes < "$work/$label.time"
    printf "  %-8s %8.1f s   peak %5d MB\n" "$label" "$seconds" $((kilobytes / 1024))
}

echo "bulk load: $rows rows, $(($(stat -c %s "$csv") / 1000000)) MB of CSV"
measure flow "$flow" run "$work/load.flow" "$csv"
measure python python3 "$work/load.py" "$csv" "$DATABASE_URL"

flow_rows=$(psql -X -tA -d "$DATABASE_URL" -c "SELECT count(*) FROM bulk_flow")
python_rows=$(psql -X -tA -d "$DATABASE_URL" -c "SELECT count(*) FROM bulk_python")
different=$(psql -X -tA -d "$DATABASE_URL" -c "SELECT count(*) FROM ((TABLE bulk_flow EXCEPT ALL TABLE bulk_python) UNION ALL (TABLE bulk_python EXCEPT ALL TABLE bulk_flow)) d")
echo "  rows: flow $flow_rows, python $python_rows, of $rows; rows that differ: $different"
[ "$flow_rows" = "$rows" ] && [ "$python_rows" = "$rows" ] && [ "$different" = 0 ]
