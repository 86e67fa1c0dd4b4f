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

A third table for the tensor-core stages (manifest part 4 and later), whose programs are
profiled with more metrics: how busy the tensor pipe was (mma.sync and wgmma alike) and how
many HMMA (mma.sync) and wgmma instructions it issued (% of peak), the issue slots, achieved
occupancy, ldmatrix (LDSM) instructions, the bytes TMA loaded (which the LSU metrics do not
see), shared-memory load wavefronts and bank conflicts, and the three largest of all the
stall reasons ncu names (gmma: waiting for wgmma, on Hopper). A metric this ncu or GPU does
not give prints n/a there (the wgmma and TMA ones before Hopper).
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
# The tensor-core table (Part 4 on): every stall reason, and the HMMA pipe and ldmatrix counts;
# time, issue slots, occupancy and the bank conflicts come from METRICS.
TENSOR_PART = 4
TENSOR_STALLS = ["barrier", "long_scoreboard", "short_scoreboard", "mio_throttle",
                 "math_pipe_throttle", "wait", "not_selected", "dispatch_stall", "lg_throttle",
                 "no_instruction", "branch_resolving", "membar", "drain", "sleeping",
                 "tex_throttle", "imc_miss", "misc", "gmma"]
# The FP16/BF16 tensor pipe: busy with mma.sync (HMMA) and, on Hopper, with wgmma (HGMMA).
TENSOR_PIPE = "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed"
HMMA_ISSUED = "sm__inst_executed_pipe_tensor_op_hmma.avg.pct_of_peak_sustained_elapsed"
GMMA_ISSUED = "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_elapsed"
# TMA's copies bypass the load/store unit, so the LSU sector counts above miss them.
TMA_LOADED = "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"
TENSOR_METRICS = [
    TENSOR_PIPE,
    HMMA_ISSUED,
    GMMA_ISSUED,
    "smsp__inst_executed_op_ldsm.sum",
    TMA_LOADED,
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
] + [STALL_METRIC.format(stall) for stall in TENSOR_STALLS if stall not in STALLS]
# Smaller than the benchmarks' headline GEMM: ncu replays each kernel once per metric pass.
PROBLEM = {
    "gemm": ["--m", "2048", "--n", "2048", "--k", "2048"],
    "transpose": ["--rows", "8192", "--cols", "8192"],
}
TENSOR_LEGEND = (
    "Tensor cores: tensor pipe % = cycles the tensor pipe was busy (mma.sync and wgmma), HMMA "
    "issued % = mma.sync instructions and wgmma issued % = wgmma instructions, each against its "
    "peak over the kernel's time; issue slots % and occupancy % as above; LDSM = ldmatrix "
    "instructions (per warp); TMA MB = megabytes TMA loaded from L2; smem ld wavefronts = "
    "shared-memory load passes, of which the conflicts are the extra ones; stalls = warps "
    "stalled per issued instruction, the three largest of all reasons (gmma: waiting for "
    "wgmma); n/a = ncu gave no value.")
# Kernels that belong to the harness, not to the lesson.
HARNESS = ("check_gemm_kernel",)


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return float("nan")


def ratio(a, b):
    return f"{a / b:.2f}" if b and a == a and b == b else "-"


def shown(value, spec):
    """The value formatted, or n/a where ncu gave none (a metric missing or not a number)."""
    return format(value, spec) if value == value else "n/a"


def top_stalls(m, stalls):
    """'reason value, ...' for the three largest stall ratios ncu gave, largest first."""
    values = sorted(((m[STALL_METRIC.format(s)], s) for s in stalls
                     if m[STALL_METRIC.format(s)] == m[STALL_METRIC.format(s)]), reverse=True)
    return ", ".join(f"{name} {value:.2f}" for value, name in values[:3])


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
    """ncu did not give a table for a program; the message says why, in one line, and output
    holds what ncu and the program printed."""

    def __init__(self, message, output=""):
        super().__init__(message)
        self.output = output


def profile(ncu, metrics, program_path, args):
    """One row per kernel launch of `program_path args` under ncu, each holding the metrics."""
    command = [ncu, "--clock-control", "none", "--csv", "--page", "raw", "--print-units", "base",
               "--metrics", ",".join(metrics), program_path, *args]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
        raise ProfileFailed(f"ncu failed on {program_path} with exit code {done.returncode} "
                            "(its output above)", done.stdout + done.stderr)
    # ncu prints the program's own output first; the CSV starts at the header row.
    start = done.stdout.find('"ID"')
    if start < 0:
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
        raise ProfileFailed(f"ncu printed no CSV table for {program_path} (its output above): "
                            "did the program launch a kernel?")
    rows = list(csv.DictReader(io.StringIO(done.stdout[start:])))
    return [r for r in rows[1:] if r.get("Kernel Name")]  # rows[0] holds the units


