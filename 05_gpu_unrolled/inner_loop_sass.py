#!/usr/bin/env python3
"""The K loop of every stage-05 variant as the GPU runs it, read from cuobjdump -sass.

    python3 05_gpu_unrolled/inner_loop_sass.py build-native/bin/05_gpu_unrolled --tile 16 [--arch sm_90]

For each unroll variant, and for stage 04's square kernel of the same tile (the program
links it as its baseline), prints the kernel's instruction counts (in the code, not as
executed), whether its SASS is identical to stage 04's, and, unless it is, the body of its
K loop: from the target of the outermost backward branch down to that branch. Needs
cuobjdump (which calls nvdisasm) on the PATH; its output on an H100 is committed as
results/sass_05_inner_loops.txt.
"""
import argparse
import collections
import re
import shutil
import subprocess
import sys

# Mangled names spell the tile as Li16E and an Unroll by its value (0 none, 1 manual4,
# 2 full, 3 compiler).
KERNELS = [
    ("stage 04 square", "gemm_tiled_squareILi{tile}ELb1ELb1E"),
    ("unroll 1", "gemm_tiled_unrolledILi{tile}ELNS_6UnrollE0E"),
    ("manual x4", "gemm_tiled_unrolledILi{tile}ELNS_6UnrollE1E"),
    ("unroll full", "gemm_tiled_unrolledILi{tile}ELNS_6UnrollE2E"),
    ("compiler default", "gemm_tiled_unrolledILi{tile}ELNS_6UnrollE3E"),
]
INSTRUCTION = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
BRANCH = re.compile(r"\bBRA (0x[0-9a-f]+)")


def functions(sass):
    """Function name -> list of (address, instruction text)."""
    code = {}
    current = None
    for line in sass.splitlines():
        if "Function :" in line:
            current = code.setdefault(line.split("Function :")[1].strip(), [])
        elif current is not None and (match := INSTRUCTION.match(line)):
            current.append((int(match.group(1), 16), match.group(2)))
    return code


def k_loop(code):
    """The instructions from the outermost backward branch's target to that branch."""
    backward = [(int(m.group(1), 16), address) for address, text in code
                if (m := BRANCH.search(text)) and int(m.group(1), 16) < address]
    if not backward:
        return []
    start, end = min(backward)
    return [text for address, text in code if start <= address <= end]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", help="path to the built 05_gpu_unrolled")
    parser.add_argument("--tile", choices=["8", "16", "32"], default="16")
    parser.add_argument("--arch", default="sm_90",
                        help="which of the binary's architectures to read (default sm_90)")
    args = parser.parse_args()
    if not shutil.which("cuobjdump"):
        sys.stderr.write("inner_loop_sass.py: cuobjdump (CUDA toolkit) is not on the PATH; this "
                         "script's output from an H100 is in results/sass_05_inner_loops.txt\n")
        return 2
    # A binary built for several architectures holds each function once per architecture.
    sass = subprocess.run(["cuobjdump", "-sass", "-arch", args.arch, args.binary], check=True,
                          capture_output=True, text=True).stdout
    code = functions(sass)
    baseline = None
    for label, pattern in KERNELS:
        key = pattern.format(tile=args.tile)
        names = [name for name in code if key in name]
        if len(names) != 1:
            raise SystemExit(f"expected one kernel matching {key}, found {len(names)}")
        texts = [text for _, text in code[names[0]]]
        if baseline is None:
            baseline = texts
            show, verdict = True, "the reference for the lines below"
        else:
            show = texts != baseline
            verdict = f"SASS {'differs from' if show else 'identical to'} stage 04's"
        ops = collections.Counter(re.sub(r"^@!?U?P\w+\s+", "", t).split()[0].split(".")[0]
                                  for t in texts)
        print(f"== {label}, tile {args.tile}: {len(texts)} instructions, {ops['FFMA']} FFMA, "
              f"{ops['LDS']} LDS, {ops['BAR']} BAR, {ops['BRA']} BRA; {verdict}")
        if show:
            for text in k_loop(code[names[0]]):
                print("    " + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
