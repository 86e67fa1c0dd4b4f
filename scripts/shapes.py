#!/usr/bin/env python3
"""Runs one tensor-core stage over the matrix products people run and prints its % of its
ceiling on each (cuBLAS BF16; cuBLASLt FP8 for stage 22): the benchmark list that stage 21
(stream-K) is measured on.

  python3 scripts/shapes.py                        stage 19's default on every shape
  python3 scripts/shapes.py --stage NAME --csv out.csv
  python3 scripts/shapes.py --stage 21_gpu_stream_k --config all
  python3 scripts/shapes.py --from-csv FILE        print the table of a run, running nothing
  python3 scripts/shapes.py --stage 22_gpu_fp8 --no-oracle   FP8 per tensor (its other rows
                                                   are other recipes, not choices)

The shapes are scripts/model_shapes.csv (name, m, n, k): large squares, one that is not a
whole number of 128-byte lines (4040^3), the four matrix products of a Llama-3-8B layer at
512, 2048 and 8192 tokens, and two sizes off the tile grid. Each shape is one process of the
stage's program: its default variant and cuBLAS BF16 (FP32 accumulate), both timed there, L2
flushed, the median of --reps runs; the % divides the two. The table ends with the geometric
mean and the lowest. With --config all (every variant in each process) the table adds the best
of the other variants and the baseline on each shape (the oracle); where the program runs a
baseline (stage 21: stage 19's default), its % too; the summary then compares the default with
both, and names rows whose median is more than 1.15x their fastest run (--shapes names another
list: scripts/model_shapes_more.csv, model_shapes_heldout.csv, and model_shapes_unseen.csv,
31 shapes of other model families and odd sizes that no rule was fitted to). Exit codes: 0 done; 1 a
program failed; 2 a program or file is missing; 77 the stage cannot run here (no GPU, or one
too old), with its reason.
"""
import argparse
import csv
import math
import os
import sys

import ladder
import stages as manifest

SHAPES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "model_shapes.csv")
# The reference on the shape list: stage 19, persistent blocks in clusters of two.
DEFAULT_STAGE = "19_gpu_clusters"


def read_shapes(path):
    """[(name, m, n, k)] from the list, or MissingInput saying what is wrong with it."""
    try:
        with open(path, newline="") as f:
            return [(r["name"], int(r["m"]), int(r["n"]), int(r["k"])) for r in csv.DictReader(f)]
    except (OSError, KeyError, ValueError, csv.Error) as error:
        raise ladder.MissingInput(f"cannot read the shape list {path}: {error}")


def measured(rows):
    """(the stage's default row, the ceiling row) of one program's output."""
    own = next((r for r in rows if r["role"] == "stage"), None)
    top = ladder.ceiling(rows)
    if own is None or top is None:
        raise RuntimeError("a program printed no stage row or no ceiling row")
    return own, top


# A row's median this far above its fastest run says the GPU was disturbed while it ran (the
# runs of one row follow each other within milliseconds): the summary names such rows. A row
# slowed throughout its runs escapes it.
NOISY = 1.15


def percent_of(row, top):
    return 100 * float(row["rate"]) / float(top["rate"])


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def per_shape(results, oracle=True):
    """For each (shape name, rows) of a run, what the tables take from it: the default's row,
    the ceiling's row and the default's % of it; where the program ran a baseline (the stage
    before, in the same program), its %; and where it ran several variants (--config all), the
    best of the default's choices, the oracle: the other variants and the baseline (stage 21's
    default may run stage 19's), never the default itself. None where the program ran none."""
    shapes = []
    for name, rows in results:
        if ladder.ceiling(rows) is None and any(r["role"] == "stage" for r in rows):
            continue  # the library refused the shape (cuBLASLt FP8 on sizes not whole 16s): table()
        own, top = measured(rows)
        base = next((r for r in rows if r["role"] == "baseline"), None)
        choices = [r for r in rows if r["role"] == "stage"][1:]
        best = None
        if choices and oracle:
            best = max(choices + ([base] if base else []), key=lambda r: float(r["rate"]))
        shapes.append({"name": name, "own": own, "top": top, "percent": percent_of(own, top),
                       "baseline": percent_of(base, top) if base else None, "best": best,
                       "oracle": percent_of(best, top) if best else None})
    return shapes