def profile_without_refused(ncu, metrics, program_path, args, refused):
    """profile(), but where ncu fails naming some of the metrics (--query-metrics may list one
    this GPU still refuses), once more without them. refused, a set, keeps them for the next
    programs; their columns show n/a."""
    metrics = [m for m in metrics if m not in refused]
    try:
        return profile(ncu, metrics, program_path, args)
    except ProfileFailed as error:
        named = [m for m in metrics
                 if re.search(r"\b" + re.escape(m.split(".")[0]) + r"\b", error.output)]
        if not named or len(named) == len(metrics):
            raise
        for metric in named:
            sys.stderr.write(f"ncu_profile.py: ncu refused {metric}; profiling again without "
                             "it (n/a in its column)\n")
        refused.update(named)
        return profile(ncu, [m for m in metrics if m not in refused], program_path, args)


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
    # The project's own scopes go too: ladder::, ladder::persistent:: and their unnamed ones.
    return re.sub(r"ladder::(persistent::)?(<unnamed>::|\(anonymous namespace\)::)?", "", name)


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
    programs = [(stage.name, stage.program, PROBLEM[stage.problem_kind] + args,
                 int(stage.part) >= TENSOR_PART)
                for stage in manifest.load(options.build) if stage.gpu for args in stage.profile]
    for _, path, _, _ in programs:
        if not os.path.exists(path):
            sys.stderr.write(f"ncu_profile.py: no program {path}: build first "
                             f"(cmake --build {options.build})\n")
            return 2

    tensor_wanted = any(tensor for *_, tensor in programs)
    known = set(available(ncu, METRICS + (TENSOR_METRICS if tensor_wanted else [])))
    metrics = [m for m in METRICS if m in known]
    tensor_metrics = metrics + [m for m in TENSOR_METRICS if m in known]
    header = ["stage", "kernel", "time us", "DRAM %", "ld sectors/req", "st sectors/req",
              "smem ld conflicts", "smem st conflicts", "occupancy %", "FFMA"]
    pipes_header = ["stage", "kernel", "FMA pipe %", "issue slots %", "LSU pipe %",
                    "L1/smem data path %", "L1 hit %", "smem wavefronts / warp FFMA",
                    "top stalls (warps per issue)"]
    tensor_header = ["stage", "kernel", "time us", "tensor pipe %", "HMMA issued %",
                     "wgmma issued %", "issue slots %", "occupancy %", "LDSM", "TMA MB",
                     "smem ld wavefronts", "smem ld conflicts", "smem st conflicts",
                     "top stalls (warps per issue)"]
    body, pipes, tensor = [], [], []
    refused = set()
    for program, path, args, tensor_stage in programs:
        sys.stderr.write(f"profiling {program} {' '.join(args)} ...\n")
        try:
            rows = profile_without_refused(ncu, tensor_metrics if tensor_stage else metrics,
                                           path, ["--reps", "1", "--warmup", "0", *args],
                                           refused)
        except ProfileFailed as error:
            sys.stderr.write(f"ncu_profile.py: {error}\n")
            return 1
        for row in rows:
            kernel = short_name(row["Kernel Name"])
            if any(harness in kernel for harness in HARNESS):
                continue
            m = {metric: number(row.get(metric, "nan")) for metric in METRICS + TENSOR_METRICS}
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
            pipes.append([
                program, kernel,
                f"{m['sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed']:.1f}",
                f"{m['smsp__issue_active.avg.pct_of_peak_sustained_elapsed']:.1f}",
                f"{m['sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed']:.1f}",
                f"{m['l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed']:.1f}",
                f"{m['l1tex__t_sector_hit_rate.pct']:.1f}",
                ratio(m["l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"], warp_ffma),
                top_stalls(m, STALLS),
            ])
            if tensor_stage:
                tensor.append([
                    program, kernel,
                    shown(m["gpu__time_duration.sum"] / 1e3, ".1f"),
                    shown(m[TENSOR_PIPE], ".1f"),
                    shown(m[HMMA_ISSUED], ".1f"),
                    shown(m[GMMA_ISSUED], ".1f"),
                    shown(m["smsp__issue_active.avg.pct_of_peak_sustained_elapsed"], ".1f"),
                    shown(m["sm__warps_active.avg.pct_of_peak_sustained_active"], ".1f"),
                    shown(m["smsp__inst_executed_op_ldsm.sum"], ".3g"),
                    shown(m[TMA_LOADED] / 1e6, ".1f"),
                    shown(m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"], ".3g"),
                    shown(m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"], ".0f"),
                    shown(m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"], ".0f"),
                    top_stalls(m, TENSOR_STALLS) or "n/a",
                ])
    text = table(header, body) + "\n\n" + table(pipes_header, pipes)
    if tensor:
        text += "\n\n" + table(tensor_header, tensor) + "\n\n" + TENSOR_LEGEND
    print(text)
    if options.out:
        with open(options.out, "w") as out:
            out.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
