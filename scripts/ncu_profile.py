#!/usr/bin/env python3
"""Nsight Compute evidence for every GPU stage, as one compact table.

Runs each GPU stage program once under `ncu --clock-control none` (the card's own clocks,
as in the benchmarks) with a small set of metrics, and prints one row per kernel:

  python3 scripts/ncu_profile.py [--build build-native] [--out results/profile.md]

Which programs run, and with which arguments, comes from the PROFILE entries of the stage
declarations (CMakeLists.txt), read from BUILD/stages.json.

Two tables. Memory: kernel time; DRAM throughput (% of peak); global load and store sectors
per request (4 is a fully coalesced warp of floats, 32 the worst); shared-memory bank
conflicts on loads and stores; achieved occupancy; FFMA instructions (thread level).
Pipes, the throughput model's evidence: how busy the FMA pipe was (% of its peak over the
kernel's time), the issue slots, the load/store (LSU) pipe, the L1/shared-memory data path
(wavefronts per clock against one per clock per SM); the L1 hit rate; shared wavefronts per
warp-wide FFMA; and the three stall reasons that cost the most (warps stalled per issued
instruction), e.g. mio_throttle (the shared-memory/L1 queue is full), short_scoreboard
(waiting for a shared-memory result), long_scoreboard (waiting for global memory), barrier.
"""
import argparse
import csv
import io
import os
import re
import shutil
import subprocess
import sys

import stages as manifest
from ladder import table

METRICS = [
    "gpu__time_duration.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed",
    "smsp__issue_active.avg.pct_of_peak_sustained_elapsed",
    "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
    "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed",
    "l1tex__t_sector_hit_rate.pct",
]
STALLS = ["barrier", "long_scoreboard", "short_scoreboard", "mio_throttle", "lg_throttle",
          "math_pipe_throttle", "not_selected", "wait", "dispatch_stall", "no_instruction"]
STALL_METRIC = "smsp__average_warps_issue_stalled_{}_per_issue_active.ratio"
METRICS += [STALL_METRIC.format(stall) for stall in STALLS]
# Smaller than the benchmarks' headline GEMM: ncu replays each kernel once per metric pass.
PROBLEM = {
    "gemm": ["--m", "2048", "--n", "2048", "--k", "2048"],
    "transpose": ["--rows", "8192", "--cols", "8192"],
}
# Kernels that belong to the harness, not to the lesson.
HARNESS = ("check_gemm_kernel",)


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return float("nan")


def ratio(a, b):
    return f"{a / b:.2f}" if b and a == a and b == b else "-"


def available(ncu, metrics):
    """The metrics this GPU and ncu know; the others are left out with a warning."""
    done = subprocess.run([ncu, "--query-metrics"], capture_output=True, text=True)
    if done.returncode != 0:
        return metrics
    known = {line.split()[0] for line in done.stdout.splitlines() if line.strip()}
    missing = [m for m in metrics if m.split(".")[0] not in known]
    for metric in missing:
        sys.stderr.write(f"ncu_profile.py: this ncu does not know {metric}; its column stays empty\n")
    return [m for m in metrics if m not in missing]


class ProfileFailed(Exception):
    """ncu did not give a table for a program; the message says why, in one line."""


def profile(ncu, metrics, program_path, args):
    """One row per kernel launch of `program_path args` under ncu, each holding the metrics."""
    command = [ncu, "--clock-control", "none", "--csv", "--page", "raw", "--print-units", "base",
               "--metrics", ",".join(metrics), program_path, *args]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
        raise ProfileFailed(f"ncu failed on {program_path} with exit code {done.returncode} "
                            "(its output above)")
    # ncu prints the program's own output first; the CSV starts at the header row.
    start = done.stdout.find('"ID"')
    if start < 0:
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
        raise ProfileFailed(f"ncu printed no CSV table for {program_path} (its output above): "
                            "did the program launch a kernel?")
    rows = list(csv.DictReader(io.StringIO(done.stdout[start:])))
    return [r for r in rows[1:] if r.get("Kernel Name")]  # rows[0] holds the units


