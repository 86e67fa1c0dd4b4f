#!/usr/bin/env python3
"""Writes every figure that the pages take from the committed runs: the full tables, the boxes.

  python3 scripts/figures.py           rewrite the generated sections in place
  python3 scripts/figures.py --check   change nothing; exit 1 naming each section that differs

The record is one run of the ladder per size (scripts/ladder.py --csv, on one GPU, which its
device column names): results/ladder_4096.csv at 4096^3 and results/ladder.csv on the articles'
problem, 1920x1280x1024 (the CPU stages run that problem in both). The boxes name that GPU.
Nsight Compute's SM clock and duration of each BF16 Part 4 kernel are in CLOCKS, measured on
the GPU that each file names: a clock figure (the % of the tensor pipe's ceiling at the clock
the kernel ran at) is given only where its file exists for the stage and names the record's
GPU, so that no sentence mixes two GPUs.

A generated section sits between `<!-- figures: NAME -->` and `<!-- /figures -->`:
  results/ladder.md (TABLES_PAGE), the full measured tables the README links to:
              'ladder 4096' and 'ladder articles': exactly what
              `ladder.py --wide --from-csv results/ladder_4096.csv` (or ladder.csv) prints;
              'part 4': the stages of PART4_KERNELS against cuBLAS BF16 (and, where the clock
              files allow, against the tensor pipe's ceiling); 'tf32 summary' and
              'fp8 summary' below;
  18_gpu_persistent/README.md, 19_gpu_clusters/README.md  'ablations': each row of the
              stage's `--config all` runs (results/NN_<stage>/bench_S.csv, ABLATION_STAGES) as a
              speed against its default in the same process, per square;
  NN_*/README.md  'box NN': the figures of the box's Measured line, followed by any figure the
              page adds from another file, which cites that file. The stream-K stage's box
              (SHAPES_STAGE) reports its run of the shape list (SHAPES_RECORD, scripts/shapes.py
              --csv); its notes' (SHAPES_NOTES) 'shapes' section is what `shapes.py --from-csv`
              prints of it, and their 'active sms' what scripts/active_sms.py prints of
              ACTIVE_SMS;
  20_gpu_tf32/README.md  'tf32': the TF32 stage against cuBLAS TF32 on each problem of
              TF32_RECORD; that page and TABLES_PAGE 'tf32 summary': the same at the three
              squares, in a sentence.
  22_gpu_fp8/README.md  'fp8': the FP8 stage's rows against cuBLASLt FP8 on each problem of
              FP8_RECORD, and its quantisation against cudaMemcpy; TABLES_PAGE's
              'fp8 summary': the default and the whole call at the three squares;
              'fp8 promotion' there and FP8.md's 'fp8 scaling': tables 2 and 3 of FP8_STUDY.
  21_gpu_stream_k/MODEL.md's sections ('model symbols', 'model by hand ...') are not this
              script's: scripts/stream_k_model.py --write writes them from the model's fit,
              and its --check-written finds them stale.
The chart (results/ladder.png) is scripts/plot.py's, from the same record. A test
(scripts/tests/test_figures.py) runs --check, so a section edited by hand, or a record changed
without rewriting its sections, fails.
"""
import argparse
import collections
import csv
import math
import os
import re
import statistics
import sys

import active_sms
import ladder
import ncu_profile
import shapes
from ladder import cut

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECORD_4096 = "results/ladder_4096.csv"
RECORD_ARTICLES = "results/ladder.csv"
# The page of the full tables, which the README links to instead of holding them.
TABLES_PAGE = "results/ladder.md"
CLOCKS = "results/clock_h100/stages_4096"
# mma.sync's rate alone (scripts/mma_peak.cu), whose first line names the GPU it ran on.
MMA_PEAK = "results/mma_peak.md"
# The stream-K stage is measured on the shapes people run: its box reports its run of the
# shape list.
SHAPES_STAGE = "21_gpu_stream_k"
SHAPES_RECORD = "results/21_gpu_stream_k/model_shapes.csv"
MODEL_PICKS = "results/21_gpu_stream_k/model_picks.csv"
# The shape-by-shape table is evidence: it sits in the stage's notes, the box on its page.
SHAPES_NOTES = "results/21_gpu_stream_k/notes.md"
ACTIVE_SMS = "results/21_gpu_stream_k/active_sms_h200.csv"
# The TF32 stage: one run of `20_gpu_tf32 --config all --csv` per problem
# (results/20_gpu_tf32/README.md), against cuBLAS TF32 in the same process.
TF32_STAGE = "20_gpu_tf32"
TF32_RECORD = "results/20_gpu_tf32"
TF32_PROBLEMS = (("2048^3", "tf32_2048.csv"), ("4096^3", "tf32_4096.csv"),
                 ("8192^3", "tf32_8192.csv"), ("2048x4096x4096", "tf32_2048x4096x4096.csv"))
