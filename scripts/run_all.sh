#!/usr/bin/env bash
# The main job: configure, build every stage, run them in order, print the ladder tables.
# Stages that need a GPU say why they were skipped when there is none, and a closing line
# points to the tables measured on one (results/, and ladder.py --from-csv to print them).
#   scripts/run_all.sh [options of scripts/ladder.py, e.g. --m 4096 --n 4096 --k 4096]
# Progress and the build's messages go to stderr (the build's full log to BUILD/run_all.log);
# the tables go to stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=default build_dir=build
# On a machine with a GPU, build for exactly that GPU.
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  preset=native build_dir=build-native
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "== configure and build (preset '$preset', folder $build_dir/) ==" >&2
if ! { cmake --preset "$preset" && cmake --build --preset "$preset" --target stages; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "run_all.sh: the build failed (output above)" >&2
  exit 1
fi
grep -A3 "CMake Warning" "$log" >&2 || true
cp "$log" "$build_dir/run_all.log"
echo "== run every stage in order ==" >&2
python3 scripts/ladder.py --build "$build_dir" "$@"