def short_name(kernel):
    """'void ladder::<unnamed>::copy_tiles<32, 8>(ladder::Matrix, ...)' -> 'copy_tiles<32, 8>'."""
    name = kernel.strip()
    if name.endswith(")"):  # drop the parameter list
        depth = 0
        for i in range(len(name) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(name[i], 0)
            if depth == 0:
                name = name[:i]
                break
    # Keep what follows the last scope operator outside template brackets.
    depth, cut = 0, 0
    for i, c in enumerate(name):
        depth += {"<": 1, ">": -1}.get(c, 0)
        if depth == 0 and name.startswith("::", i):
            cut = i + 2
    # On the H100 machine the transpose kernels' names still came out as "unnamed>::name"
    # (cause not found); drop that fragment.
    name = re.sub(r"^\w*>::", "", name[cut:].removeprefix("void "))
    # Scopes inside template arguments, as ncu and as c++filt print them.
    return name.replace("ladder::<unnamed>::", "").replace("ladder::(anonymous namespace)::", "")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build-native",
                        help="build folder of a preset (default build-native, for this GPU)")
    parser.add_argument("--out", help="also write the table (Markdown) to this file")
    options = parser.parse_args()
    ncu = shutil.which("ncu")
    if not ncu:
        sys.stderr.write("ncu_profile.py: ncu (Nsight Compute) is not on the PATH; the table it "
                         "makes is committed as results/profile.md\n")
        return 2
    programs = [(stage.name, stage.program, PROBLEM[stage.problem_kind] + args)
                for stage in manifest.load(options.build) if stage.gpu for args in stage.profile]
    for _, path, _ in programs:
        if not os.path.exists(path):
            sys.stderr.write(f"ncu_profile.py: no program {path}: build first "
                             f"(cmake --build {options.build})\n")
            return 2

    metrics = available(ncu, METRICS)
    header = ["stage", "kernel", "time us", "DRAM %", "ld sectors/req", "st sectors/req",
              "smem ld conflicts", "smem st conflicts", "occupancy %", "FFMA"]
    pipes_header = ["stage", "kernel", "FMA pipe %", "issue slots %", "LSU pipe %",
                    "L1/smem data path %", "L1 hit %", "smem wavefronts / warp FFMA",
                    "top stalls (warps per issue)"]
    body, pipes = [], []
    for program, path, args in programs:
        sys.stderr.write(f"profiling {program} {' '.join(args)} ...\n")
        try:
            rows = profile(ncu, metrics, path, ["--reps", "1", "--warmup", "0", *args])
        except ProfileFailed as error:
            sys.stderr.write(f"ncu_profile.py: {error}\n")
            return 1
        for row in rows:
            kernel = short_name(row["Kernel Name"])
            if any(harness in kernel for harness in HARNESS):
                continue
            m = {metric: number(row.get(metric, "nan")) for metric in METRICS}
            body.append([
                program, kernel,
                f"{m['gpu__time_duration.sum'] / 1e3:.1f}",
                f"{m['dram__throughput.avg.pct_of_peak_sustained_elapsed']:.1f}",
                ratio(m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"],
                      m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]),
                ratio(m["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"],
                      m["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"]),
                f"{m['l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum']:.0f}",
                f"{m['l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum']:.0f}",
                f"{m['sm__warps_active.avg.pct_of_peak_sustained_active']:.1f}",
                f"{m['smsp__sass_thread_inst_executed_op_ffma_pred_on.sum']:.3g}",
            ])
            warp_ffma = m["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"] / 32
            stalls = sorted(((m[STALL_METRIC.format(s)], s) for s in STALLS
                             if m[STALL_METRIC.format(s)] == m[STALL_METRIC.format(s)]), reverse=True)
            pipes.append([
                program, kernel,
                f"{m['sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed']:.1f}",
                f"{m['smsp__issue_active.avg.pct_of_peak_sustained_elapsed']:.1f}",
                f"{m['sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed']:.1f}",
                f"{m['l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed']:.1f}",
                f"{m['l1tex__t_sector_hit_rate.pct']:.1f}",
                ratio(m["l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"], warp_ffma),
                ", ".join(f"{name} {value:.2f}" for value, name in stalls[:3]),
            ])
    text = table(header, body) + "\n\n" + table(pipes_header, pipes)
    print(text)
    if options.out:
        with open(options.out, "w") as out:
            out.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
