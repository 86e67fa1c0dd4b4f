#!/usr/bin/env python3
"""Runs the stages of the ladder in order and prints what they measured.

The stage programs do the work; this script only runs them with --csv, shows progress,
and turns their rows into two tables (matrix product, transpose). Standard library only.

  python3 scripts/ladder.py                 every stage on the default problems, two tables
  python3 scripts/ladder.py --csv out.csv   the same, and every row in one CSV file
  python3 scripts/ladder.py --sweep DIR     GEMM 256..4096 and transposes 1024..16384 into
                                            DIR/sweep_gemm.csv and DIR/sweep_transpose.csv
The stages, their order and their arguments come from BUILD/stages.json (--build, default
build/), which configuring writes. Run scripts/run_all.sh to configure and build first.

Each GEMM row is a % of its own program's ceiling, named in the row: cuBLAS FP32 for the FP32
stages (Parts 1-3), cuBLAS BF16 for the BF16 tensor-core stages (Part 4), cuBLAS TF32 for the
TF32 stage (20), cuBLASLt FP8 for the FP8 stage (22). A stage that cannot run here (exit code
77: no GPU, or a GPU too old for it) is skipped with the reason it gives.
"""
import argparse
import csv
import io
import math
import os
import re
import subprocess
import sys
import textwrap
import time

import stages as manifest

GEMM = "gemm"
TRANSPOSE = "transpose"
ARTICLE_PROBLEM = (1920, 1280, 1024)  # m, n, k: A 1920x1024 * B 1024x1280
SKIPPED = 77
# What the tables read from each row (a ladder CSV also names the stage of each row).
COLUMNS = ("variant", "role", "problem", "median_ms", "rate")
NUMBERS = {"median_ms", "rate"}
# What names a tensor-core program (Part 4): its ceiling, "cuBLAS BF16 (FP32 accumulate)", the
# TF32 stage's, "cuBLAS TF32 (FP32 accumulate)", or the FP8 stage's, "cuBLASLt FP8 (E4M3, FP32
# accumulate)".
BF16 = "BF16"
TF32 = "TF32"
FP8 = "FP8"
# Where a reader whose machine skipped stages (no GPU) finds the tables measured on one (each
# row names its GPU in its device column).
COMMITTED = ("The skipped stages' tables, measured on a GPU, are committed in results/ "
             "(results/README.md lists them); print them with: "
             "python3 scripts/ladder.py --from-csv results/ladder_4096.csv")


class MissingInput(Exception):
    """A program or file the run needs is missing or unreadable: exit 2 with this line."""


def run_stage(stage, args, log):
    """Runs one program with --csv; returns (rows, skip_reason). Raises on failure."""
    program, path = stage.name, stage.program
    if not os.path.exists(path):
        raise MissingInput(f"no program {path}: build first (scripts/run_all.sh)")
    started = time.monotonic()
    log(f"  {program} {' '.join(args)} ... ")
    done = subprocess.run([path, "--csv", *args], capture_output=True, text=True)
    seconds = time.monotonic() - started
    if done.returncode == SKIPPED:
        reason = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "skipped"
        log(f"skipped ({seconds:.1f} s)\n")
        return [], reason.split("skipped: ", 1)[-1]
    if done.returncode != 0:
        log(f"FAILED with exit code {done.returncode}\n")
        sys.stderr.write(done.stdout + done.stderr)
        raise RuntimeError(f"{program} failed (exit code {done.returncode})")
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    if unreadable(rows, COLUMNS):
        log("no CSV rows\n")
        raise RuntimeError(f"{program} printed no CSV rows with the columns {', '.join(COLUMNS)}")
    log(f"ok ({seconds:.1f} s)\n")
    return rows, None


def unreadable(rows, columns):
    """Why the tables cannot use these rows (no rows, a column or a number missing), or ""."""
    if not rows:
        return "no rows"
    missing = [column for column in columns if column not in rows[0]]
    if missing:
        return "no column " + ", ".join(missing)
    for row in rows:
        for column in NUMBERS.intersection(columns):
            try:
                float(row[column])
            except (TypeError, ValueError):
                return f"{column} '{row[column]}' is not a number"
    return ""