TF32_PAGES = (TABLES_PAGE, "20_gpu_tf32/README.md")
# The FP8 stage: one run of `22_gpu_fp8 --config all --csv` per square (and of the default alone at
# 2048x4096x4096), against cuBLASLt FP8 in the same process (results/22_gpu_fp8/README.md).
FP8_STAGE = "22_gpu_fp8"
FP8_RECORD = "results/22_gpu_fp8"
FP8_PROBLEMS = (("2048^3", "bench_2048.csv"), ("4096^3", "bench_4096.csv"),
                ("8192^3", "bench_8192.csv"), ("2048x4096x4096", "bench_2048x4096x4096.csv"))
# The rows of the FP8 stage's table: (words, the row's variant in the CSV).
FP8_ROWS = (
    ("`by_size`: the model's tiling (section G), promoted every slice", "by_size, "),
    ("128 x 256 in pairs, in two parts, promoted every slice", "128x256_c2_promote1, "),
    ("the same tiles, never promoted (`128x256_c2_no_promotion`)", "128x256_c2_no_promotion, "),
    ("128 x 192 in pairs, in one part, promoted every slice", "128x192_c2_promote1, "),
    ("128 x 192 in pairs, promoted every 2 slices", "128x192_c2_promote2, "),
    ("128 x 192 in pairs, promoted every 4 slices", "128x192_c2_promote4, "),
    ("128 x 192 in pairs, never promoted", "128x192_c2_no_promotion, "),
    ("per-block scales (1 x 128 of A, 128 x 128 of B)", "per-block scales"),
    ("the whole call from FP32 (scales, E4M3 and B^T timed too)", "by_size from FP32"),
    ("cuBLASLt FP8, fast accumulation (sums kept longer in the tensor cores)",
     "cuBLASLt FP8, fast"),
    ("stage 19, BF16, on the same inputs rounded to BF16", "19 clusters (BF16)"),
)
# The error study's output (tests/fp8_error_study.cpp), whose tables 2 and 3 the pages quote.
FP8_STUDY = "results/22_gpu_fp8/fp8_error_study.txt"
# Table 2's kernels as the page names them: (words, the study's kernel name without the stage
# number in front of it, which a study older than the stages' renumbering gives as 20).
FP8_STUDY_ROWS = (("128 products (the default)", "by_size"),
                  ("256", "128x192_c2_promote2"), ("512", "128x192_c2_promote4"),
                  ("never", "128x192_c2_no_promotion"))
# The quantisation's rows (GB/s of bytes read and written, against cudaMemcpy of B's floats).
FP8_QUANTISATION_ROWS = (("B's scale (its largest magnitude: reads B)", "B's scale"),
                         ("B into E4M3, same layout", "B into E4M3, same layout"),
                         ("**B into E4M3 B^T** (transposing, the stage's pass)", "B into E4M3 B^T"))
SECTION = re.compile(r"<!-- figures: (?P<name>[^>]+?) -->(?P<body>.*?)<!-- /figures -->", re.S)
# Dense BF16 multiply-adds of one Hopper SM per clock, counted as FLOP (2 per multiply-add): 132
# SMs x 4,096 x 1.98 GHz is the 1,070.5 TFLOP/s of the programs' device line on an H100 or H200.
BF16_FLOP_PER_SM_CLOCK = 4096
# Each BF16 Part 4 stage of the 'part 4' table, by its own kernel's function name in Nsight
# Compute's list, and cuBLAS's.
PART4_KERNELS = {"13_gpu_wmma": "gemm_wmma", "14_gpu_mma_ldmatrix": "gemm_mma",
                 "15_gpu_mma_pipelined": "gemm_mma_pipelined", "16_gpu_tma_wgmma": "gemm_tma_wgmma",
                 "17_gpu_warp_specialized": "gemm_warp_specialized",
                 "18_gpu_persistent": "gemm_persistent", "19_gpu_clusters": "gemm_persistent"}
CUBLAS_KERNEL = "nvjet"
# Where a box's figures come from: the record's section of results/README.md, which names the
# files (the two ladder runs and the clock files) and how they were made. A box names the GPU
# beside it.
RECORD_LINK = "[the record](../results/README.md#the-record)"
# A box reports its stage's fastest row, except where the lesson is another row, with a second
# row beside it: stage 05's manual unrolling against none (the rows match within 0.1%).
BOX_ROWS = {"05_gpu_unrolled": ("manual x4", "unroll 1")}


