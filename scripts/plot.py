#!/usr/bin/env python3
"""Turns the CSVs of scripts/ladder.py into the PNG charts of the README.

  python3 scripts/plot.py --results results

Reads RESULTS/ladder_4096.csv (the ladder at 4096^3), RESULTS/sweep_gemm.csv and
RESULTS/sweep_transpose.csv; writes RESULTS/ladder.png, gemm_sizes.png, transpose_sizes.png.
Needs matplotlib (Debian: python3-matplotlib).

Where the CSVs hold tensor-core stages (Part 4: their ceiling is cuBLAS BF16), the two GEMM
charts get a second panel for them, beside the FP32 stages' (Parts 1-3), and the ladder chart
one more for the TF32 stage (20: its ceiling is cuBLAS TF32) and one for the FP8 stage (22: its
ceiling is cuBLASLt FP8): each panel draws its own ceiling (cuBLAS FP32 and the FP32 peak;
cuBLAS BF16 and the BF16 peak; cuBLAS TF32 and the TF32 peak, half the BF16 one; cuBLASLt FP8
and the FP8 peak, twice the BF16 one), never another's.
As in the tables, rates are rounded, and percentages are cut, never rounded up: a bar at 99.96%
of cuBLAS reads 99.9%, not 100%.

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

import ladder
from ladder import FP8, TF32, MissingInput, cut, dimensions, on_tensor_cores, unreadable

try:
    import matplotlib
    matplotlib.use("Agg")  # files only: no display needed
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
# Each tensor panel's ceiling line and peak: the prefix of its ceiling rows' names (cuBLASLt's
# default, not its fast-accumulation row), the precision the device line names, and the factor
# over it (the FP8 peak is twice the BF16 one and the TF32 peak half of it: NVIDIA's H100
# whitepaper, 1,979 and 494.7 against 989.4 dense TFLOP/s).
PANEL_CEILINGS = {TENSOR_PANEL: ("cuBLAS BF16", "BF16", 1, "BF16 peak"),
                  TF32_PANEL: ("cuBLAS TF32", "BF16", 0.5, "TF32 peak, half BF16's"),
                  FP8_PANEL: ("cuBLASLt FP8 (", "BF16", 2, "FP8 peak, 2x BF16's")}


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


def peak_gflops(rows, precision="FP32"):
    """The FP32 (or BF16) peak the programs computed from the device's attributes, as their
    device line gives it ("FP32 peak 66.9 TFLOP/s"), or None where it names none."""
    for row in rows:
        found = re.search(precision + r" peak ([0-9.]+) TFLOP/s", row["device"])
        if found:
            return float(found.group(1)) * 1e3
    return None


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


def fastest_ceiling(rows, prefix):
    """(name, rate, runs) of the fastest ceiling row whose name starts with prefix, or None."""
    runs = [r for r in rows if r["role"] == "ceiling" and r["variant"].startswith(prefix)]
    if not runs:
        return None
    top = max(runs, key=lambda r: float(r["rate"]))
    return top["variant"], float(top["rate"]), len(runs)


def size_of(problem):
    """'A 4096x4096 * B 4096x4096' -> 4096 (cube root of m*n*k); '8192x8192 floats' -> 8192.
    Words after the matrices (a 'BF16') do not count."""
    matrices = dimensions(problem)
    if isinstance(matrices, tuple):  # m, k, k, n
        m, k, _, n = matrices
        return round((m * n * k) ** (1 / 3))
    return int(re.findall(r"\d+", problem)[0])


def rate_label(rate):
    """A rate as the charts and the tables print it: rounded to whole GFLOP/s, or to one
    decimal below 100."""
    return f"{rate:,.1f}" if rate < 100 else f"{rate:,.0f}"


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


def best_bars(gemm):
    """The best variant of each stage, in order: (x label, rate, its row, its program's rows)."""
    bars = []
    for stage in dict.fromkeys(r["stage"] for r in gemm):
        program = [r for r in gemm if r["stage"] == stage]
        own = [r for r in program if r["role"] == "stage"]
        if own:
            top = max(own, key=lambda r: float(r["rate"]))
            # The variant up to its first comma (Part 3 names its tiling in full), wrapped.
            variant = textwrap.fill(top["variant"].split(",")[0].replace("_", " "), 16)
            bars.append((f"{wrap_name(stage)}\n{variant}", float(top["rate"]), top, program))
    return bars


def fp32_panel(ax, gemm, rows, title):
    """Parts 1-3: log scale, the CPU stages' smaller problem hatched, cuBLAS FP32 and the FP32
    peak as lines."""
    # The GPU stages' problem is the largest one; the CPU stages ran a smaller one.
    main_problem = max({r["problem"] for r in gemm}, key=size_of)
    stages, rates, smaller = [], [], []
    for label, rate, top, _ in best_bars(gemm):
        stages.append(label)
        rates.append(rate)
        smaller.append(top["problem"] != main_problem)
    bars = ax.bar(range(len(rates)), rates, color=["#8c8c8c" if s else "#4c72b0" for s in smaller])
    for bar, small in zip(bars, smaller):
        if small:
            bar.set_hatch("//")
    ax.bar_label(bars, labels=[rate_label(r) for r in rates], fontsize=8)
    others = sorted({r["problem"] for r in gemm} - {main_problem})
    if others:
        ax.bar([], [], color="#8c8c8c", hatch="//",
               label=f"CPU stages, on a smaller problem: {'; '.join(others)}")
    ax.bar([], [], color="#4c72b0", label=f"GPU stages, on {main_problem}")
    cublas = fastest_ceiling(gemm, "cuBLAS")
    if cublas:
        name, rate, runs = cublas
        ax.axhline(rate, color="#dd8452", linestyle="--", label=f"{name}, fastest of its {runs} runs ({rate_label(rate)})")
    peak = peak_gflops(rows)
    if peak:
        ax.axhline(peak, color="#c44e52", linestyle=":", label=f"FP32 peak ({rate_label(peak)})")
    ax.set_yscale("log")
    ax.set_ylabel("GFLOP/s (log scale)")
    ax.set_xticks(range(len(stages)), stages, fontsize=7)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="center left")


