#!/usr/bin/env bash
# Regenerates NN-name.expected (stdout) beside each NN-name.swift in this folder.
#
#   plain programs:   swiftc -D DEBUG (as a debug build / `swift run` defines DEBUG), run, stdout kept
#   Combine programs: (those with a line `import Combine`) the import is swapped for
#                     `import OpenCombine` (and OpenCombineFoundation, for the coders); all are built as executable targets of one throwaway
#                     SwiftPM package in a temp folder that depends on OpenCombine 0.14.0, then run.
#
# Usage: ./regenerate.sh [NN-name.swift ...]   (default: every program)
# Env:   COMBINE_BUILD_DIR=DIR  keep/reuse the Combine package there (saves rebuilding OpenCombine)
#        JOBS=N                 parallel swiftc jobs for the plain programs (default 1)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
jobs="${JOBS:-1}"

if [ $# -gt 0 ]; then files=("$@"); else files=([0-9]*.swift); fi
plain=(); combine=()
for f in "${files[@]}"; do
  f="$(basename "$f")"
  if grep -q '^import Combine$' "$f"; then combine+=("$f"); else plain+=("$f"); fi
done

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"; rm -f "$here"/_tmp_*.lock' EXIT
failed=0

run_plain() {  # $1 = file, $2 = tmp dir
  local f="$1" name="${1%.swift}" bin="$2/${1%.swift}"
  if ! swiftc -D DEBUG -module-name main -o "$bin" "$f" 2>"$2/$name.compile.log"; then
    echo "COMPILE ERROR: $f"; cat "$2/$name.compile.log"; return 1
  fi
  if ! "$bin" >"$name.expected" 2>"$2/$name.run.log"; then
    echo "RUN FAILED (exit $?): $f"; cat "$2/$name.run.log"; return 1
  fi
  echo "ok   $f"
}
export -f run_plain

if [ ${#plain[@]} -gt 0 ]; then
  printf '%s\n' "${plain[@]}" | xargs -P "$jobs" -I{} bash -c 'run_plain "$@"' _ {} "$tmp" || failed=1
fi

if [ ${#combine[@]} -gt 0 ]; then
  pkg="${COMBINE_BUILD_DIR:-$tmp/combine}"
  mkdir -p "$pkg/Sources"
  targets=""
  for f in "${combine[@]}"; do
    t="p${f%%-*}"                                   # 80-foo.swift -> target p80
    mkdir -p "$pkg/Sources/$t"
    # OpenCombineFoundation gives Foundation's coders Combine's TopLevelDecoder/Encoder.
    sed 's/^import Combine$/import OpenCombine\nimport OpenCombineFoundation/' "$f" >"$pkg/Sources/$t/main.swift"
    targets="$targets        .executableTarget(name: \"$t\", dependencies: [\"OpenCombine\", .product(name: \"OpenCombineFoundation\", package: \"OpenCombine\")]),
"
  done
  cat >"$pkg/Package.swift" <<PKG
// swift-tools-version:5.9
import PackageDescription
let package = Package(
    name: "OracleCombine",
    dependencies: [
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
$targets    ]
)
PKG
  echo "building ${#combine[@]} Combine programs against OpenCombine in $pkg ..."
  if ! (cd "$pkg" && swift build -j "${JOBS:-2}" >"$tmp/combine-build.log" 2>&1); then
    echo "COMPILE ERROR: Combine package"; tail -50 "$tmp/combine-build.log"; failed=1
  else
    for f in "${combine[@]}"; do
      t="p${f%%-*}"; name="${f%.swift}"
      if "$pkg/.build/debug/$t" >"$name.expected" 2>"$tmp/$name.run.log"; then
        echo "ok   $f (OpenCombine)"
      else
        echo "RUN FAILED: $f"; cat "$tmp/$name.run.log"; failed=1
      fi
    done
  fi
fi
exit $failed