def load(path):
    """A committed ladder run as ladder.from_csv reads it: {GEMM or TRANSPOSE: [(stage, rows)]}
    in order, and whether its CPU stages ran a smaller problem."""
    return ladder.from_csv(os.path.join(ROOT, path))


def kernel_function(name):
    """'void ladder::<unnamed>::gemm_mma<mma::WarpTile<...>>(...)' -> 'gemm_mma'."""
    return ncu_profile.short_name(name).split("<")[0]


# What Nsight Compute measured of a stage's program at 4096^3: its own kernel's SM clock in GHz
# and % of the tensor pipe's ceiling at that clock, cuBLAS's %, and the GPU's SM count.
Clock = collections.namedtuple("Clock", "ghz of_pipe cublas_of_pipe sms")


def clock(stage, gpu):
    """The stage's Clock, from Nsight Compute: medians over the launches, each launch's rate
    divided by the ceiling at that launch's own clock; or None where CLOCKS has no file of the
    stage, or its file was measured on another GPU than gpu (the record's), whose clock says
    nothing of this one. The problem, the GPU and the SM count are read from the program's own
    lines in the file."""
    path = os.path.join(ROOT, CLOCKS, stage + ".txt")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        text = f.read()
    device = re.search(r"^on (.+?) \(sm_\w+, (\d+) SMs", text, re.M)
    if device is None:
        raise ladder.MissingInput(f"{path} names no device")
    if device[1] != gpu:
        return None
    sms = int(device[2])
    m, k, _, n = ladder.dimensions(re.search(r"A \d+x\d+ \* B \d+x\d+", text)[0])
    launches = {}
    for row in csv.DictReader(line for line in text.splitlines() if line.startswith('"')):
        key = (kernel_function(row["Kernel Name"]), row["ID"])
        launches.setdefault(key, {})[row["Metric Name"]] = ncu_profile.number(row["Metric Value"])

    def medians(function):
        chosen = [launch for (name, _), launch in launches.items()
                  if name == function or (function == CUBLAS_KERNEL and name.startswith(function))]
        if not chosen:
            raise ladder.MissingInput(f"{path} has no launch of {function}")
        ghz = [launch["sm__cycles_elapsed.avg.per_second"] / 1e9 for launch in chosen]
        tflops = [2 * m * n * k / launch["gpu__time_duration.sum"] / 1e3 for launch in chosen]
        return (statistics.median(ghz),
                statistics.median(100 * t / ceiling_at(g, sms) for t, g in zip(tflops, ghz)))

    ghz, of_pipe = medians(PART4_KERNELS[stage])
    return Clock(ghz, of_pipe, medians(CUBLAS_KERNEL)[1], sms)


def ceiling_at(ghz, sms):
    """The tensor pipe's dense BF16 ceiling in TFLOP/s at this SM clock."""
    return sms * BF16_FLOP_PER_SM_CLOCK * ghz / 1e3


def sources(gpu):
    """What a box's record figures cite: the GPU the record ran on, and the record."""
    return f"{gpu}, {RECORD_LINK}"


def of_ceiling(rows, row):
    return cut(100 * float(row["rate"]) / float(ladder.ceiling(rows)["rate"]), 1)


def rate_words(row, tensor):
    rate = float(row["rate"])
    if tensor:
        return f"{rate / 1e3:,.1f} TFLOP/s"
    return f"{rate:,.0f} GFLOP/s" if rate >= 100 else f"{rate:.1f} GFLOP/s"


def number(stage):
    return stage.split("_")[0]


def box_row(stage, rows, which=0):
    """The row a box reports: the fastest the stage measured, or the one BOX_ROWS names."""
    if stage not in BOX_ROWS:
        return ladder.best(rows)
    return next(r for r in rows if r["role"] == "stage" and r["variant"].startswith(BOX_ROWS[stage][which]))


def variant_words(row):
    """A variant without the path it took, which the stage's page explains: 'wmma 128x128x32'."""
    return re.sub(r", (128-bit global|TMA) path$", "", row["variant"])


def articles_words(stage, articles, row):
    """The same variant's % of its ceiling on the articles' problem, or, where the stage ran
    another one there (a tiling picked by size), that one's, named."""
    small = dict(articles)[stage]
    same = next((r for r in small if r["role"] == "stage" and r["variant"] == row["variant"]), None)
    if same:
        return f"{of_ceiling(small, same)}%"
    other = box_row(stage, small)
    return f"{of_ceiling(small, other)}% with {variant_words(other)}"


