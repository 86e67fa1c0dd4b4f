#!/usr/bin/env python3
"""Instruction counts of every kernel in `cuobjdump -sass` output, as one Markdown table.

  cuobjdump -sass -arch sm_90 build-native/bin/12_gpu_pipelined > sass.txt
  python3 scripts/sass_counts.py sass.txt [more files...]

Counts are of the code (each instruction once, loops not multiplied out): FFMA against the
loads that feed it (LDS and its 128-bit form LDS.128, LDG, LDGSTS: cp.async), stores and
barriers. With the K loop fully unrolled, FFMA / LDS.128 is the inner loop's ratio.

The tensor-core kernels (those with any HMMA or HGMMA) get a table of their own, whose columns
are theirs: HMMA (mma.sync and WMMA, e.g. HMMA.16816.F32.BF16), HGMMA (Hopper's warpgroup
wgmma, e.g. HGMMA.64x256x16.F32.BF16), LDSM (ldmatrix, e.g. LDSM.16.M88.4 and its transposing
LDSM.16.MT88.4), Hopper's TMA copies (UTMALDG loads, multicast ones included, and UTMASTG
stores) and mbarrier operations (SYNCS: arrive, expect-tx, try-wait) beside the loads,
cp.async copies, stores and barriers; HMMA per LDSM is the inner loop's ratio there.
"""
import argparse
import collections
import shutil
import subprocess
import sys

import sass
from ladder import table
from ncu_profile import short_name

COLUMNS = ["FFMA", "LDS", "LDS.128", "LDG", "LDG.128", "LDGSTS", "LDGSTS.128", "STS", "STG",
           "STG.128", "BAR", "all"]
TENSOR = ("HMMA", "HGMMA")  # a kernel with either goes in the tensor-core table
TENSOR_COLUMNS = ["HMMA", "HGMMA", "LDSM", "UTMALDG", "UTMASTG", "SYNCS", "LDS", "LDS.128",
                  "LDG", "LDG.128", "LDGSTS", "LDGSTS.128", "STS", "STS.128", "STG", "STG.128",
                  "BAR", "all"]
TENSOR_LEGEND = ("Tensor-core kernels (any HMMA or HGMMA): HMMA = mma.sync/WMMA instructions, "
                 "HGMMA = wgmma, LDSM = ldmatrix, UTMALDG/UTMASTG = TMA loads/stores, SYNCS = "
                 "mbarrier operations, LDGSTS = cp.async; HMMA per LDSM is the inner loop's "
                 "ratio of tensor-core instructions to shared-memory fragment loads.")


def count(dumps):
    """Kernel name -> Counter of opcodes, from the text of each dump in turn."""
    kernels = collections.OrderedDict()
    for text in dumps:
        seen_before = set(kernels)  # a program also holds the kernels it reruns as baselines
        for function in sass.functions(text):
            if function.name in seen_before:
                continue
            counts = kernels.setdefault(function.name, collections.Counter())
            for _, instruction in function.instructions:
                counts[sass.opcode(instruction)] += 1
                counts["all"] += 1
    return kernels


def demangle(names):
    """Readable kernel names, through c++filt where it is installed."""
    if not shutil.which("c++filt"):
        return names
    done = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True)
    return [short_name(n) for n in done.stdout.splitlines()] if done.returncode == 0 else names


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dumps", nargs="+", help="files of `cuobjdump -sass` output")
    options = parser.parse_args()  # a usage error exits 2
    dumps = []
    for path in options.dumps:
        try:
            with open(path) as f:
                dumps.append(f.read())
        except OSError as error:
            sys.stderr.write(f"sass_counts.py: {error}\n")
            return 2
        except UnicodeDecodeError:
            sys.stderr.write(f"sass_counts.py: {path} is not text: pass the output of "
                             "`cuobjdump -sass PROGRAM`, not the program\n")
            return 2
    kernels = count(dumps)
    if not kernels:
        sys.stderr.write("sass_counts.py: no kernel in " + ", ".join(options.dumps)
                         + ": is this the output of `cuobjdump -sass`?\n")
        return 1
    rows, tensor_rows = [], []
    for name, counts in zip(demangle(list(kernels)), kernels.values()):
        if any(counts[c] for c in TENSOR):
            ratio = f"{counts['HMMA'] / counts['LDSM']:.1f}" if counts["LDSM"] else "-"
            tensor_rows.append([name] + [str(counts[c]) for c in TENSOR_COLUMNS] + [ratio])
            continue
        lds = counts["LDS"] + counts["LDS.128"]
        ratio = f"{counts['FFMA'] / lds:.1f}" if lds else "-"
        rows.append([name] + [str(counts[c]) for c in COLUMNS] + [ratio])
    tables = []
    if rows:
        tables.append(table(["kernel"] + COLUMNS + ["FFMA per shared load"], rows))
    if tensor_rows:
        tables.append(table(["kernel"] + TENSOR_COLUMNS + ["HMMA per LDSM"], tensor_rows)
                      + "\n\n" + TENSOR_LEGEND)
    print("\n\n".join(tables))
    return 0


if __name__ == "__main__":
    sys.exit(main())
