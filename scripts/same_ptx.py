#!/usr/bin/env python3
"""Whether a change left the generated device code alone: the PTX of every CUDA file of two
builds, compared after normalising only what a rename or a move of C++ code may change.

    python3 scripts/same_ptx.py BASE_BUILD NEW_BUILD [--only REGEX] [--runs N] [--keep DIR]
    python3 scripts/same_ptx.py BASE.ptx NEW.ptx

BASE_BUILD and NEW_BUILD are configured build folders (cmake --preset default -B FOLDER), say
of a copy of the last commit and of the working tree. For every .cu file that either compiles
(matched by its path in its source tree), the script reruns the build's own nvcc command, read
from `ninja -t commands` (the same flags, architectures and include folders), with --ptx in
place of -c, and compares the two PTX files.

Compiled as they stand, two copies of one tree do not give the same PTX: nvcc 13.0 names each
file's anonymous namespace after the file's real path, and lays out its hash tables by those
names and by heap addresses, which the kernel randomises per process. The order of some
instructions, which loads are narrowed, and the register numbers follow (stage 11's
kernel.cu, compiled twice from one tree, came out different in 6 of its 28 kernels). So each
tree is copied in turn to one folder and compiled from there (its build folders, hidden
folders and results/ left out), under `setarch -R` (no address randomisation) where setarch
exists: the same sources then give the same bytes, run after run.

What the comparison normalises away:
  - comments, and -lineinfo's source positions: the .file and .loc lines and the .debug_str
    section (which names the inlined functions);
  - the hash in the mangled name of an anonymous namespace;
  - mangled symbol names (kernels, functions, shared arrays, parameters): each becomes the
    order of its first appearance, so two files match when one's symbols are a consistent
    renaming of the other's. The renamings are printed, demangled where c++filt is on the
    PATH, for a reader to judge.
Everything else, every instruction, register, label, constant and directive, must be the same
in the same order; or, where a move of C++ code reordered the kernels a file instantiates, each
function the same with its symbols renamed consistently within it and its branch labels
numbered within it, as many of each form in both files (`same, renamed: the same N kernels and
functions in another order`). A reordered file's names are not compared.

Without address randomisation the heap still depends on the source text: a change to host
code alone (a renamed type in a header) can move it, and with it the same variation. So a
file that differs is compiled --runs more times from each tree with randomisation on, and
each kernel's forms across those runs are compared: where every kernel came out at least
once the same from both trees, and the rest of the file is the same, the file is `same up to
nvcc's run-to-run variation`, with the counts. Otherwise it is DIFFERENT: the kernels that
differ and the first differing lines.

One line per file: `same`, `same, renamed: ...`, `same up to ...`, `DIFFERENT`, or `only in
base`/`only in new` (a file whose PTX holds no kernel or function, such as host code in a .cu
file, is said so and passes). Exits 1 when any file is DIFFERENT or holds device code in one
build only, 0 otherwise. Needs ninja, the builds' nvcc and Python's standard library.
"""
import argparse
import collections
import concurrent.futures
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

SYMBOL = re.compile(r"_Z\w+")
PARAMETER = re.compile(r"(_param_\d+)$")
ANONYMOUS = re.compile(r"(\d+)_GLOBAL__N_")
DEBUG_SECTION = re.compile(r"^\s*\.section\s+\.debug")
FUNCTION_START = re.compile(r"^(\.visible\s+|\.weak\s+)?\.(entry|func)\s")
# A placeholder, standing alone or naming a parameter (S3 in S3_param_0).
PLACEHOLDER = re.compile(r"\bS\d+(?=_param_\d|\b)")