def gemm_box(stage, record, articles, previous, gpu):
    """The measured figures of a GEMM stage on gpu (the record's): its fastest row at 4096^3,
    against the kernel it improves on and against its ceiling, and its % on the articles'
    problem."""
    rows = dict(record)[stage]
    best = box_row(stage, rows)
    tensor = ladder.on_tensor_cores(rows)
    if number(stage) in ("01", "02"):
        text = (f"{rate_words(best, False)} ({float(best['median_ms']):,.0f} ms) on "
                f"{best['problem']}, one core of the GPU machine's host")
        if previous:
            before = ladder.best(dict(record)[previous])
            text += f", {ladder.ratio(float(best['rate']) / float(before['rate']))} stage {number(previous)}"
        return text + f" ({RECORD_LINK})"
    basis = next((r for r in rows if r["role"] == "baseline"), None)
    if basis:
        # The basis's variant starts with its stage's number: '04 square tile 32'.
        against = f"{ladder.ratio(float(best['rate']) / float(basis['rate']))} stage {basis['variant'].split()[0]}"
    else:
        first = next(r for r in rows if r["role"] == "stage")
        against = f"{ladder.ratio(float(best['rate']) / float(first['rate']))} `{first['variant']}`"
    text = (f"4096^3, {variant_words(best)}: {rate_words(best, tensor)}, {against} and "
            f"{of_ceiling(rows, best)}% of {ladder.ceiling_name(ladder.ceiling(rows))} in the same program")
    if stage in BOX_ROWS:
        other = box_row(stage, rows, 1)
        text += (f"; {variant_words(other)}: {rate_words(other, tensor)}, "
                 f"{ladder.ratio(float(other['rate']) / float(best['rate']))}")
    measured = clock(stage, gpu) if stage in PART4_KERNELS else None
    if measured:
        text += (f"; {cut(measured.of_pipe, 1)}% of the tensor pipe's ceiling at the "
                 f"{measured.ghz:.2f} GHz it ran at (Nsight Compute, its own run)")
    return (text + f"; the articles' problem: {articles_words(stage, articles, best)} "
            f"({sources(gpu)})")


def shapes_box(stage, record, gpu):
    """The stream-K stage's figures: its default over the committed run of the shape list,
    against cuBLAS BF16 and against the baseline in the same programs (the stage before, named
    as the run names it), on the GPU of that run; then at 4096^3 on gpu (the record's)."""
    run = shapes.from_csv(os.path.join(ROOT, SHAPES_RECORD))
    per_shape = shapes.per_shape(run)
    own = [(s["percent"], s["name"]) for s in per_shape]
    base = [s["baseline"] for s in per_shape]
    baseline = next(r["variant"] for r in run[0][1] if r["role"] == "baseline")
    low = min(own)
    rows = dict(record)[stage]
    best = box_row(stage, rows)
    # A shape whose default or ceiling row is noisy (median over shapes.NOISY x its fastest
    # run) can move the mean alone: the box gives the mean without such shapes too.
    noisy = {s["name"] for s in per_shape for r in (s["own"], s["top"])
             if float(r["median_ms"]) > shapes.NOISY * float(r["min_ms"])}
    steady = [p for p, name in own if name not in noisy]
    steady_base = [b for b, (_, name) in zip(base, own) if name not in noisy]
    without = (f"; {cut(shapes.geomean(steady), 1)}% without {', '.join(sorted(noisy))}, "
               f"whose rows were noisy, `{baseline}` there "
               f"{cut(shapes.geomean(steady_base), 1)}%" if noisy else "")
    return (f"over the {len(own)} shapes of `scripts/model_shapes.csv`, "
            f"{cut(shapes.geomean([p for p, _ in own]), 1)}% of cuBLAS BF16 (geometric mean, "
            f"`{baseline}` in the same programs {cut(shapes.geomean(base), 1)}%{without}), lowest "
            f"{cut(low[0], 1)}% ({low[1]}) ({ladder.gpu_name(run[0][1])}, `{SHAPES_RECORD}`); "
            f"in the ladder's run at 4096^3{square_pick()}: {rate_words(best, True)}, "
            f"{of_ceiling(rows, best)}% of cuBLAS BF16 ({sources(gpu)})")


