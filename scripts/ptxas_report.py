#!/usr/bin/env python3
"""What ptxas reports for each tensor-core kernel: registers, stack frame and spills, from
`nvcc -Xptxas -v`, one table row per kernel. Needs nvcc, not a GPU: the MIN_ARCH stages are
compiled for sm_80 and sm_90, the ARCH stages for sm_90a, with the project's flags.

  python3 scripts/ptxas_report.py [--nvcc PATH] > results/ptxas_tensor_cores.md
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# A stage declared with MIN_ARCH (sm_80 on) or ARCH (sm_90a) in CMakeLists.txt, the one list.
DECLARATION = re.compile(r"^ladder_stage\((\w+)[^)]*?\b(MIN_ARCH|ARCH) (\w+)", re.M)
FLAGS = ["-O3", "-DNDEBUG", "-std=c++17", "-lineinfo", "-Xptxas=-v", f"-I{ROOT}"]

FUNCTION = re.compile(r"Compiling entry function '(\S+)' for '(sm_\w+)'")
FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USED = re.compile(r"Used (\d+) registers")


def tensor_core_stages():
    """(folder, architectures): a MIN_ARCH stage for that architecture and sm_90, an ARCH one
    for its own alone."""
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        text = f.read()
    return [(folder, (arch, "90") if kind == "MIN_ARCH" else (arch,))
            for folder, kind, arch in DECLARATION.findall(text)]


def parse(text):
    """(kernel, arch, registers, stack, spill stores, spill loads) for each entry function."""
    rows, current = [], None
    for line in text.splitlines():
        if match := FUNCTION.search(line):
            current = [match.group(1), match.group(2)]
        elif current and (match := FRAME.search(line)):
            current += [int(value) for value in match.groups()]
        elif current and len(current) == 5 and (match := USED.search(line)):
            rows.append((current[0], current[1], int(match.group(1)), *current[2:]))
            current = None
    return rows


def demangle(names):
    filt = shutil.which("c++filt")
    if not filt:
        return names
    done = subprocess.run([filt], input="\n".join(names), capture_output=True, text=True)
    return done.stdout.splitlines() if done.returncode == 0 else names


def short(name):
    """The kernel's name and template arguments, without the namespaces of this project."""
    name = re.sub(r"\(anonymous namespace\)::|ladder::|persistent::", "", name)
    return re.sub(r"\(.*\)$", "", name)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    options = parser.parse_args()
    print("# ptxas's report for the tensor-core kernels\n")
    print(f"`python3 scripts/ptxas_report.py`: `nvcc -Xptxas -v` on each stage's kernel.cu "
          f"({' '.join(FLAGS[:4])}). Spills are bytes per thread.\n")
    print("| stage | arch | kernel | registers | stack | spill stores | spill loads |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        for stage, archs in tensor_core_stages():
            codes = [f"--generate-code=arch=compute_{a},code=[sm_{a}]" for a in archs]
            done = subprocess.run([options.nvcc, *FLAGS, *codes, "-c",
                                   os.path.join(ROOT, stage, "kernel.cu"),
                                   "-o", os.path.join(scratch, "kernel.o")],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                sys.stderr.write(done.stdout + done.stderr)
                return 1
            rows = sorted(parse(done.stdout + done.stderr), key=lambda row: (row[1], row[0]))
            names = demangle([row[0] for row in rows])
            for row, name in zip(rows, names):
                print(f"| {stage[:2]} | {row[1]} | `{short(name)}` | {row[2]} | {row[3]} | "
                      f"{row[4]} | {row[5]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