def without_anonymous_hash(symbol):
    """_ZN6ladder41_GLOBAL__N__2771a5aa_9_kernel_cu_93f228f26sharedE ->
    _ZN6ladder12_GLOBAL__N_16sharedE: the length-prefixed name of an anonymous namespace,
    whatever nvcc hashed into it."""
    out = []
    at = 0
    for match in ANONYMOUS.finditer(symbol):
        if match.start() < at:
            continue
        length = int(match.group(1))
        name_start = match.start(1) + len(match.group(1))
        out.append(symbol[at:match.start()] + "12_GLOBAL__N_1")
        at = name_start + length
    out.append(symbol[at:])
    return "".join(out)


def normalise(ptx):
    """(lines, symbols): the PTX's lines without comments, blank lines and debug information,
    each mangled symbol replaced by S<n> (n: its order of first appearance); and the symbols
    in that order, anonymous-namespace hashes removed."""
    symbols = {}

    def placeholder(match):
        name = match.group(0)
        suffix = ""
        parameter = PARAMETER.search(name)
        if parameter:
            name, suffix = name[:parameter.start()], parameter.group(1)
        name = without_anonymous_hash(name)
        if name not in symbols:
            symbols[name] = f"S{len(symbols)}"
        return symbols[name] + suffix

    lines = []
    in_debug = False
    for raw in ptx.splitlines():
        if in_debug:
            in_debug = raw.strip() != "}"
            continue
        if DEBUG_SECTION.match(raw):
            in_debug = True
            continue
        line = raw.split("//", 1)[0].strip()
        if not line or line.startswith((".file", ".loc")):
            continue
        lines.append(SYMBOL.sub(placeholder, line))
    return lines, list(symbols)


def functions(lines):
    """(lines before the first kernel or function, {placeholder: its lines}) of normalised
    PTX, in order."""
    preamble = []
    bodies = collections.OrderedDict()
    current = None
    for line in lines:
        if FUNCTION_START.match(line):
            found = PLACEHOLDER.search(line)
            current = found.group(0) if found else line
            bodies[current] = []
        if current is None:
            preamble.append(line)
        else:
            bodies[current].append(line)
    return preamble, bodies


def demangled(names):
    """names, demangled by c++filt where it is on the PATH."""
    if not shutil.which("c++filt"):
        return names
    done = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True,
                          check=True)
    return done.stdout.splitlines()


def named(symbols):
    """{placeholder: demangled symbol}."""
    return {f"S{i}": name for i, name in enumerate(demangled(symbols))}


BRANCH_LABEL = re.compile(r"\$L__BB\d+_")


def within_function(lines):
    """A function's normalised lines with its placeholders numbered again from its own first
    line, and branch labels without the function's position in the file ($L__BB3_7 ->
    $L__BB_7): the same for the same code wherever the function sits in the file."""
    numbers = {}

    def local(match):
        return numbers.setdefault(match.group(0), f"F{len(numbers)}")

    return tuple(PLACEHOLDER.sub(local, BRANCH_LABEL.sub("$L__BB_", line)) for line in lines)


def same_in_another_order(base_lines, new_lines):
    """Whether two normalised PTX texts hold the same functions, each the same code with its
    symbols consistently renamed within it, only in another order (a move of C++ code can
    reorder the kernels a file instantiates), and the same lines before them."""
    base_preamble, base_bodies = functions(base_lines)
    new_preamble, new_bodies = functions(new_lines)
    return (within_function(base_preamble) == within_function(new_preamble) and
            collections.Counter(map(within_function, base_bodies.values())) ==
            collections.Counter(map(within_function, new_bodies.values())))