def square_pick():
    """What by_shape runs at 4096^3 on the H200's counts, from the picks the model's script
    records: stage 19's kernel, or a variant by name."""
    with open(os.path.join(ROOT, MODEL_PICKS)) as f:
        pick = next(r["pick"] for r in csv.DictReader(f)
                    if (r["m"], r["n"], r["k"]) == ("4096", "4096", "4096"))
    return f", where `by_shape` runs {f'`{pick}`' if pick else 'stage 19' + chr(39) + 's kernel'}"


def transpose_box(stage, record, previous, gpu):
    """A transpose's % of cudaMemcpy with each thread layout, and its gain on the stage
    before with the 32x8 layout."""
    rows = [r for r in dict(record)[stage] if r["role"] == "stage"]
    parts = []
    for row in rows:
        layout = row["variant"].split(", ")[-1]
        parts.append(f"{layout} {ladder.percent(row, dict(record)[stage])} of `cudaMemcpy` "
                     f"({float(row['rate']):,.0f} GB/s)")
    text = f"{rows[0]['problem'].replace(' floats', '')}, tile 32: " + ", ".join(parts)
    if previous:
        four_per_thread = lambda rs: next(r for r in rs if r["role"] == "stage"
                                          and r["variant"].endswith("32x8 threads"))
        ratio = (float(four_per_thread(rows)["rate"])
                 / float(four_per_thread(dict(record)[previous])["rate"]))
        text += f"; with 32x8 threads {ladder.ratio(ratio)} stage {number(previous)}"
    return text + f" ({sources(gpu)})"


def part4_table(record, articles, gpu):
    """The stages of PART4_KERNELS at 4096^3 on gpu (the record's): against cuBLAS BF16 in the
    same program, and, where Nsight Compute's clock was measured on that GPU, against the
    tensor pipe's BF16 FLOP ceiling at the clock it measured for the kernel."""
    stages = [(stage, rows) for stage, rows in record if stage in PART4_KERNELS]
    clocks = {stage: clock(stage, gpu) for stage, _ in stages}
    timed = [c for c in clocks.values() if c]
    header = ["stage", "TFLOP/s", "% of cuBLAS BF16, same program"]
    if timed:
        header += ["SM clock (Nsight Compute)", "% of the tensor pipe's ceiling at that clock"]
    header.append("the articles' problem: % of cuBLAS BF16")
    body = []
    for stage, rows in stages:
        best = ladder.best(rows)
        cells = [f"[{stage}](../{stage}/README.md)", f"{float(best['rate']) / 1e3:,.1f}",
                 f"{of_ceiling(rows, best)}%"]
        if timed:
            measured = clocks[stage]
            cells += ([f"{measured.ghz:.2f} GHz", f"{cut(measured.of_pipe, 1)}%"] if measured
                      else ["-", "-"])
        body.append(cells + [articles_words(stage, articles, best)])
    text = ladder.table(header, body)
    if not timed:
        return text + (f"\n\nNsight Compute's clock of these kernels (`{CLOCKS}/`) was not "
                       f"measured on the {gpu}, so the table gives no % of the tensor pipe's "
                       "ceiling at the clock they ran at.")
    cublas = [c.cublas_of_pipe for c in timed]
    return text + (f"\n\nThe tensor pipe's ceiling at clock f is {timed[0].sms} SMs x 4,096 dense "
                   "BF16 FLOP per SM and clock x f. Its column is the median, over Nsight "
                   "Compute's own launches of the kernel (one at a time, a separate run from the "
                   "TFLOP/s column's), of each launch's rate over the ceiling at that launch's "
                   "clock. cuBLAS's kernel, profiled in each of these programs, reaches "
                   f"{cut(min(cublas), 1)}-{cut(max(cublas), 1)}% of it." + mma_peak_words(gpu))


def mma_peak_words(gpu):
    """The mma.sync stages' own ceiling, where MMA_PEAK was measured on gpu too."""
    with open(os.path.join(ROOT, MMA_PEAK)) as f:
        measured_on = f.readline().split(" (")[0].strip()
    if measured_on != gpu:
        return ""
    return (" The `mma.sync` stages have a lower ceiling of their own: at most 60.6% of the BF16 "
            f"peak at 1.98 GHz (`{MMA_PEAK}`).")


def tf32_rows(name):
    """One run of the TF32 record."""
    return ladder.read_rows(os.path.join(ROOT, TF32_RECORD, name), "stage",
                            f"{TF32_STAGE} --config all --csv")


def tf32_percents(name):
    """One TF32 run's rows as % of cuBLAS TF32: the default (B as given), the transposing
    default (B^T by stage 08 in the call), its product alone, and cuBLAS's time in us."""
    rows = tf32_rows(name)
    top = ladder.ceiling(rows)

    def percent(start):
        return shapes.percent_of(next(r for r in rows if r["variant"].startswith(start)), top)
    return (percent("by_size, B as given"), percent("transposed_by_size, B^T by stage 08"),
            percent("transposed_by_size, B^T given"), 1000 * float(top["median_ms"]))


