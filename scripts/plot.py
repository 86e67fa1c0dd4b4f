#!/usr/bin/env python3
"""Turns the CSVs of scripts/ladder.py into the PNG charts that the README and results/ show.

  python3 scripts/plot.py --results results

Reads RESULTS/ladder_4096.csv (the ladder at 4096^3), RESULTS/sweep_gemm.csv and
RESULTS/sweep_transpose.csv; writes RESULTS/ladder.png, gemm_sizes.png, transpose_sizes.png.
Needs matplotlib (Debian: python3-matplotlib).

The ladder chart is the whole climb in one panel: each GEMM stage's fastest variant as a % of
the ceiling its own program measured in the same process (cuBLAS FP32, cuBLAS BF16, cuBLAS
TF32 or cuBLASLt FP8, by colour), on a log scale, so that the CPU stages' thousandths of a
percent and the last stages' 100% read on one axis. Where the sweep holds tensor-core stages,
the size chart gets a second panel for them (their rates are another scale). As in the tables,
percentages are cut, never rounded up: a bar at 99.96% of cuBLAS reads 99.9%, not 100%.

Exit codes: 0 charts written; 2 something it needs is missing, with one line saying what:
matplotlib, or a CSV (absent, or not one that ladder.py wrote), the same code the other
scripts give when their tool (ncu, cuobjdump) or an input is missing.
"""
import argparse
import csv
import math
import os
import re
import sys
from collections import defaultdict

import ladder
from ladder import FP8, TF32, MissingInput, cut, dimensions, on_tensor_cores, unreadable

try:
    import matplotlib
    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.patches
    import matplotlib.pyplot as plt
    import matplotlib.ticker
except ImportError:
    plt = None  # main() says so, after checking the CSVs

COLUMNS = ("stage", "variant", "role", "problem", "device", "rate", "unit")  # what the charts read
MISSING = 2  # the exit code when matplotlib or a CSV is missing (see above)
TENSOR_PANEL = "tensor cores (Part 4): BF16 A and B, FP32 accumulation"
TF32_PANEL = "TF32 (stage 20): FP32 A and B read as TF32, FP32 accumulation"
FP8_PANEL = "FP8 (stage 22): E4M3 A and B, FP32 accumulation"
# The panel of a tensor-core stage, by the precision its ceiling names (BF16 otherwise).
PANEL_OF = {TF32: TF32_PANEL, FP8: FP8_PANEL}

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


def panel_of(own):
    """The panel of one stage's rows: "" for an FP32 stage, else the tensor-core panel that its
    ceiling's precision puts it in."""
    if not on_tensor_cores(own):
        return ""
    top = ladder.ceiling(own)["variant"]
    return next((panel for kind, panel in PANEL_OF.items() if kind in top), TENSOR_PANEL)


def panels(rows):
    """The rows of the FP32 stages, and those of the BF16, the TF32 and the FP8 tensor-core
    stages where there are any (each stage's rows go where its ceiling puts them), each with
    its panel's title words, in that order."""
    stages = defaultdict(list)
    for r in rows:
        stages[r["stage"]].append(r)
    panel = {stage: panel_of(own) for stage, own in stages.items()}
    parts = [([r for r in rows if panel[r["stage"]] == words], words)
             for words in ("", TENSOR_PANEL, TF32_PANEL, FP8_PANEL)]
    return [parts[0]] + [(own, words) for own, words in parts[1:] if own]


def size_of(problem):
    """'A 4096x4096 * B 4096x4096' -> 4096 (cube root of m*n*k); '8192x8192 floats' -> 8192.
    Words after the matrices (a 'BF16') do not count."""
    matrices = dimensions(problem)
    if isinstance(matrices, tuple):  # m, k, k, n
        m, k, _, n = matrices
        return round((m * n * k) ** (1 / 3))
    return int(re.findall(r"\d+", problem)[0])


def wrap_name(stage, width=16):
    """A stage's folder name broken after its underscores into lines of at most width
    characters where it can: 17_gpu_warp_specialized over two lines, 17_gpu_warp_ then
    specialized; 12_gpu_pipelined stays on one."""
    lines = [""]
    for part in re.findall(r"[^_]+_?", stage):
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return "\n".join(lines)


# The climb's bar colours and legend words, by the ceiling a stage's program measured.
FAMILIES = {"": ("#4c72b0", "FP32 CUDA cores, against cuBLAS FP32"),
            TENSOR_PANEL: ("#55a868", "BF16 tensor cores, against cuBLAS BF16"),
            TF32_PANEL: ("#8172b3", "TF32 tensor cores, against cuBLAS TF32"),
            FP8_PANEL: ("#c44e52", "FP8 tensor cores, against cuBLASLt FP8")}


