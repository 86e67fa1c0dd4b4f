#!/usr/bin/env python3
"""Where one stage depends on another's code: every stage folder must be a leaf.

    python3 scripts/stage_edges.py [REPO]

An edge is
  - an #include "NN_name/..." in a code file of another stage's folder, or of common/ (the
    shared home may not reach into a stage either);
  - a stage folder named in a ladder_stage() declaration's LINKS (its library linked into
    another stage's library).
A program may still run the previous stage's kernel as its baseline: it reaches it through
common/baselines.hpp, and ladder_stage()'s USES links that library into the program alone, so
USES is no edge. Tests and scripts are no stages: they may include any stage's headers.

Prints one line per edge, `FROM -> TO (how)`, and exits 1 when there is any, 0 when none.
"""
import pathlib
import re
import sys

CODE = {".c", ".cc", ".cpp", ".cu", ".cuh", ".h", ".hpp"}
STAGE = re.compile(r"^\d\d_[a-z0-9_]+$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"(\d\d_[a-z0-9_]+)/', re.M)
DECLARATION = re.compile(r"^ladder_stage\((\d\d_[a-z0-9_]+)\b(.*?)\)\s*$", re.M | re.S)
KEYWORDS = ("PART", "KIND", "MIN_ARCH", "ARCH", "USES", "LIBRARIES", "LINKS", "SOURCES",
            "PROGRAM_SOURCES", "CHOICES", "GOOD", "LADDER", "BENCH", "PROFILE", "SEARCH")


def include_edges(repo):
    homes = [d for d in sorted(repo.iterdir()) if d.is_dir() and STAGE.match(d.name)]
    homes.append(repo / "common")
    for home in homes:
        for path in sorted(home.rglob("*")):
            if path.suffix not in CODE or not path.is_file():
                continue
            for target in INCLUDE.findall(path.read_text(errors="replace")):
                if target != home.name:
                    yield home.name, target, f"#include in {path.relative_to(repo)}"


def link_edges(repo):
    text = (repo / "CMakeLists.txt").read_text()
    text = re.sub(r"#[^\n]*", "", text)
    for stage, body in DECLARATION.findall(text):
        words = re.findall(r'"[^"]*"|\S+', body)
        keyword = None
        for word in words:
            if word in KEYWORDS:
                keyword = word
            elif keyword == "LINKS":
                yield stage, word, "LINKS in CMakeLists.txt"


def main():
    repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
    edges = sorted(set(include_edges(repo)) | set(link_edges(repo)))
    for source, target, how in edges:
        print(f"{source} -> {target} ({how})")
    return 1 if edges else 0


if __name__ == "__main__":
    sys.exit(main())