def tf32_table():
    """The TF32 stage's table: every problem of the TF32 record."""
    lines = ["| M x N x K | B as given (the default) | B^T by stage 08 in the call (ablation) "
             "| the product from B^T alone | cuBLAS TF32 |", "|---|---|---|---|---|"]
    for problem, name in TF32_PROBLEMS:
        given, transposed, product, cublas_us = tf32_percents(name)
        lines.append(f"| {problem} | **{cut(given, 1)}%** | {cut(transposed, 1)}% | "
                     f"{cut(product, 1)}% | {cut(cublas_us, 1)} us |")
    return "\n".join(lines)


# The ablation runs of the stages whose page tabulates them: one `--config all` run per square,
# named bench_S.csv in the stage's results folder.
ABLATION_STAGES = ("18_gpu_persistent", "19_gpu_clusters")
ABLATION_SIZES = (2048, 4096, 8192)


def ablation_table(stage):
    """Each row of a stage's ablation runs as a speed against the stage's default in the same
    process (its time over theirs: above 1x is faster than the default), per square."""
    runs = {}  # size -> {variant: row}
    for size in ABLATION_SIZES:
        path = os.path.join(ROOT, "results", stage, f"bench_{size}.csv")
        rows = ladder.read_rows(path, "stage", f"{stage} --config all --csv")
        runs[size] = {row["variant"]: row for row in rows}
    first = list(runs[ABLATION_SIZES[0]].values())
    default = next((r["variant"] for r in first if r["role"] == "stage"), None)
    lines = ["| row | " + " | ".join(f"{size}^3" for size in ABLATION_SIZES) + " |",
             "|---|" + "---|" * len(ABLATION_SIZES)]
    for row in first:
        cells = []
        for size, by_variant in runs.items():
            if default not in by_variant or row["variant"] not in by_variant:
                raise ladder.MissingInput(f"results/{stage}/bench_{size}.csv lacks the default or "
                                          f"'{row['variant']}', which bench_{ABLATION_SIZES[0]}"
                                          ".csv has")
            speed = (float(by_variant[default]["median_ms"])
                     / float(by_variant[row["variant"]]["median_ms"]))
            cells.append(ladder.ratio(speed))
        words = row["variant"].split(", TMA path")[0]
        if row["variant"] == default:
            words = f"**{words}** (the default)"
        elif row["role"] != "stage":
            words = f"{words} ({row['role']})"
        lines.append(f"| {words} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + (f"\n\nEach column is one process on the {ladder.gpu_name(first)} "
                               f"(`results/{stage}/bench_S.csv`); speeds are the default's median "
                               "time over the row's, so a row above 1x ran faster than the default.")


def tf32_summary():
    """The TF32 figures the full tables and the TF32 stage's page quote: the three squares, on the
    GPU that the record names."""
    squares = [tf32_percents(name) for _, name in TF32_PROBLEMS[:3]]
    gpu = ladder.gpu_name(tf32_rows(TF32_PROBLEMS[0][1]))
    given = ", ".join(f"{cut(p[0], 1)}%" for p in squares)
    transposed = ", ".join(f"{cut(p[1], 1)}%" for p in squares)
    return (f"{given} of cuBLAS TF32 at 2048^3, 4096^3 and 8192^3 with B as given, everything "
            f"timed (B transposed first: {transposed}; {gpu}, `{TF32_RECORD}/`)")


def fp8_rows(name):
    """One run of the FP8 record: its rows, and its ceiling (cuBLASLt FP8)."""
    rows = ladder.read_rows(os.path.join(ROOT, FP8_RECORD, name), "stage", "22_gpu_fp8 --csv")
    return rows, ladder.ceiling(rows)


def fp8_cell(rows, start, top):
    """A row's % of the run's ceiling of its unit, or a dash where the run has no such row."""
    row = next((r for r in rows if r["variant"].startswith(start)), None)
    if row is None:
        return "-"
    ceiling = next(r for r in rows if r["role"] == "ceiling" and r["unit"] == row["unit"])
    return f"{cut(shapes.percent_of(row, ceiling), 1)}%"