def ceiling(rows):
    """A program's ceiling row: the first with the role ceiling (its every % refers to it), or
    None where it measured none (the CPU stages)."""
    return next((r for r in rows if r["role"] == "ceiling"), None)


def on_tensor_cores(rows):
    """Whether a program's rows are a tensor-core stage's: BF16 inputs against cuBLAS BF16, FP32
    inputs read as TF32 against cuBLAS TF32, or E4M3 inputs against cuBLASLt FP8."""
    top = ceiling(rows)
    return bool(top) and any(kind in top["variant"] for kind in (BF16, TF32, FP8))


def gpu_name(rows):
    """The GPU a run measured on, from the device column of its GPU rows ('NVIDIA H200 (sm_90,
    132 SMs, ...)' -> 'NVIDIA H200'), or None where every row ran on the CPU."""
    return next((r["device"].split(" (")[0] for r in rows if " SMs" in r["device"]), None)


def dimensions(problem):
    """'A 4096x4096 * B 4096x4096' (and any words after it) -> (4096, 4096, 4096, 4096): what
    two rows must share to be compared; the problem text itself where it names no matrices."""
    numbers = re.match(r"A (\d+)x(\d+) \* B (\d+)x(\d+)", problem)
    return tuple(int(x) for x in numbers.groups()) if numbers else problem


def best(rows):
    """The fastest row a stage itself measured (its baseline and ceiling rows aside)."""
    own = [r for r in rows if r["role"] == "stage"]
    return max(own, key=lambda r: float(r["rate"])) if own else None


def table(header, body):
    widths = [max(len(str(x)) for x in column) for column in zip(header, *body)]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"
    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), rule] + [line(r) for r in body])


def cut(value, decimals=0):
    """value with thousands separators, cut (never rounded up) to decimals places. Every
    percentage and ratio the tables, charts and generated notes print is cut: 99.96% of cuBLAS
    reads 99.9%, never 100.0%, and 2.039x reads 2.03x."""
    scale = 10 ** decimals
    # Toward zero, so that a small loss is not made bigger either (-0.0601 reads -0.06). The
    # nudge keeps a float just short of an exact figure there: 0.29 * 100 = 28.999999999999996
    # reads 29.0, not 28.9.
    nudge = 1e-9 if value >= 0 else -1e-9
    return f"{math.trunc(value * scale + nudge) / scale:,.{decimals}f}"


def ratio(value):
    """A speed ratio, cut: two decimals, or three within 1% of level, where two would turn a
    tie into a loss (0.99995 reads 0.999x, not 0.99x)."""
    return f"{cut(value, 3 if abs(value - 1) < 0.01 else 2)}x"


def percent(row, rows):
    """A transpose row's % of its own program's cudaMemcpy, from the two rates (the programs'
    own column is rounded), or "" where the program timed no cudaMemcpy."""
    memcpy = next((r for r in rows if r["variant"].startswith("cudaMemcpy")), None)
    return f"{cut(100 * float(row['rate']) / float(memcpy['rate']), 1)}%" if memcpy else ""


def rate_text(rate):
    return f"{rate:.1f}" if rate < 100 else f"{rate:.0f}"


# The 'vs previous stage' cell of a basis row: the row the other rows of its stage divide by.
BASIS = "basis of this stage's rows"
# Under the GEMM table: what 'vs previous stage' compares (what gemm_table does).
VS_LEGEND = ("vs previous stage: this row's GFLOP/s over that of the row it names (whose GFLOP/s "
             f"is in brackets). A row marked '{BASIS}' is an earlier stage's\nkernel run again "
             "by this stage's own program, on its inputs (rounded to BF16 in the BF16 and FP8 "
             "stages; as given, FP32, in the TF32 stage);\nthe rows after it name it by its "
             "variant. A stage whose program runs no "
             "such basis is compared with the previous stage's fastest row in the same run, "
             "named 'stage: variant'.\nRates are rounded; ratios and percentages are cut, never "
             "rounded up (2.039x reads 2.03x).")


