#!/usr/bin/env python3
"""The K loop of every stage-05 variant as the GPU runs it, read from cuobjdump -sass.

    python3 05_gpu_unrolled/inner_loop_sass.py build-native/bin/05_gpu_unrolled --tile 16 [--arch sm_90]

For each unroll variant, and for stage 04's square kernel of the same tile (the program
links it as its baseline), prints the kernel's instruction counts (in the code, not as
executed), whether its SASS is identical to stage 04's, and, unless it is, the body of its
K loop: from the target of the outermost backward branch down to that branch. Reads the
architecture --arch names, or else the newest one the program holds SASS for. Needs
cuobjdump (which calls nvdisasm) on the PATH; its output on an H100 is committed as
results/05_gpu_unrolled/sass_inner_loops.txt. Exit codes: 0 done; 1 cuobjdump failed, or the program
holds no SASS of that architecture or not these kernels; 2 usage, or no program or cuobjdump.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys

# The one SASS parser, in scripts/ beside the other SASS tool.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import sass  # noqa: E402

# Mangled names spell the tile as Li16E and an Unroll by its value (0 none, 1 manual4,
# 2 full, 3 compiler).
KERNELS = [
    ("stage 04 square", "gemm_tiled_squareILi{tile}ELb1ELb1E"),
    ("unroll 1", "gemm_tiled_unrolledILi{tile}ELNS_6UnrollE0E"),
    ("manual x4", "gemm_tiled_unrolledILi{tile}ELNS_6UnrollE1E"),
    ("unroll full", "gemm_tiled_unrolledILi{tile}ELNS_6UnrollE2E"),
    ("compiler default", "gemm_tiled_unrolledILi{tile}ELNS_6UnrollE3E"),
]
BRANCH = re.compile(r"\bBRA (0x[0-9a-f]+)")


def newest(architectures):
    """'sm_90a' and 'sm_90' after 'sm_80': by number, then suffix."""
    def key(architecture):
        number = re.match(r"sm_(\d+)(.*)", architecture)
        return (int(number.group(1)), number.group(2)) if number else (0, architecture)
    return max(architectures, key=key)


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
    parser.add_argument("--arch", help="which of the binary's architectures to read, e.g. sm_80 "
                                           "(default: the newest it holds SASS for)")
    args = parser.parse_args()
    if not shutil.which("cuobjdump"):
        return fail(2, "cuobjdump (CUDA toolkit) is not on the PATH; this script's output from "
                       "an H100 is in results/05_gpu_unrolled/sass_inner_loops.txt")
    if not os.path.isfile(args.binary):
        return fail(2, f"no program {args.binary}: build first (cmake --build --preset native)")
    done = subprocess.run(["cuobjdump", "-sass", args.binary], capture_output=True, text=True)
    if done.returncode != 0:
        reason = done.stderr.strip().splitlines()
        return fail(1, f"cuobjdump failed on {args.binary} (exit code {done.returncode})"
                       + (f": {reason[-1]}" if reason else ""))
    functions = sass.functions(done.stdout)
    # A binary built for several architectures holds each function once per architecture.
    architectures = sorted({function.architecture for function in functions} - {None})
    if not architectures:
        return fail(1, f"{args.binary} holds no SASS (built for PTX only?): build it for a real "
                       "architecture, e.g. cmake --preset native")
    architecture = args.arch or newest(architectures)
    if architecture not in architectures:
        return fail(1, f"{args.binary} holds no SASS for {architecture}, only for "
                       f"{', '.join(architectures)}: pass --arch with one of those")
    code = {}
    for function in functions:
        if function.architecture == architecture:
            code.setdefault(function.name, []).extend(function.instructions)
    baseline = None
    for label, pattern in KERNELS:
        key = pattern.format(tile=args.tile)
        names = [name for name in code if key in name]
        if len(names) != 1:
            return fail(1, f"expected one kernel matching {key} in the {architecture} code of "
                           f"{args.binary}, found {len(names)}: is it stage 05's program?")
        texts = [text for _, text in code[names[0]]]
        if baseline is None:
            baseline = texts
            show, verdict = True, "the reference for the lines below"
        else:
            show = texts != baseline
            verdict = f"SASS {'differs from' if show else 'identical to'} stage 04's"
        ops = collections.Counter(sass.mnemonic(text) for text in texts)
        print(f"== {label}, tile {args.tile}: {len(texts)} instructions, {ops['FFMA']} FFMA, "
              f"{ops['LDS']} LDS, {ops['BAR']} BAR, {ops['BRA']} BRA; {verdict}")
        if show:
            for text in k_loop(code[names[0]]):
                print("    " + text)
    return 0


def fail(code, reason):
    sys.stderr.write(f"inner_loop_sass.py: {reason}\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
