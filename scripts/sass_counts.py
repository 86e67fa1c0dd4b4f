#!/usr/bin/env python3
"""Instruction counts of every kernel in `cuobjdump -sass` output, as one Markdown table.

  cuobjdump -sass -arch sm_90 build-native/bin/12_gpu_pipelined > sass.txt
  python3 scripts/sass_counts.py sass.txt [more files...]

Counts are of the code (each instruction once, loops not multiplied out): FFMA against the
loads that feed it (LDS and its 128-bit form LDS.128, LDG, LDGSTS: cp.async), stores and
barriers. With the K loop fully unrolled, FFMA / LDS.128 is the inner loop's ratio.
"""
import argparse
import collections
import re
import shutil
import subprocess
import sys

from ladder import table
from profile import short_name

INSTRUCTION = re.compile(r"^\s+/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;")
COLUMNS = ["FFMA", "LDS", "LDS.128", "LDG", "LDG.128", "LDGSTS", "STS", "STG", "STG.128",
           "BAR", "all"]


def opcode(text):
    """'@!P0 LDS.U.128 R4, [R2+0x10]' -> 'LDS.128'; 'FFMA R1, ...' -> 'FFMA'."""
    words = re.sub(r"^@!?U?P\w+\s+", "", text).split()
    parts = words[0].split(".")
    wide = ".128" if "128" in parts[1:] else ""
    return parts[0] + wide


def count(paths):
    kernels = collections.OrderedDict()
    current = None
    for path in paths:
        seen_before = set(kernels)  # a program also holds the kernels it reruns as baselines
        with open(path) as f:
            for line in f:
                if "Function :" in line:
                    name = line.split("Function :")[1].strip()
                    current = None if name in seen_before else kernels.setdefault(
                        name, collections.Counter())
                elif current is not None and (match := INSTRUCTION.match(line)):
                    op = opcode(match.group(1))
                    current[op] += 1
                    current["all"] += 1
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
    for path in options.dumps:
        try:
            open(path).close()
        except OSError as error:
            sys.stderr.write(f"sass_counts.py: {error}\n")
            return 2
    rows = []
    kernels = count(options.dumps)
    for name, counts in zip(demangle(list(kernels)), kernels.values()):
        lds = counts["LDS"] + counts["LDS.128"]
        ratio = f"{counts['FFMA'] / lds:.1f}" if lds else "-"
        rows.append([name] + [str(counts[c]) for c in COLUMNS] + [ratio])
    print(table(["kernel"] + COLUMNS + ["FFMA per shared load"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
