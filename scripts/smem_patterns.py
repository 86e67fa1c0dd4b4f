#!/usr/bin/env python3
"""The load patterns of the FP32 shared-memory stages (scripts/smem_patterns.cu):
what the simple bank model predicts for each pattern (the program's own table), then Nsight
Compute's count of shared-load instructions, wavefronts and bank conflicts, as one Markdown
table. The program runs one kernel per pattern, in the order of its table.

  python3 scripts/smem_patterns.py [--build build-native] > results/smem_patterns.md

Exit codes: 0 done; 1 the program or ncu failed; 2 the program or ncu is missing.
"""
import argparse
import os
import shutil
import subprocess
import sys

from ncu_profile import ProfileFailed, number, profile

INSTRUCTIONS = "smsp__inst_executed_op_shared_ld.sum"
WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
CONFLICTS = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build-native",
                        help="build folder of a preset (default build-native, for this GPU)")
    program = os.path.join(parser.parse_args().build, "bin", "smem_patterns")
    if not os.path.exists(program):
        sys.stderr.write(f"smem_patterns.py: {program} is not built (cmake --build --preset "
                         "native --target smem_patterns)\n")
        return 2
    ncu = shutil.which("ncu")
    if not ncu:
        sys.stderr.write("smem_patterns.py: ncu (Nsight Compute) is not on the PATH; the table "
                         "it makes is committed as results/smem_patterns.md\n")
        return 2
    done = subprocess.run([program], capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        sys.stderr.write(f"smem_patterns.py: {program} failed with exit code {done.returncode}\n")
        return 1
    lines = done.stdout.splitlines()
    patterns = [line for line in lines if line.startswith("| ") and not line.startswith("| pattern")]
    try:
        kernels = profile(ncu, [INSTRUCTIONS, WAVEFRONTS, CONFLICTS], program, [])
    except ProfileFailed as error:
        sys.stderr.write(f"smem_patterns.py: {error}\n")
        return 1
    if len(kernels) != len(patterns):
        sys.stderr.write(f"smem_patterns.py: ncu profiled {len(kernels)} kernels for "
                         f"{len(patterns)} patterns\n")
        return 1
    print(lines[0])  # the device
    print()
    print("| pattern | bytes per warp | predicted wavefronts (busiest bank) "
          "| wavefronts per instruction (ncu) | bank conflicts per instruction (ncu) |")
    print("|---|---|---|---|---|")
    for pattern, kernel in zip(patterns, kernels):
        instructions = number(kernel[INSTRUCTIONS])
        wavefronts = number(kernel[WAVEFRONTS]) / instructions
        conflicts = number(kernel[CONFLICTS]) / instructions
        print(f"{pattern.rstrip(' |')} | {wavefronts:.2f} | {conflicts:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
