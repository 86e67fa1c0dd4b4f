#!/usr/bin/env python3
"""Turns the CSVs of scripts/ladder.py into the PNG charts of the README.

  python3 scripts/plot.py --results results

Reads RESULTS/ladder_4096.csv (the ladder at 4096^3), RESULTS/sweep_gemm.csv and
RESULTS/sweep_transpose.csv; writes RESULTS/ladder.png, gemm_sizes.png, transpose_sizes.png.
Needs matplotlib (Debian: python3-matplotlib).

Exit codes: 0 charts written; 2 something it needs is missing, with one line saying what:
matplotlib, or a CSV (absent, or not one that ladder.py wrote), the same code the other
scripts give when their tool (ncu, cuobjdump) or an input is missing.
"""
import argparse
import csv
import os
import re
import sys
import textwrap
from collections import defaultdict

from ladder import MissingInput, unreadable

try:
    import matplotlib
    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt
except ImportError:
    plt = None  # main() says so, after checking the CSVs

COLUMNS = ("stage", "variant", "role", "problem", "device", "rate", "unit")  # what the charts read
MISSING = 2  # the exit code when matplotlib or a CSV is missing (see above)


def read(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise MissingInput(f"cannot read {path}: {error} (scripts/ladder.py writes it)")
    why = unreadable(rows, COLUMNS)
    if why:
        raise MissingInput(f"{path} is not a CSV that scripts/ladder.py wrote ({why})")
    return rows


def peak_gflops(rows):
    """The FP32 peak the programs computed from the device's attributes."""
    for row in rows:
        found = re.search(r"FP32 peak ([0-9.]+) TFLOP/s", row["device"])
        if found:
            return float(found.group(1)) * 1e3
    return None


def gpu_name(rows):
    for row in rows:
        if "SMs" in row["device"]:
            return row["device"].split(" (")[0]
    return "GPU"


def size_of(problem):
    """'A 4096x4096 * B 4096x4096' -> 4096 (cube root of m*n*k); '8192x8192 floats' -> 8192."""
    numbers = [int(x) for x in re.findall(r"\d+", problem)]
    if len(numbers) == 4:  # m, k, k, n
        m, k, _, n = numbers
        return round((m * n * k) ** (1 / 3))
    return numbers[0]


def ladder_chart(rows, out):
    gemm = [r for r in rows if r["unit"] == "GFLOP/s"]
    # The GPU stages' problem is the largest one; the CPU stages ran a smaller one.
    main_problem = max({r["problem"] for r in gemm}, key=size_of)
    stages, rates, smaller = [], [], []
    for stage in dict.fromkeys(r["stage"] for r in gemm):
        own = [r for r in gemm if r["stage"] == stage and r["role"] == "stage"]
        if own:
            top = max(own, key=lambda r: float(r["rate"]))
            # The variant up to its first comma (Part 3 names its tiling in full), wrapped.
            variant = textwrap.fill(top["variant"].split(",")[0].replace("_", " "), 16)
            stages.append(f"{stage}\n{variant}")
            rates.append(float(top["rate"]))
            smaller.append(top["problem"] != main_problem)
    cublas = [float(r["rate"]) for r in gemm if r["variant"].startswith("cuBLAS")]
    fig, ax = plt.subplots(figsize=(12, 6))
    bars = ax.bar(range(len(rates)), rates, color=["#8c8c8c" if s else "#4c72b0" for s in smaller])
    for bar, small in zip(bars, smaller):
        if small:
            bar.set_hatch("//")
    ax.bar_label(bars, labels=[f"{r:,.0f}" for r in rates], fontsize=8)
    others = sorted({r["problem"] for r in gemm} - {main_problem})
    if others:
        ax.bar([], [], color="#8c8c8c", hatch="//",
               label=f"CPU stages, on a smaller problem: {'; '.join(others)}")
    ax.bar([], [], color="#4c72b0", label=f"GPU stages, on {main_problem}")
    if cublas:
        ax.axhline(max(cublas), color="#dd8452", linestyle="--", label=f"cuBLAS SGEMM FP32, fastest of its {len(cublas)} runs ({max(cublas):,.0f})")
    peak = peak_gflops(rows)
    if peak:
        ax.axhline(peak, color="#c44e52", linestyle=":", label=f"FP32 peak ({peak:,.0f})")
    ax.set_yscale("log")
    ax.set_ylabel("GFLOP/s (log scale)")
    ax.set_xticks(range(len(stages)), stages, fontsize=7)
    ax.set_title(f"The GEMM ladder on {gpu_name(rows)}: best variant of each stage", fontsize=10)
    ax.legend(fontsize=8, loc="center left")
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def size_chart(rows, unit, ceiling_prefix, xlabel, ylabel, title, out):
    # One line per stage (its best variant at each size) and the ceiling: few enough lines to
    # tell apart.
    series = defaultdict(dict)
    for r in rows:
        if r["unit"] != unit:
            continue
        size = size_of(r["problem"])
        if r["role"] == "stage":
            key = r["stage"]
        elif r["variant"].startswith(ceiling_prefix):
            key = r["variant"]
        else:
            continue
        series[key][size] = max(series[key].get(size, 0), float(r["rate"]))
    fig, ax = plt.subplots(figsize=(11, 6))
    colours = iter(plt.cm.tab10.colors)
    for key, points in sorted(series.items()):
        sizes = sorted(points)
        style = (dict(color="black", linestyle="--", linewidth=2) if key.startswith(ceiling_prefix)
                 else dict(color=next(colours)))
        ax.plot(sizes, [points[s] for s in sizes], marker="o", label=key, **style)
    ax.set_xscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(f"{title} on {gpu_name(rows)}: the best variant of each stage", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", default="results")
    folder = parser.parse_args().results
    try:
        ladder, gemm, transpose = (read(os.path.join(folder, name)) for name in
                                   ("ladder_4096.csv", "sweep_gemm.csv", "sweep_transpose.csv"))
    except MissingInput as error:
        sys.stderr.write(f"plot.py: {error}\n")
        return MISSING
    if plt is None:
        sys.stderr.write("plot.py: matplotlib is not installed (Debian: apt-get install "
                         "python3-matplotlib; or pip install matplotlib); the charts it makes "
                         "are committed in results/\n")
        return MISSING
    ladder_chart(ladder, os.path.join(folder, "ladder.png"))
    size_chart(gemm, "GFLOP/s", "cuBLAS",
               "N: cube root of m*n*k (N^3 problems, and the articles' 1920x1280x1024 at 1360)",
               "GFLOP/s (2*m*n*k / median time)", "Matrix product: GFLOP/s against size",
               os.path.join(folder, "gemm_sizes.png"))
    size_chart(transpose, "GB/s", "cudaMemcpy",
               "N: an N x N matrix of floats", "effective GB/s (N*N*4 bytes read + written)",
               "Transpose: bandwidth against size", os.path.join(folder, "transpose_sizes.png"))
    print(f"wrote {folder}/ladder.png, gemm_sizes.png, transpose_sizes.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
