#!/bin/sh
# `flow check` of a 100 000-line script of operator chains (four shapes of
# line, 25 000 of each): prints the seconds and the peak memory.
#
#   sh Benchmarks/compile-time.sh
set -e
script="${TMPDIR:-/tmp}/flow-100k-lines.flow"
awk 'BEGIN {
  for (i = 0; i < 25000; i++) {
    printf "let a%d = cold(\"-a-b-c|\").map { $0 + \"%d\" }.filter { $0 != \"x\" }\n", i, i
    printf "let b%d = cold(\"-1-2-3|\", a: 1).scan(0) { $0 + $1 }.debounce(2ms)\n", i
    printf "let c%d = a%d.merge(cold(\"--z|\")).take(3)\n", i, i
    printf "let d%d = cold(\"-x-y|\").flatMap { x in just(x).delay(1ms) }\n", i
  }
}' > "$script"
swift build -c release --product flow >/dev/null
for run in 1 2 3; do
  /usr/bin/time -f "%e s, %M KB peak" .build/release/flow check "$script"
done