def tensor_panel(ax, gemm, rows, title, panel=TENSOR_PANEL):
    """Part 4: linear scale, each bar labelled with its % of its own program's ceiling; the
    panel's ceiling (cuBLAS BF16, cuBLAS TF32 or cuBLASLt FP8) and peak as lines
    (PANEL_CEILINGS)."""
    prefix, precision, factor, peak_words = PANEL_CEILINGS[panel]
    bars_data = best_bars(gemm)
    stages = [label for label, _, _, _ in bars_data]
    rates = [rate for _, rate, _, _ in bars_data]
    labels = []
    for _, rate, top, program in bars_data:
        own = next((r for r in program if r["role"] == "ceiling"), None)
        # The ceiling's name up to its bracket: "cuBLAS BF16", the legend giving it in full.
        labels.append(rate_label(rate) + (f"\n{cut(100 * rate / float(own['rate']), 1)}% of its own\n"
                                          f"{own['variant'].split(' (')[0]}" if own else ""))
    problems = sorted({top["problem"] for _, _, top, _ in bars_data})
    bars = ax.bar(range(len(rates)), rates, color="#55a868", label=f"stages, on {'; '.join(problems)}")
    ax.bar_label(bars, labels=labels, fontsize=7)
    cublas = fastest_ceiling(gemm, prefix)
    if cublas:
        name, rate, runs = cublas
        ax.axhline(rate, color="#dd8452", linestyle="--", label=f"{name}, fastest of its {runs} runs ({rate_label(rate)})")
    peak = peak_gflops(rows, precision)
    if peak:
        peak *= factor
        ax.axhline(peak, color="#c44e52", linestyle=":", label=f"{peak_words} ({rate_label(peak)})")
    ax.set_ylim(0, 1.1 * max(rates + [cublas[1] if cublas else 0, peak or 0]))
    ax.set_xlim(-0.6, max(4, len(rates)) - 0.4)  # a lone bar as wide as the others
    ax.yaxis.set_major_formatter(matplotlib.ticker.StrMethodFormatter("{x:,.0f}"))
    ax.set_ylabel("GFLOP/s (linear scale)")
    ax.set_xticks(range(len(stages)), stages, fontsize=7)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper left")


def ladder_chart(rows, out):
    gemm = [r for r in rows if r["unit"] == "GFLOP/s"]
    parts = panels(gemm)
    name = ladder.gpu_name(rows) or "GPU"
    if len(parts) == 1:
        fig, ax = plt.subplots(figsize=(12, 6))
        fp32_panel(ax, gemm, rows, f"The GEMM ladder on {name}: best variant of each stage")
    else:
        # Bars of one width in every panel (at least four's room in a tensor-core one).
        widths = [len(best_bars(parts[0][0]))] + [max(4, len(best_bars(p))) for p, _ in parts[1:]]
        fig, axes = plt.subplots(1, len(parts), figsize=(19 + 4 * (len(parts) - 2), 6.5),
                                 width_ratios=widths)
        fp32_panel(axes[0], parts[0][0], rows,
                   f"The GEMM ladder on {name}, FP32 stages: best variant of each stage")
        for ax, (cores, words) in zip(axes[1:], parts[1:]):
            tensor_panel(ax, cores, rows, f"{name}, {words}" if words == TENSOR_PANEL else words,
                         words)
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
    """One panel, or two where tensor-core stages ran (their rates are another scale)."""
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
