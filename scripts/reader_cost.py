#!/usr/bin/env python3
"""What a reader opens to read one stage: the lines of the stage folder's code files and of
every project file they include, followed transitively (an #include "..." is looked for beside
the including file, then from the repository's root), generated files left out (those whose
first five lines say "generated" or "written by scripts/").

    python3 scripts/reader_cost.py [REPO]          one line per stage: `stage lines files`
    python3 scripts/reader_cost.py --new [REPO]    and a fourth column: the lines new to a reader
                                                   who has read the stage before (its files and
                                                   those headers the stage before did not include)
    python3 scripts/reader_cost.py --check [REPO]  exits 1 where a stage is over its budget

The budget is 1,000 lines a stage (common/README.md). The stages not yet within it are listed
in OVER with their count: such a stage may not grow, its count is lowered as it shrinks, and it
leaves the list once it is within the budget, so that the list only gets shorter.
"""
import pathlib
import re
import sys

from stage_edges import CODE, STAGE  # a stage folder's name, and what counts as code

BUDGET = 1000
OVER = {
    "19_gpu_clusters": 1190,
    "20_gpu_tf32": 1548,
    "21_gpu_stream_k": 1650,
    "22_gpu_fp8": 2356,
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def generated(path):
    head = "\n".join(path.read_text(errors="replace").splitlines()[:5]).lower()
    return "generated" in head or "written by scripts/" in head


def included(repo, name, by):
    for folder in (by.parent, repo):
        path = (folder / name).resolve()
        if path.is_file() and repo in path.parents:
            return path
    return None


def opened(repo, stage):
    """The files a reader opens for the stage folder `stage`, generated ones left out."""
    todo = [p.resolve() for p in sorted((repo / stage).rglob("*"))
            if p.suffix in CODE and p.is_file()]
    seen = set(todo)
    while todo:
        path = todo.pop()
        for name in INCLUDE.findall(path.read_text(errors="replace")):
            found = included(repo, name, path)
            if found is not None and found not in seen:
                seen.add(found)
                todo.append(found)
    return {p for p in seen if not generated(p)}


def lines(files):
    return sum(len(p.read_text(errors="replace").splitlines()) for p in files)


def new_to_reader(files, read):
    """The lines of `files` (a stage's, as opened() gives them) that a reader who has read the
    files `read` (the stage before's) has not: the stage's own and the headers not read before."""
    return lines(files - read)


def stages(repo):
    return [d.name for d in sorted(repo.iterdir()) if d.is_dir() and STAGE.match(d.name)]


def problems(costs, over):
    """What --check reports for {stage: lines}, with `over` the stages let past the budget."""
    found = []
    for stage, lines in costs.items():
        allowed = over.get(stage)
        if allowed is None and lines > BUDGET:
            found.append(f"{stage}: {lines} lines, over the budget of {BUDGET}")
        elif allowed is not None and lines > allowed:
            found.append(f"{stage}: {lines} lines, more than the {allowed} of OVER")
        elif allowed is not None and lines <= BUDGET:
            found.append(f"{stage}: {lines} lines, within the budget: take it out of OVER")
        elif allowed is not None and lines < allowed:
            found.append(f"{stage}: {lines} lines, fewer than the {allowed} of OVER: lower it")
    found += [f"{stage}: listed in OVER, but there is no such stage"
              for stage in sorted(set(over) - set(costs))]
    return found


def main(args):
    check = "--check" in args
    new = "--new" in args
    rest = [a for a in args if a not in ("--check", "--new")]
    repo = pathlib.Path(rest[0] if rest else pathlib.Path(__file__).parent.parent).resolve()
    costs = {}
    read = set()
    for stage in stages(repo):
        files = opened(repo, stage)
        costs[stage] = lines(files)
        if not check:
            extra = f" {new_to_reader(files, read)}" if new else ""
            print(f"{stage} {costs[stage]} {len(files)}{extra}")
        read = files
    if not check:
        return 0
    found = problems(costs, OVER)
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