def compare(base_ptx, new_ptx, context=20):
    """One pair of PTX texts: (same, lines of report)."""
    base_lines, base_symbols = normalise(base_ptx)
    new_lines, new_symbols = normalise(new_ptx)
    if base_lines != new_lines and same_in_another_order(base_lines, new_lines):
        count = len(functions(base_lines)[1])
        return True, [f"the same {count} kernels and functions in another order (symbols and "
                      f"branch labels numbered within each; names not compared)"]
    if base_lines != new_lines:
        _, base_bodies = functions(base_lines)
        _, new_bodies = functions(new_lines)
        names = named(base_symbols)
        differing = [k for k in base_bodies if base_bodies[k] != new_bodies.get(k)]
        report = [f"{len(base_lines)} normalised lines in base, {len(new_lines)} in new; "
                  f"{len(differing)} of {len(base_bodies)} kernels and functions differ:"]
        report += [f"  {names.get(k, k)}" for k in differing]
        diff = list(difflib.unified_diff(base_lines, new_lines, "base", "new", lineterm="", n=2))
        report.extend(diff[:context])
        if len(diff) > context:
            report.append(f"... {len(diff) - context} more diff lines")
        return False, report
    renamed = [(old, new) for old, new in zip(base_symbols, new_symbols) if old != new]
    olds = demangled([old for old, _ in renamed])
    news = demangled([new for _, new in renamed])
    return True, [f"{old}\n    -> {new}" for old, new in zip(olds, news)]


def compare_variation(base_runs, new_runs):
    """Several PTX texts of one file from each tree, compiled with address randomisation:
    (same, lines of report). Same when the lines outside kernels and functions agree and every
    kernel and function came out at least once the same from both trees."""
    def forms(runs):
        preambles = set()
        bodies = collections.defaultdict(set)
        symbols = None
        for ptx in runs:
            lines, symbols = normalise(ptx)
            preamble, found = functions(lines)
            preambles.add(tuple(preamble))
            for key, body in found.items():
                bodies[key].add(tuple(body))
        return preambles, bodies, symbols

    base_preambles, base_bodies, symbols = forms(base_runs)
    new_preambles, new_bodies, _ = forms(new_runs)
    names = named(symbols)
    apart = [k for k in base_bodies if not base_bodies[k] & new_bodies.get(k, set())]
    apart += [k for k in new_bodies if k not in base_bodies]
    varied = [len(found) for found in base_bodies.values() if len(found) > 1]
    report = [f"with address randomisation, {len(base_runs)} runs from each tree: "
              f"{len(base_bodies) - len(apart)} of {len(base_bodies)} kernels and functions "
              f"came out at least once the same from both; in the base's runs alone "
              f"{len(varied)} came out in more than one form (up to {max(varied, default=1)})"]
    same = not apart and bool(base_preambles & new_preambles)
    if not base_preambles & new_preambles:
        report.append("the lines before the first kernel differ")
    report += [f"never the same: {names.get(k, k)}" for k in apart]
    return same, report


def source_root(build):
    with open(os.path.join(build, "CMakeCache.txt")) as cache:
        for line in cache:
            if line.startswith("CMAKE_HOME_DIRECTORY:"):
                return line.split("=", 1)[1].strip()
    raise SystemExit(f"{build}: no CMAKE_HOME_DIRECTORY in CMakeCache.txt (not configured?)")


def ptx_commands(build, staged):
    """{source path in its tree: nvcc's arguments for it, the tree's folder replaced by
    `staged`, without -c, -o and the dependency-file flags}."""
    root = source_root(build)
    listed = subprocess.run(["ninja", "-C", build, "-t", "commands"], capture_output=True,
                            text=True, check=True).stdout
    commands = {}
    for line in listed.splitlines():
        if " -x cu -c " not in line:
            continue
        words = shlex.split(line)
        nvcc = next(i for i, word in enumerate(words) if os.path.basename(word) == "nvcc")
        words = words[nvcc:]  # without a compiler launcher (scripts/ptxas_guard.sh)
        source = words[words.index("-c") + 1]
        kept = []
        skip = False
        for word in words:
            if skip:
                skip = False
            elif word in ("-MT", "-MF", "-o"):
                skip = True  # and the file name after it
            elif word not in ("-MD", "-c"):
                kept.append(word.replace(root, staged))
        commands[os.path.relpath(source, root)] = kept
    return commands


