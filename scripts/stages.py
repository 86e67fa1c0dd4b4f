#!/usr/bin/env python3
"""The stage manifest: what each ladder_stage() line of CMakeLists.txt recorded.

Configuring writes BUILD/stages.json; every script takes its list of stages from there, so
adding a stage needs no script edit. As a command, for shell scripts:

  python3 scripts/stages.py BUILD bench      one line per benchmark run: program, then args
  python3 scripts/stages.py BUILD gpu        the GPU stage programs, one per line
"""
import json
import os
import shlex
import sys

# The headline problems of the benchmarks (README, results/): beyond the L2 cache.
HEADLINE = {
    "gemm": ["--m", "4096", "--n", "4096", "--k", "4096"],
    "transpose": ["--rows", "8192", "--cols", "8192"],
}
CONFIGURE_HINT = "cmake --preset default (or native), then build"


class Stage:
    def __init__(self, entry):
        self.name = entry["name"]
        self.part = entry["part"]
        self.kind = entry["kind"]        # cpu, gemm or transpose
        self.gpu = entry["gpu"]
        self.program = entry["program"]  # path of the built program
        self.ladder = list(entry["ladder"])                       # extra args, ladder run
        self.bench = [shlex.split(a) for a in entry["bench"]]     # one arg list per run
        self.profile = [shlex.split(a) for a in entry["profile"]]
        self.search = [shlex.split(a) for a in entry.get("search", [])]  # every candidate

    @property
    def problem_kind(self):
        """Which options set the problem size: the CPU stages multiply matrices too."""
        return "transpose" if self.kind == "transpose" else "gemm"


def load(build_dir):
    """The stages in ladder order; exits 2 with a one-line reason when the manifest is missing
    or unreadable."""
    path = os.path.join(build_dir, "stages.json")
    if not os.path.exists(path):
        fail(f"no stage manifest {path}: configure first: {CONFIGURE_HINT}, "
             "or pass the build folder")
    try:
        with open(path) as f:
            return [Stage(entry) for entry in json.load(f)]
    except (OSError, ValueError, TypeError, KeyError) as error:
        # ValueError: not JSON; TypeError and KeyError: JSON, but not a list of stage entries.
        fail(f"unreadable stage manifest {path} ({type(error).__name__}: {error}): "
             f"configure again: {CONFIGURE_HINT}")


def fail(reason):
    """One line naming the script that was run (this module serves them all), then exit 2."""
    sys.stderr.write(f"{os.path.basename(sys.argv[0])}: {reason}\n")
    sys.exit(2)


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("bench", "gpu"):
        sys.stderr.write(__doc__)
        sys.exit(2)
    stages = load(sys.argv[1])
    for stage in stages:
        if not stage.gpu:
            continue
        if sys.argv[2] == "gpu":
            print(stage.program)
            continue
        for args in stage.bench:
            # The headline size unless the entry names its own.
            sized = any(arg in ("--m", "--rows") for arg in args)
            size = [] if sized else HEADLINE[stage.problem_kind]
            print(shlex.join([stage.program, *size, *args]))


if __name__ == "__main__":
    main()
