#!/usr/bin/env bash
# The main job: configure, build every stage, run them in order, print the ladder tables.
# Stages that need a GPU say why they were skipped when there is none.
#   scripts/run_all.sh [options of scripts/ladder.py, e.g. --m 4096 --n 4096 --k 4096]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=default build_dir=build
# On a machine with a GPU, build for exactly that GPU.
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  preset=native build_dir=build-native
fi
echo "== configure and build (preset '$preset') ==" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cmake --preset "$preset" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
grep -A3 "CMake Warning" "$log" >&2 || true
cmake --build --preset "$preset" --target stages
echo "== run every stage in order ==" >&2
python3 scripts/ladder.py --bin "$build_dir/bin" "$@"