def compile_ptx(arguments, out, randomised):
    fixed = ["setarch", os.uname().machine, "-R"] if shutil.which("setarch") else []
    done = subprocess.run(([] if randomised else fixed) + arguments + ["--ptx", "-o", out],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(arguments)}\n{done.stderr}")
    with open(out) as f:
        return f.read()


def compile_tree(build, files, staged, folder, side, runs=1, randomised=False):
    """{file: [PTX of each run]} of the files among `files` that `build` compiles, from a copy
    of its source tree at `staged`."""
    root = source_root(build)
    outputs = [os.path.realpath(build)]
    shutil.rmtree(staged, ignore_errors=True)
    shutil.copytree(root, staged, symlinks=True, ignore=lambda at, names: [
        name for name in names
        if name.startswith(".") or name == "results"
        or os.path.realpath(os.path.join(at, name)) in outputs
        or os.path.isfile(os.path.join(at, name, "CMakeCache.txt"))])
    commands = ptx_commands(build, staged)
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        jobs = {}
        for name in files:
            if name not in commands:
                continue
            flat = name.replace(os.sep, "__")
            jobs[name] = [pool.submit(compile_ptx, commands[name],
                                      os.path.join(folder, f"{side}.{flat}.{run}.ptx"),
                                      randomised)
                          for run in range(runs)]
        return {name: [job.result() for job in runs_of] for name, runs_of in jobs.items()}


def compare_builds(base, new, only, runs, keep):
    files = sorted(set(ptx_commands(base, "")) | set(ptx_commands(new, "")))
    if only:
        files = [f for f in files if re.search(only, f)]
    work = tempfile.mkdtemp(prefix="same_ptx.")
    folder = keep or work
    staged = os.path.join(work, "tree")
    ok = True
    try:
        base_ptx = compile_tree(base, files, staged, folder, "base")
        new_ptx = compile_tree(new, files, staged, folder, "new")
        for name in files:
            if (name in base_ptx) != (name in new_ptx):
                side, ptx = ("base", base_ptx[name]) if name in base_ptx else ("new", new_ptx[name])
                _, bodies = functions(normalise(ptx[0])[0])
                print(f"{name}: only in {side}" +
                      ("" if bodies else ", with no kernel or function in its PTX"))
                ok &= not bodies
                continue
            same, report = compare(base_ptx[name][0], new_ptx[name][0])
            if not same and runs > 0:
                base_runs = compile_tree(base, [name], staged, folder, "base.randomised", runs,
                                         True)[name]
                new_runs = compile_tree(new, [name], staged, folder, "new.randomised", runs,
                                        True)[name]
                varied, variation = compare_variation(base_runs, new_runs)
                if varied:
                    kernels = [line for line in report[1:] if line.startswith("  ")]
                    print(f"{name}: same up to nvcc's run-to-run variation")
                    print("\n".join("  " + line for line in
                                    [f"without address randomisation: {report[0]}"] + kernels +
                                    variation))
                    continue
                report += variation
            ok &= same
            verdict = ("same" + (", renamed:" if report else "")) if same else "DIFFERENT"
            print(f"{name}: {verdict}")
            print("\n".join("  " + line for line in report), end="\n" if report else "")
    finally:
        shutil.rmtree(work)
    return ok


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="a configured build folder, or a .ptx file")
    parser.add_argument("new", help="the same of the changed tree")
    parser.add_argument("--only", help="compare only the sources whose path matches this")
    parser.add_argument("--runs", type=int, default=8,
                        help="randomised runs from each tree for a file that differs (0: none)")
    parser.add_argument("--keep", help="write the PTX files into this folder and keep them")
    args = parser.parse_args(argv)
    if os.path.isfile(args.base) and os.path.isfile(args.new):
        with open(args.base) as b, open(args.new) as n:
            same, report = compare(b.read(), n.read())
        print("same" if same else "DIFFERENT")
        print("\n".join(report))
        return 0 if same else 1
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    return 0 if compare_builds(args.base, args.new, args.only, args.runs, args.keep) else 1


if __name__ == "__main__":
    sys.exit(main())