def gemm_table(results):
    """'vs previous stage': against the previous stage's kernel run again in the same process
    (the program's baseline row) where there is one, else against the previous stage's best.
    The ratio names the row it divides by, and that row is in the table: the baseline row is
    shown first in its stage, marked BASIS, named by its variant, without ceiling cells (its own
    stage's row has them); the previous stage's best
    is named 'stage: variant'. VS_LEGEND under the table says so.
    'ceiling, same run' and '% of it': against the ceiling of the same program, named in the
    row (cuBLAS FP32 for an FP32 stage, cuBLAS BF16 for a BF16 tensor-core one, cuBLAS TF32 for
    the TF32 stage, cuBLASLt FP8 for the FP8 stage; never another),
    since cuBLAS itself varies by a few percent from one process to the next."""
    body = []
    previous = None  # the previous stage's best row: (its program, the row)
    ceilings = {}  # the ceiling's name -> its rate in each program that measured it

    def cells(program, row, variant, vs, top):
        named = [top["variant"], f"{float(top['rate']):.0f}",
                 f"{cut(100 * float(row['rate']) / float(top['rate']), 1)}%"] if top else ["", "", ""]
        return [program, variant, row["problem"], f"{float(row['median_ms']):.3f}",
                f"{float(row['rate']):.1f}", vs, *named]

    for program, rows in results:
        own = [r for r in rows if r["role"] == "stage"]
        baseline = next((r for r in rows if r["role"] == "baseline"), None)
        if baseline:
            # Shown in this stage under its own variant (marked where a row of the stage has it).
            name = baseline["variant"]
            if name in {r["variant"] for r in own}:
                name += " (basis)"
            reference = baseline
        elif previous:
            name = f"{previous[0]}: {previous[1]['variant']}"
            reference = previous[1]
        else:
            name, reference = "", None
        top = ceiling(rows)
        if top:
            ceilings.setdefault(top["variant"], []).append(float(top["rate"]))
        # Against the row it names, and only on the same problem (the CPU stages run a
        # smaller one at the larger sizes).
        compared = [reference and dimensions(reference["problem"]) == dimensions(row["problem"])
                    for row in own]
        if baseline and any(compared):
            # No ceiling cells: that kernel's own row, in its own stage, has them, and a second
            # percentage from another process would disagree with it by that process's spread.
            body.append(cells(program, baseline, name, BASIS, None))
        for row, same_problem in zip(own, compared):
            speedup = (f"{ratio(float(row['rate']) / float(reference['rate']))} vs "
                       f"{name} ({rate_text(float(reference['rate']))})" if same_problem else "")
            body.append(cells(program, row, row["variant"], speedup, top))
        previous = (program, best(rows)) if own else previous
    text = table(["stage", "variant", "problem", "median ms", "GFLOP/s", "vs previous stage",
                  "ceiling, same run", "its GFLOP/s", "% of it"], body)
    if any(row[5] for row in body):
        text += f"\n\n{VS_LEGEND}"
    for name, rates in ceilings.items():
        spread = (f"{rates[0]:.0f} GFLOP/s" if len(rates) == 1
                  else f"{min(rates):.0f} to {max(rates):.0f} GFLOP/s")
        text += (f"\n\n{name}, run once in each program it is the ceiling of "
                 f"({len(rates)}): {spread}.")
    return text


# The narrow tables' widest variant name: a row stays within NARROW_COLUMNS in a terminal.
NARROW_COLUMNS = 100
NARROW_VARIANT = 34


# Words the narrow table leaves out of a variant's name: the path, which the wide table gives.
PATH_WORDS = (", TMA path", ", 128-bit global path", ", scalar global path")