def fp8_table():
    """The FP8 stage's page: every row of the record as % of cuBLASLt FP8 in the same run."""
    runs = [fp8_rows(name) for _, name in FP8_PROBLEMS]
    problems = " | ".join(p for p, _ in FP8_PROBLEMS)
    lines = [f"| % of cuBLASLt FP8 in the same run | {problems} |",
             "|---" * (len(FP8_PROBLEMS) + 1) + "|",
             "| cuBLASLt FP8 itself, TFLOP/s | " +
             " | ".join(f"{float(top['rate']) / 1e3:,.1f}" for _, top in runs) + " |"]
    for words, start in FP8_ROWS:
        cells = [fp8_cell(rows, start, top) for rows, top in runs]
        lines.append(f"| {words} | " + " | ".join(cells) + " |")
    squares = FP8_PROBLEMS[:3]
    lines += ["", "| % of cudaMemcpy of B's floats (GB/s, bytes read and written) | " +
              " | ".join(p.replace("^3", "^2") for p, _ in squares) + " |",
              "|---" * (len(squares) + 1) + "|"]
    for words, start in FP8_QUANTISATION_ROWS:
        cells = [fp8_cell(rows, start, top) for rows, top in runs[:3]]
        lines.append(f"| {words} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def sci(value):
    """A positive number with two decimals of its significand, cut like every figure:
    8.106e-04 -> '8.10e-4', 0.2585 -> '2.58e-1'."""
    exponent = math.floor(math.log10(value))
    return f"{cut(value / 10 ** exponent, 2)}e{exponent}"


def fp8_study():
    """Tables 2 and 3 of the error study: {(family words, kernel name without its stage
    number): [errors by K]}, the Ks, and [(outlier, per tensor, per block)]."""
    with open(os.path.join(ROOT, FP8_STUDY)) as f:
        lines = f.read().splitlines()
    promotion, depths, scaling = {}, [], []
    family = None
    for index, line in enumerate(lines):
        heading = re.match(r"2\. worst .*?, (.+), M = N = \d+$", line)
        if heading:
            family = heading[1]
            depths = [int(k) for k in lines[index + 1].split()[3:]]
            continue
        if line.startswith("3. "):
            family = "scaling"
            continue
        numbers = re.findall(r"[0-9.]+e[-+][0-9]+", line)
        if family == "scaling" and len(numbers) == 2:
            scaling.append((line.split()[0], *(float(x) for x in numbers)))
        elif family and family != "scaling" and numbers:
            name = re.sub(r"^\d+ ", "", line[:line.index(numbers[0])].strip())
            promotion[(family, name)] = [float(x) for x in numbers]
    if not promotion or not scaling:
        raise ladder.MissingInput(f"{FP8_STUDY} has no promotion or scaling table")
    return promotion, depths, scaling


def fp8_promotion_table():
    """The FP8 stage's page: the worst error per unit of magnitude against K, by promotion
    window."""
    promotion, depths, _ = fp8_study()
    lines = ["| promoted every | inputs | " + " | ".join(f"K = {k:,}" for k in depths) + " |",
             "|---|---|" + "---|" * len(depths)]
    for family, words in (("all positive [0,1)", "all positive"), ("uniform [-1,1)", "uniform")):
        for window, name in FP8_STUDY_ROWS:
            if (family, name) in promotion and (family == "all positive [0,1)" or
                                                 window in ("128 products (the default)", "never")):
                cells = " | ".join(sci(e) for e in promotion[(family, name)])
                lines.append(f"| {window} | {words} | {cells} |")
    return "\n".join(lines)


def fp8_scaling_table():
    """The primer: per tensor against per block, by the outlier's factor."""
    _, _, scaling = fp8_study()
    lines = ["| outlier | per tensor | per block |", "|---|---|---|"]
    for outlier, tensor, block in scaling:
        lines.append(f"| {float(outlier):,.0f} | {sci(tensor)} | {sci(block)} |")
    return "\n".join(lines)


def fp8_summary():
    """The FP8 figures the full tables quote: the default at the three squares, on the GPU that
    the record names."""
    runs = [fp8_rows(name) for _, name in FP8_PROBLEMS[:3]]
    default = ", ".join(fp8_cell(rows, "by_size, ", top) for rows, top in runs)
    whole = ", ".join(fp8_cell(rows, "by_size from FP32", top) for rows, top in runs)
    return (f"{default} of cuBLASLt FP8 at 2048^3, 4096^3 and 8192^3, E4M3 operands given "
            f"(the whole call from FP32, quantisation included: {whole}; "
            f"{ladder.gpu_name(runs[0][0])}, "
            f"`{FP8_RECORD}/`)")


def sections():
    """Every generated section: {(file, name): text}."""
    big, small = load(RECORD_4096), load(RECORD_ARTICLES)
    out = {(TABLES_PAGE, "ladder 4096"): ladder.tables_text(*big, wide=True),
           (TABLES_PAGE, "ladder articles"): ladder.tables_text(*small, wide=True)}
    # The boxes look a stage up by name among every stage of a run.
    record = big[0][ladder.GEMM] + big[0][ladder.TRANSPOSE]
    articles = small[0][ladder.GEMM] + small[0][ladder.TRANSPOSE]
    gpu = ladder.gpu_name([row for _, rows in record for row in rows])
    if gpu is None:
        raise ladder.MissingInput(f"{RECORD_4096} has no row measured on a GPU")
    out[(TABLES_PAGE, "part 4")] = part4_table(record, articles, gpu)
    out[(SHAPES_NOTES, "shapes")] = shapes.table(
        shapes.from_csv(os.path.join(ROOT, SHAPES_RECORD)))
    out[(SHAPES_NOTES, "active sms")] = active_sms.table(
        active_sms.read(os.path.join(ROOT, ACTIVE_SMS)))
    out[(os.path.join(TF32_STAGE, "README.md"), "tf32")] = tf32_table()
    for stage in ABLATION_STAGES:
        out[(os.path.join(stage, "README.md"), "ablations")] = ablation_table(stage)
    for page in TF32_PAGES:
        out[(page, "tf32 summary")] = tf32_summary()
    out[(os.path.join(FP8_STAGE, "README.md"), "fp8")] = fp8_table()
    out[(os.path.join(FP8_STAGE, "README.md"), "fp8 promotion")] = fp8_promotion_table()
    out[(os.path.join(FP8_STAGE, "FP8.md"), "fp8 scaling")] = fp8_scaling_table()
    out[(TABLES_PAGE, "fp8 summary")] = fp8_summary()
    for kind in (ladder.GEMM, ladder.TRANSPOSE):
        order = [stage for stage, _ in big[0][kind]]
        for index, stage in enumerate(order):
            previous = order[index - 1] if index else None
            if stage == SHAPES_STAGE:
                box = shapes_box(stage, record, gpu)
            elif kind == ladder.GEMM:
                box = gemm_box(stage, record, articles, previous, gpu)
            else:
                box = transpose_box(stage, record, previous, gpu)
            out[(os.path.join(stage, "README.md"), f"box {number(stage)}")] = box
    return out


def filled(text, wanted, where):
    """text with each generated section holding wanted[NAME], in the text's own line endings: a
    body of several lines (a table) on lines of its own, one line (a box's words) on the marker's
    line. MissingInput where `where` lacks a section's markers or has markers nothing writes."""
    found = {m["name"] for m in SECTION.finditer(text)}
    missing = sorted(set(wanted) - found)
    if missing:
        raise ladder.MissingInput(f"{where} has no markers for {', '.join(missing)}")
    unknown = sorted(found - set(wanted))
    if unknown:
        raise ladder.MissingInput(f"{where} has markers that nothing writes: {', '.join(unknown)}")
    eol = "\r\n" if "\r\n" in text else "\n"

    def fill(match):
        body = wanted[match["name"]]
        if "\n" in body:
            body = eol * 2 + body.replace("\n", eol) + eol * 2
        return f"<!-- figures: {match['name']} -->{body}<!-- /figures -->"

    return SECTION.sub(fill, text)


def rewrite(check):
    """Puts each section into its file (or, with check, only compares); returns the names of
    the sections that differed, and raises where a file lacks a section's markers."""
    by_file = {}
    for (path, name), text in sections().items():
        by_file.setdefault(path, {})[name] = text
    differ = []
    for path, wanted in by_file.items():
        full = os.path.join(ROOT, path)
        with open(full) as f:
            old = f.read()
        new = filled(old, wanted, path)
        differ += [f"{path}: {a['name']}" for a, b in
                   zip(SECTION.finditer(old), SECTION.finditer(new)) if a["body"] != b["body"]]
        if new != old and not check:
            with open(full, "w") as f:
                f.write(new)
    return differ


def main():
    global ROOT
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if a generated section differs")
    parser.add_argument("--root", default=ROOT,
                        help="the repository to read and write (default: this script's)")
    options = parser.parse_args()
    ROOT = options.root
    try:
        differ = rewrite(options.check)
    except (ladder.MissingInput, OSError) as error:
        print(f"figures.py: {error}", file=sys.stderr)
        return 2
    for name in differ:
        print(("differs from the record: " if options.check else "rewritten: ") + name)
    return 1 if differ and options.check else 0


if __name__ == "__main__":
    sys.exit(main())