def table(results, oracle=True):
    """The table of [(shape name, rows)] and its summary lines: the baseline's % and the oracle
    (per_shape; none where oracle is False) are columns where every program measured them."""
    shapes = per_shape(results, oracle)
    unmeasured = [name for name, rows in results if name not in {s["name"] for s in shapes}]
    if not shapes:
        raise RuntimeError("no shape has both a stage row and a ceiling row")
    with_baseline = all(s["baseline"] is not None for s in shapes)
    with_oracle = all(s["best"] is not None for s in shapes)
    body, percents, baselines, oracles = [], [], [], []
    for shape in shapes:
        name, own, top, percent = shape["name"], shape["own"], shape["top"], shape["percent"]
        percents.append((percent, name))
        line = [name, own["problem"], own["variant"], f"{float(own['rate']):.0f}",
                f"{float(top['rate']):.0f}", f"{ladder.cut(percent, 1)}%"]
        if with_baseline:
            baselines.append((shape["baseline"], name, percent))
            line.append(f"{ladder.cut(shape['baseline'], 1)}%")
        if with_oracle:
            oracles.append((shape["oracle"], name, percent))
            line += [shape["best"]["variant"].split(",")[0], f"{ladder.cut(shape['oracle'], 1)}%"]
        body.append(line)
    top_name = ladder.ceiling_name(shapes[0]["top"])  # cuBLAS BF16, or cuBLASLt FP8 for stage 22
    header = ["shape", "problem", "variant", "GFLOP/s", f"{top_name}, same program", "% of it"]
    if with_baseline:
        header.append(f"baseline, % of {top_name}")
    if with_oracle:
        header += ["best variant", f"% of {top_name}"]
    low = min(percents)
    text = (ladder.table(header, body) +
            f"\n\nGeometric mean {ladder.cut(geomean([p for p, _ in percents]), 1)}% of "
            f"{top_name} over {len(percents)} shapes; lowest {ladder.cut(low[0], 1)}% ({low[1]}).")
    if with_baseline:
        slower = [(own - base, name) for base, name, own in baselines if own < base]
        base_low = min(baselines)
        text += (f"\nThe baseline in the same programs: geometric mean "
                 f"{ladder.cut(geomean([b for b, _, _ in baselines]), 1)}%, lowest "
                 f"{ladder.cut(base_low[0], 1)}% ({base_low[1]}); the default is below it on "
                 f"{len(slower)} shape{'' if len(slower) == 1 else 's'}")
        text += (f", by at most {ladder.cut(-min(slower)[0], 1)} points ({min(slower)[1]})."
                 if slower else ".")
    if with_oracle:
        gaps = [(best - own, name) for best, name, own in oracles]
        worst = max(gaps)
        text += (f"\nThe best of the other variants and the baseline on each shape (the oracle): "
                 f"geometric mean {ladder.cut(geomean([o for o, _, _ in oracles]), 1)}%, lowest "
                 f"{ladder.cut(min(oracles)[0], 1)}% ({min(oracles)[1]}); ")
        text += (f"the default is at most {ladder.cut(worst[0], 1)} points below it ({worst[1]})."
                 if worst[0] > 0 else "the default is never below it.")
    if unmeasured:
        text += (f"\nWithout a ceiling row (the library refused the shape), so left out: "
                 f"{', '.join(unmeasured)}.")
    noisy = [(float(r["median_ms"]) / float(r["min_ms"]), name, r["variant"].split(",")[0])
             for name, rows in results for r in rows
             if float(r["min_ms"]) > 0 and float(r["median_ms"]) > NOISY * float(r["min_ms"])]
    text += (f"\nRows whose median is more than {NOISY:g}x their fastest run: {len(noisy)}"
             + (" (" + "; ".join(f"{name}, {variant}: {ratio:.2f}x" for ratio, name, variant
                                 in sorted(noisy, reverse=True)[:5])
                + ("; ..." if len(noisy) > 5 else "") + ")." if noisy else "."))
    return text


def run(options, log):
    stage = next((s for s in manifest.load(options.build) if s.name == options.stage), None)
    if stage is None:
        raise ladder.MissingInput(f"no stage {options.stage} in {options.build}/stages.json")
    results = []
    shapes = read_shapes(options.shapes)
    for number, (name, m, n, k) in enumerate(shapes, 1):
        log(f"[{number}/{len(shapes)}] {name}:")
        config = ["--config", options.config] if options.config else []
        rows, reason = ladder.run_stage(stage, ladder.gemm_args(m, n, k) + config +
                                        ["--reps", str(options.reps)], log)
        if reason:
            print(f"skipped: {reason}")
            return ladder.SKIPPED
        for row in rows:
            row["shape"] = name
        results.append((name, rows))
        # After every shape: a run stopped midway (a skip, a timeout) keeps the shapes it
        # finished, and the measurements are kept even where the table cannot be made.
        if options.csv:
            ladder.write_csv(options.csv, [row for _, rows in results for row in rows])
    print(table(results, options.oracle))
    return 0


def from_csv(path):
    """[(shape name, rows)] of a run's CSV, in its order."""
    return ladder.grouped(ladder.read_rows(path, "shape", "shapes.py --csv"), "shape")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="build folder (default build)")
    parser.add_argument("--stage", default=DEFAULT_STAGE, help="the stage program to run")
    parser.add_argument("--shapes", default=SHAPES, help="the shape list (name,m,n,k)")
    parser.add_argument("--reps", type=int, default=10, help="timed runs per shape")
    parser.add_argument("--config", help="passed to the program: a variant, or all (every "
                        "variant in each process; the table shows the first, the default)")
    parser.add_argument("--csv", help="also write every row, with its shape, to this CSV "
                        "(written again after each shape)")
    parser.add_argument("--from-csv", metavar="CSV", help="print the table of a run's CSV")
    parser.add_argument("--no-oracle", dest="oracle", action="store_false",
                        help="no best-variant columns: where the stage's other rows are not "
                        "choices of its default (stage 22's per-block and from-FP32 rows)")
    options = parser.parse_args()
    log = lambda text: (sys.stderr.write(text), sys.stderr.flush())
    try:
        if options.from_csv:
            print(table(from_csv(options.from_csv), options.oracle))
            return 0
        return run(options, log)
    except ladder.MissingInput as error:
        log(f"\nshapes.py: {error}\n")
        return 2
    except RuntimeError as error:
        log(f"\nshapes.py: {error}\n")
        return 1


if __name__ == "__main__":
    sys.exit(main())