def short_variant(name):
    """A variant name without its path, its middle cut to NARROW_VARIANT characters and marked
    with '~', so that its start and its end (often the thread shape) both stay."""
    for words in PATH_WORDS:
        name = name.replace(words, "")
    if len(name) <= NARROW_VARIANT:
        return name
    keep = NARROW_VARIANT - 1
    return name[:keep - keep // 2] + "~" + name[len(name) - keep // 2:]


def narrow_gemm_table(results):
    """Each stage's own rows: its GFLOP/s and its % of the ceiling its own program measured,
    named in the cell. What a terminal shows by default; --wide prints gemm_table."""
    body = []
    for program, rows in results:
        top = ceiling(rows)
        for row in rows:
            if row["role"] != "stage":
                continue
            share = (f"{cut(100 * float(row['rate']) / float(top['rate']), 1)}% of "
                     f"{ceiling_name(top)}") if top else ""
            body.append([program, short_variant(row["variant"]), f"{float(row['rate']):.1f}",
                         share])
    return table(["stage", "variant", "GFLOP/s", "% of its ceiling"], body)


def ceiling_name(row):
    """A ceiling row's library and precision: 'cuBLAS SGEMM FP32' -> 'cuBLAS FP32';
    'cuBLAS BF16 (FP32 accumulate)' -> 'cuBLAS BF16'; 'cuBLAS TF32 (FP32 accumulate)' ->
    'cuBLAS TF32'; 'cuBLASLt FP8 (E4M3, FP32 accumulate)' -> 'cuBLASLt FP8'."""
    if FP8 in row["variant"]:
        return "cuBLASLt FP8"
    return next((f"cuBLAS {kind}" for kind in (BF16, TF32) if kind in row["variant"]),
                "cuBLAS FP32")


def gemm_title(results):
    """The GEMM table's title: what the inputs were, tensor-core rows (Part 4) included."""
    if any(on_tensor_cores(rows) for _, rows in results):
        return ("Matrix product, C = A * B (FP32; the rows against cuBLAS BF16: A and B rounded "
                "to BF16, FP32 accumulation; against cuBLAS TF32: A and B as given, read as TF32; "
                "against cuBLASLt FP8: A and B quantised to E4M3 with one scale each)")
    return "Matrix product, C = A * B (FP32)"


def transpose_table(results, narrow=False):
    """Each stage's own rows, then the ceilings of the last program that ran: its copies (what
    a kernel that moves the same bytes without transposing reaches) and cudaMemcpy. Narrow:
    without the problem and the time."""
    def cells(program, row, rows):
        if narrow:
            return [program, short_variant(row["variant"]), f"{float(row['rate']):.1f}",
                    percent(row, rows)]
        return [program, row["variant"], row["problem"], f"{float(row['median_ms']):.3f}",
                f"{float(row['rate']):.1f}", percent(row, rows)]

    body = [cells(program, row, rows) for program, rows in results for row in rows
            if row["role"] == "stage"]
    last = results[-1][1]
    copies = sorted((r for r in last if r["role"] == "ceiling"),
                    key=lambda r: r["variant"].startswith("cudaMemcpy"))
    body += [cells("(ceiling)", row, last) for row in copies]
    if narrow:
        return table(["stage", "variant", "GB/s", "% of cudaMemcpy"], body)
    return table(["stage", "variant", "problem", "median ms", "GB/s", "% of cudaMemcpy"], body)


def gemm_args(m, n, k):
    return ["--m", str(m), "--n", str(n), "--k", str(k)]


def run_ladder(options, log):
    m, n, k = options.m, options.n, options.k
    cpu_problem = (m, n, k)
    if m * n * k > ARTICLE_PROBLEM[0] * ARTICLE_PROBLEM[1] * ARTICLE_PROBLEM[2]:
        cpu_problem = ARTICLE_PROBLEM  # the naive CPU loop would take minutes per run
    results = {GEMM: [], TRANSPOSE: []}
    skipped = {}
    failed = []
    stages = manifest.load(options.build)
    for number, stage in enumerate(stages, 1):
        log(f"[{number}/{len(stages)}]")
        program, kind = stage.name, stage.problem_kind
        if kind == GEMM:
            args = gemm_args(*(cpu_problem if not stage.gpu else (m, n, k)))
            args += ["--reps", str(options.cpu_reps)] if not stage.gpu else []
        else:
            args = ["--rows", str(options.rows), "--cols", str(options.cols)]
        try:
            rows, reason = run_stage(stage, args + stage.ladder, log)
        except RuntimeError as error:
            failed.append(str(error))
            continue
        if reason:
            skipped.setdefault(reason, []).append((program, kind))
        elif rows:
            results[kind].append((program, rows))
    return results, skipped, failed, cpu_problem != (m, n, k)


def write_csv(path, rows):
    """The rows to path, through a file beside it renamed into place: a run killed while it
    writes leaves the file as it was."""
    if not rows:
        return
    columns = list(rows[0].keys())
    partial = path + ".partial"
    with open(partial, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(partial, path)


def sweep(options, log):
    gemm_sizes = [(s, s, s) for s in (256, 512, 1024, 2048, 4096)] + [ARTICLE_PROBLEM]
    transpose_sizes = [1024, 2048, 4096, 8192, 16384]
    gemm_rows, transpose_rows = [], []
    skipped = []
    for stage in manifest.load(options.build):
        if not stage.gpu:
            continue
        kind = stage.problem_kind
        sizes = gemm_sizes if kind == GEMM else [(s, s) for s in transpose_sizes]
        for size in sizes:
            args = gemm_args(*size) if kind == GEMM else ["--rows", str(size[0]), "--cols", str(size[1])]
            try:
                rows, reason = run_stage(stage, args + stage.ladder, log)
            except RuntimeError as error:
                log(f"sweep stopped: {error}\n")
                return 1
            if reason:
                # No GPU skips every stage; an older GPU only the stages that need a newer one.
                log(f"sweep: {stage.name} skipped: {reason}\n")
                skipped.append(stage.name)
                break
            (gemm_rows if kind == GEMM else transpose_rows).extend(rows)
    if not gemm_rows and not transpose_rows and skipped:
        log("sweep skipped: no stage ran\n")
        return SKIPPED
    os.makedirs(options.sweep, exist_ok=True)
    write_csv(os.path.join(options.sweep, "sweep_gemm.csv"), gemm_rows)
    write_csv(os.path.join(options.sweep, "sweep_transpose.csv"), transpose_rows)
    log(f"wrote {options.sweep}/sweep_gemm.csv and sweep_transpose.csv"
        + (f" without {', '.join(skipped)} (skipped)" if skipped else "") + "\n")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build",
                        help="build folder of a preset: build (default) or build-native")
    parser.add_argument("--m", type=int, default=ARTICLE_PROBLEM[0])
    parser.add_argument("--n", type=int, default=ARTICLE_PROBLEM[1])
    parser.add_argument("--k", type=int, default=ARTICLE_PROBLEM[2])
    parser.add_argument("--rows", type=int, default=8192, help="transpose rows")
    parser.add_argument("--cols", type=int, default=8192, help="transpose columns")
    parser.add_argument("--cpu-reps", type=int, default=3, help="timed runs of the CPU stages")
    parser.add_argument("--csv", help="also write every measured row to this CSV file")
    parser.add_argument("--sweep", metavar="DIR", help="run the size sweep into DIR instead")
    parser.add_argument("--from-csv", metavar="CSV",
                        help="print the tables of rows a ladder run wrote (--csv), running nothing")
    parser.add_argument("--wide", action="store_true",
                        help="every column: the problem, the time, each stage's baseline row and "
                             "its ratio to it, the ceiling's rate (wider than a terminal)")
    options = parser.parse_args()
    log = lambda text: (sys.stderr.write(text), sys.stderr.flush())

    try:
        if options.sweep:
            return sweep(options, log)
        if options.from_csv:
            results, cpu_smaller = from_csv(options.from_csv)
            return print_tables(results, cpu_smaller, {}, [], False, options.wide)
        results, skipped, failed, cpu_smaller = run_ladder(options, log)
    except MissingInput as error:
        log(f"\nladder.py: {error}\n")
        return 2
    status = print_tables(results, cpu_smaller, skipped, failed, True, options.wide)
    if options.csv:
        write_csv(options.csv, [r for kind in results.values() for _, rows in kind for r in rows])
    return status


def print_tables(results, cpu_smaller, skipped, failed, ran, wide=False):
    """Prints the two tables (and what was skipped or failed); returns the exit code."""
    print(tables_text(results, cpu_smaller, skipped, failed, ran, wide))
    return 1 if failed else 0


def tables_text(results, cpu_smaller, skipped=None, failed=(), ran=False, wide=False):
    """The two tables as markdown, with what was skipped or failed: what a run prints, and,
    from a committed run, what scripts/figures.py writes into results/ladder.md (wide). Narrow
    (the default): each stage's rows, their rate and their % of the ceiling, every line within
    NARROW_COLUMNS; wide: every column, the baseline rows and the ratios between stages."""
    skipped = skipped or {}
    out = []
    gemm = gemm_table if wide else narrow_gemm_table
    transpose = transpose_table if wide else lambda r: transpose_table(r, narrow=True)
    sections = [(GEMM, gemm_title(results[GEMM]), gemm),
                (TRANSPOSE, "Transpose, out = in^T (FP32)", transpose)]
    for kind, title, make_table in sections:
        if not results[kind]:
            if ran:
                # The reasons follow once, with the stages they skipped.
                any_skipped = any(entry_kind == kind for entries in skipped.values()
                                  for _, entry_kind in entries)
                why = "its stages were skipped (below)" if any_skipped else "no stage of this kind ran"
                out.append(f"{title}: no table, {why}")
            continue
        if not wide:
            title += f", {results[kind][-1][1][0]['problem']}"
        out += [title, make_table(results[kind])]
        if kind == GEMM and cpu_smaller:
            out.append(f"The CPU stages ran the smaller problem A {ARTICLE_PROBLEM[0]}x{ARTICLE_PROBLEM[2]} "
                       f"* B {ARTICLE_PROBLEM[2]}x{ARTICLE_PROBLEM[1]}"
                       + ("; 'vs previous stage' is left empty between different problems."
                          if wide else "."))
    for reason, entries in skipped.items():
        out.append(f"skipped: {reason} ({', '.join(program for program, _ in entries)})")
    if skipped:
        out.append(COMMITTED)
    if failed:
        out.append("FAILED: " + "; ".join(failed))
    if wide:
        return "\n\n".join(out)
    # Tables are at most NARROW_COLUMNS wide by construction; the prose around them is wrapped.
    return "\n\n".join(part if part.startswith("|") else
                        "\n".join(textwrap.fill(line, NARROW_COLUMNS, break_on_hyphens=False, break_long_words=False) for line in part.splitlines())
                        for part in out)


def read_rows(path, key, writer):
    """The rows of a CSV that `writer` wrote, each with a `key` column and the tables' columns,
    or MissingInput saying why they cannot be used."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise MissingInput(f"cannot read {path}: {error}")
    why = unreadable(rows, (key,) + COLUMNS)
    if why:
        raise MissingInput(f"{path} is not a CSV that {writer} wrote ({why})")
    return rows


def grouped(rows, key):
    """[(value, rows)]: consecutive rows with the same row[key], in their order."""
    groups = []
    for row in rows:
        if not groups or groups[-1][0] != row[key]:
            groups.append((row[key], []))
        groups[-1][1].append(row)
    return groups


def from_csv(path):
    """The results of a ladder run from the CSV it wrote: rows grouped by stage, in order."""
    rows = read_rows(path, "stage", "ladder.py --csv")
    results = {kind: grouped([r for r in rows if (r["problem"].endswith("floats")) ==
                              (kind == TRANSPOSE)], "stage") for kind in (GEMM, TRANSPOSE)}
    problems = {dimensions(row["problem"]) for _, rows in results[GEMM] for row in rows}
    return results, len(problems) > 1


if __name__ == "__main__":
    sys.exit(main())
