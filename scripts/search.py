#!/usr/bin/env python3
"""The parameter search: every candidate tiling of a stage, timed and verified, as one table.

For each stage whose declaration has SEARCH arguments (CMakeLists.txt, e.g. `--config all`),
runs the program with them at each size (every candidate is checked against the GPU's
double-precision reference, like any row) and writes, sorted by the rate at 4096^3:

  python3 scripts/search.py [--build build-native] [--out results] [--stage NAME ...]
      -> OUT/<stage>/search.md (GFLOP/s and % of the program's ceiling, cuBLAS FP32 or BF16,
         of every candidate at every size)
         OUT/<stage>/search.csv (every row the programs printed)

The first candidate a program lists is its default; the table marks it.
"""
import argparse
import csv
import io
import os
import subprocess
import sys

import stages as manifest
from ladder import SKIPPED, table, unreadable, write_csv

SIZES = [(2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192), (4095, 4095, 4095),
         (4097, 4097, 4097), (1920, 1280, 1024), (1024, 1024, 1024)]
SORT_BY = "4096x4096x4096"
COLUMNS = ("role", "variant", "rate")  # what the table reads from each row


class SearchFailed(Exception):
    """A program did not give its rows; the message says why, in one line."""


def label(size):
    return "x".join(str(s) for s in size)


def run(stage, args, size):
    m, n, k = size
    reps = ["--reps", "10"] if m * n * k > 4096 ** 3 else []
    command = [stage.program, "--csv", "--m", str(m), "--n", str(n), "--k", str(k), *reps, *args]
    sys.stderr.write(f"  {stage.name} {' '.join(command[2:])}\n")
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode == SKIPPED:
        # A search without its timings is no search: a failure, not a skip.
        raise SearchFailed(f"{stage.name} found no usable GPU (exit code {SKIPPED}): "
                           f"{last_line(done.stderr)}; the search needs one")
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SearchFailed(f"{stage.name} failed with exit code {done.returncode} (its output above)")
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    why = unreadable(rows, COLUMNS)
    if why:
        raise SearchFailed(f"{stage.name} printed no CSV rows the search can read ({why}): "
                           f"is {stage.program} a stage program?")
    return rows


def last_line(text):
    lines = text.strip().splitlines()
    return lines[-1] if lines else "(it printed nothing)"


def search(stage, args, out_dir):
    rates = {}      # candidate -> size label -> (GFLOP/s, % of the ceiling)
    order = []      # candidates in the program's order: the first is the default
    every_row = []
    for size in SIZES:
        rows = run(stage, args, size)
        every_row += rows
        for row in rows:
            if row["role"] != "stage":
                continue
            name = row["variant"].split(",")[0]
            if name not in rates:
                rates[name] = {}
                order.append(name)
            pct = row.get("pct_of_ceiling", "")
            rates[name][label(size)] = (float(row["rate"]), float(pct) if pct else None)
    ranked = sorted(order, key=lambda name: -rates[name].get(SORT_BY, (0, None))[0])
    header = ["candidate"] + [label(size) for size in SIZES]
    body = []
    for name in ranked:
        cells = []
        for size in SIZES:
            rate, pct = rates[name].get(label(size), (None, None))
            cells.append("" if rate is None else f"{rate:.0f} ({pct:.1f}%)" if pct else f"{rate:.0f}")
        body.append([name + (" (default)" if name == order[0] else "")] + cells)
    device = every_row[0]["device"] if every_row else ""
    ceilings = [row["variant"] for row in every_row if row["role"] == "ceiling"]
    ceiling = ceilings[0] if ceilings else "the ceiling"
    text = (f"# Parameter search: {stage.name}\n\n{device}\n\n"
            f"GFLOP/s (% of {ceiling} in the same run), median of the program's timed runs, every "
            f"candidate verified; sorted by {SORT_BY}. Made by `python3 scripts/search.py`.\n\n"
            + table(header, body) + "\n")
    stage_dir = os.path.join(out_dir, stage.name)  # results/ keeps each stage's files apart
    os.makedirs(stage_dir, exist_ok=True)
    with open(os.path.join(stage_dir, "search.md"), "w") as f:
        f.write(text)
    write_csv(os.path.join(stage_dir, "search.csv"), every_row)
    print(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build-native",
                        help="build folder of a preset (default build-native, for this GPU)")
    parser.add_argument("--out", default="results", help="folder for the tables (default results)")
    parser.add_argument("--stage", action="append", default=[],
                        help="search only this stage (e.g. 15_gpu_mma_pipelined); repeatable")
    options = parser.parse_args()
    searched = [stage for stage in manifest.load(options.build)
                if stage.search and (not options.stage or stage.name in options.stage)]
    if not searched:
        sys.stderr.write("search.py: no stage declares SEARCH arguments"
                         + (f" among {', '.join(options.stage)}" if options.stage else "") + "\n")
        return 2
    for stage in searched:
        if not os.path.exists(stage.program):
            sys.stderr.write(f"search.py: no program {stage.program}: build first "
                             f"(cmake --build {options.build})\n")
            return 2
    for stage in searched:
        for args in stage.search:
            try:
                search(stage, args, options.out)
            except SearchFailed as error:
                sys.stderr.write(f"search.py: {error}\n")
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