def climb(gemm):
    """Each stage's fastest row as a % of the ceiling its own program measured, in order:
    [(stage, row, percent, family, borrowed)]. A CPU stage's program measures no ceiling: it
    is set against the first FP32 GPU program's (borrowed)."""
    programs = {stage: [r for r in gemm if r["stage"] == stage]
                for stage in dict.fromkeys(r["stage"] for r in gemm)}
    fp32 = next((ladder.ceiling(rows) for rows in programs.values()
                 if ladder.ceiling(rows) and panel_of(rows) == ""), None)
    bars = []
    for stage, rows in programs.items():
        own = [r for r in rows if r["role"] == "stage"]
        top = ladder.ceiling(rows) or fp32
        if not own or top is None:
            continue
        best = max(own, key=lambda r: float(r["rate"]))
        percent = 100 * float(best["rate"]) / float(top["rate"])
        bars.append((stage, best, percent, panel_of(rows), ladder.ceiling(rows) is None))
    return bars


def percent_label(percent):
    """Cut as the tables cut, never rounded up: one decimal, or two significant digits below 1%
    (a CPU stage's 0.0027%)."""
    decimals = 1 if percent >= 1 else 1 - math.floor(math.log10(percent))
    return f"{cut(percent, decimals)}%"


def ladder_chart(rows, out):
    """The whole climb in one panel: every GEMM stage's fastest variant as a % of the ceiling
    its own program measured in the same process, on a log scale, coloured by that ceiling."""
    gemm = [r for r in rows if r["unit"] == "GFLOP/s"]
    bars = climb(gemm)
    fig, ax = plt.subplots(figsize=(14, 6))
    drawn = ax.bar(range(len(bars)), [percent for _, _, percent, _, _ in bars],
                   color=[FAMILIES[family][0] for _, _, _, family, _ in bars])
    for bar, (_, _, _, _, borrowed) in zip(drawn, bars):
        if borrowed:
            bar.set_hatch("//")
    ax.bar_label(drawn, labels=[percent_label(p) for _, _, p, _, _ in bars], fontsize=7)
    legend = [matplotlib.patches.Patch(color=FAMILIES[family][0], label=FAMILIES[family][1])
              for family in dict.fromkeys(family for _, _, _, family, _ in bars)]
    if any(borrowed for *_, borrowed in bars):
        cpu = sorted({row["problem"] for _, row, _, _, borrowed in bars if borrowed})
        legend.append(matplotlib.patches.Patch(
            facecolor="white", edgecolor="black", hatch="//",
            label=f"CPU, one core, on {'; '.join(cpu)}: against the first FP32 GPU stage's "
                  "cuBLAS FP32"))
    legend.append(ax.axhline(100, color="#dd8452", linestyle="--",
                             label="each program's own ceiling (100%)"))
    ax.set_yscale("log")
    ax.set_ylim(min(p for _, _, p, _, _ in bars) / 3, 300)
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda y, _: f"{y:g}%"))
    ax.set_ylabel("% of the ceiling measured in the same program (log scale)")
    ax.set_xticks(range(len(bars)), [wrap_name(stage, 9) for stage, *_ in bars], fontsize=7)
    gpu_problems = sorted({row["problem"] for _, row, _, _, borrowed in bars if not borrowed})
    ax.set_title(f"The climb on {ladder.gpu_name(rows) or 'the GPU'}: each stage's fastest "
                 f"variant, {'; '.join(gpu_problems)}", fontsize=10)
    ax.legend(handles=legend, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16),
              ncol=2, frameon=False)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def size_panel(ax, rows, unit, ceiling_prefix, xlabel, ylabel, title):
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
    colours = iter(plt.cm.tab10.colors)
    for key, points in sorted(series.items()):
        sizes = sorted(points)
        style = (dict(color="black", linestyle="--", linewidth=2) if key.startswith(ceiling_prefix)
                 else dict(color=next(colours)))
        ax.plot(sizes, [points[s] for s in sizes], marker="o", label=key, **style)
    ax.set_xscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)


def size_chart(rows, unit, ceiling_prefix, xlabel, ylabel, title, out):
    """One panel for the FP32 stages and one for each tensor-core ceiling the sweep holds (their
    rates are other scales)."""
    parts = panels([r for r in rows if r["unit"] == unit])
    fig, axes = plt.subplots(1, len(parts), figsize=(11 * len(parts), 6), squeeze=False)
    for ax, (own, words) in zip(axes[0], parts):
        what = ", FP32 stages" if len(parts) > 1 else ""
        size_panel(ax, own, unit, ceiling_prefix, xlabel, ylabel,
                   f"{title}, {words}" if words else
                   f"{title} on {ladder.gpu_name(rows) or 'GPU'}{what}: the best variant of each stage")
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", default="results")
    folder = parser.parse_args().results
    try:
        record, gemm, transpose = (read(os.path.join(folder, name)) for name in
                                   ("ladder_4096.csv", "sweep_gemm.csv", "sweep_transpose.csv"))
    except MissingInput as error:
        sys.stderr.write(f"plot.py: {error}\n")
        return MISSING
    if plt is None:
        sys.stderr.write("plot.py: matplotlib is not installed (Debian: apt-get install "
                         "python3-matplotlib; or pip install matplotlib); the charts it makes "
                         "are committed in results/\n")
        return MISSING
    ladder_chart(record, os.path.join(folder, "ladder.png"))
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
