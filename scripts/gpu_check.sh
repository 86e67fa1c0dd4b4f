#!/usr/bin/env bash
# The GPU check: configure for the card, build, run every test (sanitizers included), the
# stages' benchmarks, the ladder, the sweep, the profiles and the SASS, with every log and
# CSV written to OUT_DIR.
#   scripts/gpu_check.sh OUT_DIR [step ...]
# Steps (default: all, in this order): build test sanitize bench ladder sweep profile sass plot
# Environment: CUDA_ARCH (default native), CMAKE_PREFIX_PATH (where Catch2 is, if not in /usr).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu_check.sh OUT_DIR [step ...]}
shift
steps=${*:-build test sanitize bench ladder sweep profile sass plot}
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=build-gpu
bin=$build/bin
status=0

step() { echo; echo "=== $1 ($(date -u +%H:%M:%S))"; }
# Runs a command, echoing it; a failure marks the step failed without stopping the others.
run() { echo "\$ $*"; "$@" || { echo "FAILED (exit $?): $*"; step_failed=1; }; }
fail() { echo "FAILED: $1"; status=1; }
wants() { [[ " $steps " == *" $1 "* ]]; }

if wants build; then
  step build
  {
    date -u
    echo "commit $(git rev-parse --verify -q HEAD 2>/dev/null || echo unknown: not a git checkout)"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
    nvcc --version | tail -2
    cmake --version | head -1
  } >"$out/environment.txt" 2>&1
  cat "$out/environment.txt"
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-native}" >"$out/configure.log" 2>&1 &&
    cmake --build "$build" -j "$(nproc)" >"$out/build.log" 2>&1 || { tail -40 "$out/build.log" "$out/configure.log"; fail build; exit 1; }
  grep -i "warning" "$out/build.log" | head -20
fi

if wants test; then
  step "tests (sanitizers apart)"
  ctest --test-dir "$build" -LE sanitizer -j 8 --output-on-failure >"$out/ctest.log" 2>&1 || fail ctest
  tail -5 "$out/ctest.log"
  grep -E "Skipped|Not Run|Failed" "$out/ctest.log" | head -20
fi

if wants sanitize; then
  step "compute-sanitizer: memcheck racecheck synccheck initcheck"
  ctest --test-dir "$build" -L sanitizer -j 4 -V --no-tests=error >"$out/sanitizer.log" 2>&1 ||
    fail sanitizers
  grep -E "Test +#[0-9]+: sanitizer|ERROR SUMMARY|RACECHECK SUMMARY|tests passed" "$out/sanitizer.log"
fi

if wants bench; then
  step "benchmarks at the headline sizes"
  big=(--m 4096 --n 4096 --k 4096)
  step_failed=0
  {
    run "$bin/03_gpu_naive" "${big[@]}" --block 16
    run "$bin/03_gpu_naive" "${big[@]}" --block 32
    for tile in 8 16 32; do run "$bin/04_gpu_shared_tiled" "${big[@]}" --tile "$tile"; done
    for tile in 16 32; do run "$bin/05_gpu_unrolled" "${big[@]}" --tile "$tile"; done
    for stage in 06_transpose_naive 07_transpose_shared 08_transpose_padded; do
      for tile in 32 16; do run "$bin/$stage" --rows 8192 --cols 8192 --tile "$tile"; done
    done
    run "$bin/08_transpose_padded" --rows 8192 --cols 8192 --layout four --overlap --bands 8
  } >"$out/bench.txt" 2>&1
  [ "$step_failed" -eq 0 ] || fail bench
  cat "$out/bench.txt"
fi

if wants ladder; then
  step "the ladder (run-all) on the article's problem"
  python3 scripts/ladder.py --bin "$bin" --csv "$out/ladder.csv" >"$out/ladder.md" || fail ladder
  cat "$out/ladder.md"
  step "the ladder at 4096^3 (CPU stages on the article's problem)"
  python3 scripts/ladder.py --bin "$bin" --m 4096 --n 4096 --k 4096 \
    --csv "$out/ladder_4096.csv" >"$out/ladder_4096.md" || fail ladder_4096
  cat "$out/ladder_4096.md"
fi

if wants sweep; then
  step "size sweep"
  python3 scripts/ladder.py --bin "$bin" --sweep "$out" || fail sweep
fi

if wants profile; then
  step "Nsight Compute"
  python3 scripts/profile.py --bin "$bin" --out "$out/profile.md" 2>"$out/profile.log" || {
    tail -20 "$out/profile.log"; fail profile; }
  cat "$out/profile.md" 2>/dev/null
fi

if wants sass; then
  step "SASS and resource usage"
  step_failed=0
  for stage in 03_gpu_naive 04_gpu_shared_tiled 05_gpu_unrolled 07_transpose_shared 08_transpose_padded; do
    run cuobjdump -sass "$bin/$stage" >"$out/sass_$stage.txt" 2>&1
    run cuobjdump -res-usage "$bin/$stage" >>"$out/resource_usage.txt" 2>&1
  done
  for tile in 16 32; do
    run python3 05_gpu_unrolled/inner_loop_sass.py "$bin/05_gpu_unrolled" --tile "$tile"
  done >"$out/sass_05_inner_loops.txt" 2>&1
  [ "$step_failed" -eq 0 ] || fail sass
  cat "$out/sass_05_inner_loops.txt"
  if command -v compute-sanitizer >/dev/null; then
    for dropped in load compute; do
      echo "--- racecheck on 04 with the barrier after the $dropped step removed"
      compute-sanitizer --tool racecheck "$bin/04_gpu_shared_tiled" --m 64 --n 64 --k 64 \
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
