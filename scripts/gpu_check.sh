#!/usr/bin/env bash
# The GPU check: configure the `native` preset (build-native/, for this machine's GPU),
# build, run every test and the sanitize preset, each stage's benchmarks, the ladder, the
# sweep, the profiles and the SASS, with every log and CSV written to OUT_DIR.
#   scripts/gpu_check.sh OUT_DIR [step ...]
# Steps (default: all, in this order):
#   build test sanitize bench ladder sweep search profile smem sass plot
# Which programs run with which arguments comes from the stage declarations (build-native/
# stages.json). Environment: CMAKE_PREFIX_PATH, where Catch2 is if not under /usr;
# LADDER_COMMIT, the commit a copied tree was made from (default: git's HEAD).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu_check.sh OUT_DIR [step ...]}
shift
steps=${*:-build test sanitize bench ladder sweep search profile smem sass plot}
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=build-native
status=0
# This machine is meant to run the GPU code: no usable GPU (no code for it in the build, too
# old a driver) fails every program and test instead of passing as Skipped.
export LADDER_REQUIRE_GPU=1

step() { echo; echo "=== $1 ($(date -u +%H:%M:%S))"; }
# Runs a command, echoing it; a failure marks the step failed without stopping the others.
run() { echo "\$ $*"; "$@" || { echo "FAILED (exit $?): $*"; step_failed=1; }; }
fail() { echo "FAILED: $1"; status=1; }
wants() { [[ " $steps " == *" $1 "* ]]; }

if wants build; then
  step build
  {
    date -u
    # A copy of a tree may carry an older .git: LADDER_COMMIT names what was copied.
    echo "commit ${LADDER_COMMIT:-$(git rev-parse --verify -q HEAD 2>/dev/null || echo unknown)}"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
    nvcc --version | tail -2
    cmake --version | head -1
    echo "host compiler: $(c++ --version | head -1)"
    echo "host CPU (lscpu):"
    lscpu | grep -E "^(Model name|Socket|Core|Thread|CPU\(s\)|L1d|L2|L3|Flags)" | cut -c1-200
  } >"$out/environment.txt" 2>&1
  cat "$out/environment.txt"
  cmake --preset native >"$out/configure.log" 2>&1 &&
    cmake --build --preset native -j "$(nproc)" >"$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log" "$out/configure.log"; fail build; exit 1; }
  grep -i "warning" "$out/build.log" | head -20
fi

if wants test; then
  step "tests (sanitizers apart)"
  ctest --preset native -j 8 >"$out/ctest.log" 2>&1 || fail ctest
  tail -5 "$out/ctest.log"
  grep -E "Skipped|Not Run|Failed" "$out/ctest.log" | head -20
fi

if wants sanitize; then
  step "compute-sanitizer: memcheck racecheck synccheck initcheck"
  ctest --preset sanitize -V >"$out/sanitizer.log" 2>&1 || fail sanitizers
  grep -E "Test +#[0-9]+: sanitizer|ERROR SUMMARY|RACECHECK SUMMARY|tests passed" "$out/sanitizer.log"
fi

if wants bench; then
  step "benchmarks at the headline sizes"
  step_failed=0
  runs=$(python3 scripts/stages.py "$build" bench) || { fail bench; runs=""; }
  while read -r -a command; do
    [ "${#command[@]}" -gt 0 ] && run "${command[@]}"
  done <<<"$runs" >"$out/bench.txt" 2>&1
  run "$build/bin/mma_peak" >"$out/mma_peak.md" 2>&1  # the ceiling of mma.sync
  [ "$step_failed" -eq 0 ] || fail bench
  cat "$out/bench.txt" "$out/mma_peak.md"
fi

if wants ladder; then
  step "the ladder (run-all) on the article's problem"
  python3 scripts/ladder.py --build "$build" --csv "$out/ladder.csv" >"$out/ladder.md" || fail ladder
  cat "$out/ladder.md"
  step "the ladder at 4096^3 (CPU stages on the article's problem)"
  python3 scripts/ladder.py --build "$build" --m 4096 --n 4096 --k 4096 \
    --csv "$out/ladder_4096.csv" >"$out/ladder_4096.md" || fail ladder_4096
  cat "$out/ladder_4096.md"
fi

if wants sweep; then
  step "size sweep"
  python3 scripts/ladder.py --build "$build" --sweep "$out" || fail sweep
fi

if wants search; then
  step "parameter search"
  python3 scripts/search.py --build "$build" --out "$out" >/dev/null 2>"$out/search.log" || {
    tail -20 "$out/search.log"; fail search; }
  ls "$out"/search_*.md 2>/dev/null
fi

if wants profile; then
  step "Nsight Compute"
  python3 scripts/ncu_profile.py --build "$build" --out "$out/profile.md" 2>"$out/profile.log" || {
    tail -20 "$out/profile.log"; fail profile; }
  cat "$out/profile.md" 2>/dev/null
fi

if wants smem; then
  step "shared-memory access patterns under Nsight Compute"
  python3 scripts/smem_patterns.py --build "$build" >"$out/smem_patterns.md" 2>"$out/smem_patterns.log" || {
    tail -5 "$out/smem_patterns.log"; fail smem; }
  cat "$out/smem_patterns.md"
fi

if wants sass; then
  step "SASS and resource usage"
  step_failed=0
  : >"$out/resource_usage.txt"
  for program in $(python3 scripts/stages.py "$build" gpu); do
    run cuobjdump -sass "$program" >"$out/sass_$(basename "$program").txt" 2>&1
    run cuobjdump -res-usage "$program" >>"$out/resource_usage.txt" 2>&1
  done
  python3 scripts/sass_counts.py "$out"/sass_*_gpu_*.txt >"$out/sass_counts.md" || step_failed=1
  for tile in 16 32; do
    run python3 05_gpu_unrolled/inner_loop_sass.py "$build/bin/05_gpu_unrolled" --tile "$tile"
  done >"$out/sass_05_inner_loops.txt" 2>&1
  [ "$step_failed" -eq 0 ] || fail sass
  cat "$out/sass_05_inner_loops.txt"
  if command -v compute-sanitizer >/dev/null; then
    for dropped in load compute; do
      echo "--- racecheck on 04 with the barrier after the $dropped step removed"
      compute-sanitizer --tool racecheck "$build/bin/04_gpu_shared_tiled" --m 64 --n 64 --k 64 \
        --tile 16 --policy square --drop-sync "$dropped" --reps 1 --warmup 0 2>&1 | tail -8
    done >"$out/racecheck_demo.txt"
    cat "$out/racecheck_demo.txt"
  fi
fi

if wants plot; then
  step plots
  if python3 -c "import matplotlib" 2>/dev/null && [ -f "$out/sweep_gemm.csv" ]; then
    python3 scripts/plot.py --results "$out" || fail plot
  else
    echo "skipped: matplotlib or the sweep CSVs are missing"
  fi
fi

echo
[ "$status" -eq 0 ] && echo "gpu_check: all steps passed" || echo "gpu_check: some steps FAILED"
exit "$status"
