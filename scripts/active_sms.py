#!/usr/bin/env python3
"""How much of the GPU each kernel kept busy: the table of stage 21's Nsight Compute evidence.

    python3 scripts/active_sms.py results/21_gpu_stream_k/active_sms.csv

The input is `ncu --csv` output (--clock-control none, the metrics below) with the shape put
in front of every line as its own first column (results/21_gpu_stream_k/notes.md gives the
command). One row
per shape and kernel, the median over its launches: who ran it (the stage and its tile in clusters
of one or two, or cuBLAS's kernel), blocks launched, the duration, and the share of the SMs' time they were active, sm__cycles_active.avg over
sm__cycles_elapsed.max (the SMs' mean active cycles over the kernel's span): the idle SMs of a
partly filled last wave lower it.
"""
import csv
import re
import statistics
import sys
from collections import OrderedDict

import ncu_profile

METRICS = ("gpu__time_duration.sum", "sm__cycles_active.avg", "sm__cycles_elapsed.max",
           "launch__grid_size", "launch__cluster_dim_x")


def read(path):
    """{(shape, kernel): {metric: [value per launch]}} in the file's order."""
    kernels = OrderedDict()
    header = None
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if len(row) > 1 and row[1] == "ID":
                header = ["shape"] + row[1:]
                continue
            if header is None or len(row) != len(header):
                continue
            line = dict(zip(header, row))
            if line["Metric Name"] not in METRICS:
                continue
            key = (line["shape"], ncu_profile.short_name(line["Kernel Name"]).replace("ladder::", ""))
            values = kernels.setdefault(key, {}).setdefault(line["Metric Name"], {})
            values[line["ID"]] = ncu_profile.number(line["Metric Value"])
    return kernels


def label(kernel, cluster):
    """Who ran it, in the page's words: the stage and its tile (BM x BN, from the kernel's
    Config<BM, BN, ...>) or cuBLAS's kernel (its tile from its name), alone or in pairs."""
    together = "alone" if cluster == 1 else "pairs" if cluster == 2 else f"clusters of {cluster}"
    found = re.search(r"Config<(\d+), (\d+),", kernel)
    if kernel.startswith("gemm_persistent<") and found:
        return f"19: {found[1]}x{found[2]}, {together}"
    if kernel.startswith("gemm_stream_k<") and found:
        return f"21: {found[1]}x{found[2]}, {together}"
    tile = re.search(r"_(\d+x\d+)_", kernel)
    if kernel.startswith("nvjet") and tile:
        return f"cuBLAS: {tile[1]}, {together}"
    raise ValueError(f"no label for the kernel {kernel}")


def table(kernels):
    lines = ["| shape | who: tile, cluster | blocks | time (us) | SMs active |",
             "|---|---|---:|---:|---:|"]
    for (shape, kernel), metrics in kernels.items():
        missing = [name for name in METRICS if name not in metrics]
        if missing:
            raise ValueError(f"{shape}, {kernel}: no {', '.join(missing)} in the file")
        median = {name: statistics.median(metrics[name].values()) for name in METRICS}
        active = median["sm__cycles_active.avg"] / median["sm__cycles_elapsed.max"]
        who = label(kernel, round(median["launch__cluster_dim_x"]))
        lines.append(f"| {shape} | {who} | {median['launch__grid_size']:.0f} | "
                     f"{median['gpu__time_duration.sum'] / 1000:.1f} | {100 * active:.0f}% |")
    return "\n".join(lines)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        kernels = read(sys.argv[1])
        if not kernels:
            raise ValueError(f"no kernel rows with the metrics in {sys.argv[1]}")
        print(table(kernels))
    except (OSError, ValueError) as error:
        print(f"active_sms.py: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
