#!/usr/bin/env bash
# The shared-memory access patterns of stages 04-12 (04_gpu_shared_tiled/smem_patterns.cu):
# what the simple bank model predicts for each pattern (the program), then Nsight Compute's
# count of shared-load instructions, wavefronts and bank conflicts, as one Markdown table.
#   scripts/smem_patterns.sh [BUILD_DIR] > results/smem_patterns.md
set -euo pipefail
build=${1:-build-native}
program="$build/bin/smem_patterns"
[ -x "$program" ] || { echo "smem_patterns.sh: $program is not built (cmake --build --preset native --target smem_patterns)" >&2; exit 2; }
command -v ncu >/dev/null || { echo "smem_patterns.sh: ncu (Nsight Compute) is not on the PATH" >&2; exit 2; }
predicted=$("$program")
metrics=smsp__inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
counted=$(ncu --clock-control none --csv --metrics "$metrics" "$program" 2>/dev/null)
python3 - "$predicted" "$counted" <<'PY'
import csv, io, sys
predicted, counted = sys.argv[1], sys.argv[2]
rows = [line for line in predicted.splitlines()
        if line.startswith("| ") and not line.startswith("| pattern")]
if '"ID"' not in counted:
    sys.exit("smem_patterns.sh: ncu printed no CSV table (is the GPU's profiler usable here?)")
counts = {}
for record in csv.DictReader(io.StringIO(counted[counted.index('"ID"'):])):
    value = float(record["Metric Value"].replace(",", ""))
    counts.setdefault(int(record["ID"]), {})[record["Metric Name"]] = value
print(predicted.splitlines()[0])
print()
print("| pattern | bytes per warp | predicted wavefronts (busiest bank) "
      "| wavefronts per instruction (ncu) | bank conflicts per instruction (ncu) |")
print("|---|---|---|---|---|")
if len(counts) != len(rows):
    sys.exit(f"smem_patterns.sh: ncu profiled {len(counts)} kernels for {len(rows)} patterns")
for index, row in enumerate(rows):  # one kernel launch per pattern, in the program's order
    launch = counts[index]
    instructions = launch["smsp__inst_executed_op_shared_ld.sum"]
    wavefronts = launch["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]
    conflicts = launch["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]
    print(f"{row.rstrip(' |')} | {wavefronts / instructions:.2f} | {conflicts / instructions:.2f} |")
PY
