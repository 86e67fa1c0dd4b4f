"""Every measured figure a page writes by hand (outside the sections scripts/figures.py
generates) is a number of a committed results file that the same page cites, at the precision
the page prints, or an entry of ALLOWED, which says why it is no measurement. Figures typed into
prose drift from the record that they were read off; this finds the drift the day it happens.

A figure is a number with a unit: a rate (TFLOP/s, GFLOP/s), a bandwidth (TB/s, GB/s), a clock
(GHz), a time (ms, µs, us), a percentage, a ratio (1.05x) or a count of tests ("406 tests",
"406 of 406"), or a table cell in a column whose header names the unit. A file's number
counts only where the file gives it the same kind of unit:
beside it, in a column that names it, or in the programs' own table layout; a long file holds
some unitless number near almost any figure, and would let a drifted one pass. For the same
reason a sentence that names one matrix product's shape is read against that shape's rows,
where a cited CSV of the programs has some."""
import bisect
import csv
import os
import re
import unittest

from support import FIXTURES, REPO, STAGES
from test_pages import reading_order

import figures
import ladder

RESULTS = "results"
# A page with a drifted figure, one whose figures all match, one that cites no file, one that
# quotes another shape's row.
FIXTURE_ROOT = os.path.join(FIXTURES, "prose_figures")
# The files a page can cite are the record's text files; its charts hold no numbers to read.
RECORD_SUFFIXES = (".csv", ".md", ".txt")
FENCE = re.compile(r"^\s*```.*?^\s*```[^\n]*$", re.S | re.M)
# A Markdown link's target (its text stays: a figure there is read like any other).
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
# A code span naming a results file from the repository's root: `results/bench.txt`.
CODE_PATH = re.compile(r"`(?P<target>results/[^`\s]*)`")
# A number as pages and files print it: 46,549 or 46549.3.
NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
# A number and its unit. A ratio's x is attached (1.05x), so a tile's 128x128 is none; a range
# (7-10%) gives both ends. The look-behinds keep out digits inside names (sm_90, 4096^3, v2.13)
# and the numbers that name a part or a stage ("Part 3 tests", "stage 12 GFLOP/s").
FIGURE = re.compile(
    rf"(?<![\w.,^/])(?<![Pp]art )(?<![Ss]tage )(?:(?P<low>{NUMBER})[-–])?(?P<value>{NUMBER})"
    r"(?:\s?(?P<unit>[TGM]FLOP/s|[GT]B/s|GHz|ms|[µμ]s|us|tests)\b|(?P<sign>%|x(?!\w)))")
# "387 of 387": a whole test suite passing.
SUITE = re.compile(r"(?<![\w.,])(?P<value>\d+) of (?P=value)\b")
# Each unit's kind and size, so that a page's TFLOP/s is compared with a file's GFLOP/s.
UNITS = {"TFLOP/s": ("FLOP/s", 1e12), "GFLOP/s": ("FLOP/s", 1e9), "MFLOP/s": ("FLOP/s", 1e6),
         "TB/s": ("B/s", 1e12), "GB/s": ("B/s", 1e9), "GHz": ("Hz", 1e9),
         "ms": ("s", 1e-3), "µs": ("s", 1e-6), "μs": ("s", 1e-6), "us": ("s", 1e-6),
         "%": ("%", 1), "x": ("x", 1), "tests": ("tests", 1)}
# A Markdown table's column whose header names a unit: its cells that are a number alone.
HEADER_UNIT = re.compile(r"[TGM]FLOP/s|[GT]B/s|GHz|\bms\b|[µμ]s|\bus\b|%")
TABLE_SEPARATOR = re.compile(r"^\|[-:| ]+\|$")
CELL_NUMBER = re.compile(rf"[*+\-−]*(?P<value>{NUMBER})\**")
# The programs' printed table (common/harness): "variant   median   min   rate unit ...", the
# two times in ms.
HARNESS_ROW = re.compile(
    rf"(?P<median>\d+\.\d+) +(?P<min>\d+\.\d+) +(?:{NUMBER}) ?(?:[TGM]FLOP/s|[GT]B/s)")
# The programs' CSV (--csv): these columns' unit, the rate's named by its row's `unit`.
CSV_UNITS = {"median_ms": "ms", "min_ms": "ms", "pct_of_ceiling": "%"}
# A matrix product's shape as pages write it, M x N x K ("512 x 4096 x 14336",
# "1000x4096x4096") or a cube ("4096^3"); the programs' CSV names it in `problem`
# ("A 512x14336 * B 14336x4096").
SHAPE = re.compile(r"(?<![\w.])(\d+) ?x ?(\d+) ?x ?(\d+)(?![\w.])")
CUBE = re.compile(r"(?<![\w.^])(\d+)\^3")
# Where a sentence ends: a full stop, semicolon or colon, then a space or the end.
SENTENCE_END = re.compile(r"[.;:!?](?=\s|$)")
# ctest's summary: "100% tests passed out of 406", "2 tests failed out of 406".
CTEST_TOTAL = re.compile(r"tests (?:passed|failed) out of (?P<value>\d+)")

# (page, figure as the page writes it): why it is no measurement the record holds. A measured
# figure does not belong here: it belongs in a cited file, or in a generated section.
ALLOWED = {
    ("02_cpu_reordered/README.md", "28–30 GB/s"):
        "the page's estimate of B's stream, worked in 'Why not more?': 2.52 G multiply-adds x "
        "4 bytes over the measured 364 and 337 ms",
    ("02_cpu_reordered/README.md", "30 GB/s"): "the same estimate, worked ('28 to 30 GB/s')",
    ("04_gpu_shared_tiled/README.md", "16.7 TFLOP/s"):
        "the model's bound, worked under its table: 66.9 TFLOP/s / 4 / 1 wavefront",
    ("04_gpu_shared_tiled/README.md", "11.2 TFLOP/s"):
        "the model's bound, worked under its table: 66.9 TFLOP/s / 4 / 1.5 wavefronts",
    ("09_gpu_register_tiled/README.md", "8.4 TB/s"):
        "the model's demand at stage 04's 16 FMAs per float: 33.4 T FMAs/s / 16 x 4 bytes",
    ("13_gpu_wmma/PRIMER.md", "1.98 GHz"): "hardware: the H100's maximum SM clock",
    ("13_gpu_wmma/PRIMER.md", "989.4 TFLOP/s"): "published: NVIDIA's H100 SXM dense BF16 peak",
    ("13_gpu_wmma/PRIMER.md", "1.83 GHz"): "published: the boost clock of NVIDIA's datasheet",
    ("13_gpu_wmma/PRIMER.md", "0.4%"): "definition: BF16's rounding moves a value by up to 2^-8",
    ("18_gpu_persistent/README.md", "1x"): "definition: a speed equal to the default's",
    ("22_gpu_fp8/FP8.md", "1,979 TFLOP/s"):
        "published: the H100 SXM's dense FP8 peak in NVIDIA's architecture whitepaper",
    ("22_gpu_fp8/FP8.md", "1.83 GHz"): "published: the whitepaper's boost clock",
    ("22_gpu_fp8/FP8.md", "1.98 GHz"): "hardware: the H100's maximum SM clock",
    ("22_gpu_fp8/FP8.md", "2,141 TFLOP/s"): "arithmetic: 132 SMs x 8,192 FLOP x 1.98 GHz",
}


def pages():
    """The pages that teach: the README's reading order, the README, and each stage folder's
    other pages (DESCRIPTORS.md, ...). results/ is the record the figures are checked against."""
    order = [page for page, _ in reading_order()] + ["README.md"]
    for stage in STAGES:
        for name in sorted(os.listdir(os.path.join(REPO, stage))):
            page = f"{stage}/{name}"
            if name.endswith(".md") and page not in order:
                order.append(page)
    return order


def blank(match):
    """The matched text as spaces, keeping its newlines so that line numbers stay true."""
    return re.sub(r"[^\n]", " ", match.group(0))


def prose(text):
    """The page without what is not prose: generated sections (figures.py checks them), code
    blocks and link targets."""
    text = figures.SECTION.sub(blank, text)
    text = FENCE.sub(blank, text)
    return LINK.sub(lambda m: "](" + " " * len(m["target"]) + ")", text)


def figures_in(text):
    """[(line number, figure as written, [numbers as written], unit)] of a text. A table cell
    that is a number alone, in a column whose header names a unit, is a figure in that unit,
    written as "8,928 GFLOP/s"."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in FIGURE.finditer(line):
            written = [n for n in (match["low"], match["value"]) if n]
            found.append((number, match.group(0), written, match["unit"] or match["sign"]))
        for match in SUITE.finditer(line):
            found.append((number, match.group(0), [match["value"]], "tests"))
    for number, value, unit in table_cells(text):
        found.append((number, f"{value} {unit}", [value], unit))
    return sorted(found, key=lambda figure: figure[0])


def table_cells(text):
    """(line number, number, unit) of each Markdown table cell that is a number alone, in a
    column whose header names a unit."""
    found, units = [], None
    lines = text.splitlines()
    for number, (header, line) in enumerate(zip([""] + lines, lines), 1):
        line = line.strip()
        if TABLE_SEPARATOR.match(line):
            units = [HEADER_UNIT.search(cell) for cell in header.strip().strip("|").split("|")]
        elif line.startswith("|") and units:
            for unit, cell in zip(units, line.strip("|").split("|")):
                value = CELL_NUMBER.fullmatch(cell.strip())
                if unit and value:
                    found.append((number, value["value"], unit.group(0)))
        else:
            units = None
    return found


def interval(written, unit):
    """'74.2', '%' -> ('%', 74.15, 74.3): the values that print as the number, rounded or cut
    (as scripts/ladder.py prints), in its kind's unit."""
    kind, size = UNITS[unit]
    plain = written.replace(",", "")
    digit = 10 ** -len(plain.partition(".")[2])
    return kind, (float(plain) - digit / 2) * size, (float(plain) + digit) * size


def csv_quantities(text):
    """(number, unit) of the programs' CSV columns that hold one, and the exact intervals of
    each run's ratios (run_ratios)."""
    return csv_quantities_of(list(csv.DictReader(text.splitlines())))


def csv_quantities_of(rows):
    """csv_quantities of rows already read."""
    if not rows or "unit" not in rows[0]:
        return [], []
    found = []
    for row in rows:
        for name, cell in row.items():
            unit = row["unit"] if name == "rate" else CSV_UNITS.get(name)
            if unit in UNITS and re.fullmatch(r"\d+(?:\.\d+)?", cell or ""):
                found.append((cell, unit))
    return found, run_ratios(rows)


def run_ratios(rows):
    """Each rate of a run (one stage's program on one problem) over the run's base and over its
    default (its first `stage` row), as a ratio and as a change in %, unsigned: the program's
    `vs base`, which its printed table has and its CSV leaves out, and a page's "4.1% faster
    than the default". Only these two quotients: every pair of a long file's rates would hold
    a quotient near almost any ratio."""
    runs = {}
    for row in rows:
        if row["role"] != "transfer" and row["rate"]:
            runs.setdefault((row["stage"], row["problem"]), []).append(row)
    found = []
    for run in runs.values():
        for role in ("baseline", "stage"):
            reference = next((r for r in run if r["role"] == role), None)
            for row in run:
                if reference and row is not reference:
                    ratio = float(row["rate"]) / float(reference["rate"])
                    change = abs(ratio - 1) * 100
                    found += [("x", ratio, ratio), ("%", change, change)]
    return found


def record_of(full):
    """{kind: (intervals sorted, the widest's width)} of the numbers a results file prints
    with a unit, and of its runs' ratios."""
    with open(full, encoding="utf-8") as f:
        text = f.read()
    found, exact = csv_quantities(text) if full.endswith(".csv") else ([], [])
    found += [(n, unit) for _, _, written, unit in figures_in(text) for n in written]
    for match in HARNESS_ROW.finditer(text):
        found += [(match["median"], "ms"), (match["min"], "ms")]
    found += [(match["value"], "tests") for match in CTEST_TOTAL.finditer(text)]
    return record(found, exact)


def record(found, exact):
    """{kind: (intervals sorted, the widest's width)} of numbers as written with their units
    (`found`) and of exact intervals (`exact`, run_ratios')."""
    spans = {}
    for kind, low, high in [interval(written, unit) for written, unit in found] + exact:
        spans.setdefault(kind, []).append((low, high))
    return {kind: (sorted(s), max(high - low for low, high in s)) for kind, s in spans.items()}


def holds(record, written, unit):
    """Whether a file's record has the number the page writes: the values that print as the
    page's figure meet the values that print as the file's number (a page's 80.5%, cut, is
    the file's 80.6%, rounded, of 80.58%)."""
    kind, low, high = interval(written, unit)
    spans, widest = record.get(kind, ([], 0))
    # A printed half (74.15) can land a float's width either side; the margin takes it in.
    margin = 1e-9 * abs(high)
    index = bisect.bisect_left(spans, (low - widest - margin,))
    for start, end in spans[index:]:
        if start >= high + margin:
            return False
        if end >= low - margin:
            return True
    return False


def sentence_of(lines, number, written):
    """The sentence of the prose `lines` that holds the figure `written` on line `number`: its
    paragraph's lines joined, cut at the sentence ends around the figure. A table row is its
    own sentence."""
    if lines[number - 1].lstrip().startswith("|"):
        return lines[number - 1]
    first = last = number - 1
    while first > 0 and lines[first - 1].strip() and not lines[first - 1].lstrip().startswith("|"):
        first -= 1
    while last + 1 < len(lines) and lines[last + 1].strip():
        last += 1
    before = " ".join(lines[first:number - 1] + [""])
    at = len(before) + max(lines[number - 1].find(written), 0)
    text = " ".join(lines[first:last + 1])
    ends = [m.end() for m in SENTENCE_END.finditer(text)]
    start = max([end for end in ends if end <= at], default=0)
    stop = min([end for end in ends if end > at], default=len(text))
    return text[start:stop]


def shapes_named(text):
    """The distinct (M, N, K) a piece of prose names."""
    found = {tuple(int(n) for n in match) for match in SHAPE.findall(text)}
    return found | {(int(n),) * 3 for n in CUBE.findall(text)}


def shape_record(full, shape):
    """record_of the programs' CSV rows of one problem, M x N x K; None where it has none."""
    m, n, k = shape
    with open(full, encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    rows = [row for row in rows if ladder.dimensions(row.get("problem", "")) == (m, k, k, n)]
    if not rows:
        return None
    return record(*csv_quantities_of(rows))


def cited_files(root, page, text):
    """The results files the page cites, by a link or a code span; a cited folder cites each
    record file in it."""
    folder = os.path.dirname(page)
    targets = [os.path.join(folder, m["target"].partition("#")[0]) for m in LINK.finditer(text)]
    targets += [m["target"] for m in CODE_PATH.finditer(text)]
    cited = set()
    for target in targets:
        path = os.path.normpath(target)
        if path.split(os.sep)[0] != RESULTS:
            continue
        full = os.path.join(root, path)
        if os.path.isdir(full):
            for parent, _, names in os.walk(full):
                cited.update(os.path.relpath(os.path.join(parent, name), root) for name in names
                             if name.endswith(RECORD_SUFFIXES))
        elif os.path.isfile(full) and path.endswith(RECORD_SUFFIXES):
            cited.add(path)
    return sorted(cited)


def violations(root, page, allowed):
    """One line per figure of the page that no cited file holds and `allowed` does not name."""
    with open(os.path.join(root, page), encoding="utf-8") as f:
        text = f.read()
    files = cited_files(root, page, text)
    records = [record_of(os.path.join(root, path)) for path in files]
    searched = ", ".join(files) if files else "none: the page cites no results file"
    out = []
    lines = prose(text).splitlines()
    for line, written, numbers, unit in figures_in(prose(text)):
        if (page, written) in allowed:
            continue
        # A range's two ends come from one file, as a single figure does.
        held = [path for path, record in zip(files, records)
                if all(holds(record, n, unit) for n in numbers)]
        if not held:
            out.append(f"{page}:{line}: {written!r} is in no results file the page cites "
                       f"(searched: {searched})")
            continue
        # A sentence that names one shape quotes that shape's row: a long CSV holds the figure
        # in some other shape's row too, which is how a figure left behind by a rerun passes.
        # Where a cited CSV has rows of the shape, a CSV holds the figure only in those rows;
        # any other record (a page of notes) still may.
        named = shapes_named(sentence_of(lines, line, numbers[-1]))
        if len(named) != 1:
            continue
        shape = next(iter(named))
        rows = {path: shape_record(os.path.join(root, path), shape)
                for path in files if path.endswith(".csv")}
        with_shape = sorted(path for path, record in rows.items() if record is not None)
        if with_shape and not any(
                not path.endswith(".csv")
                or (rows[path] is not None
                    and all(holds(rows[path], n, unit) for n in numbers)) for path in held):
            out.append(f"{page}:{line}: {written!r} is in no row of {' x '.join(map(str, shape))} "
                       f"(M x N x K) in the CSVs the page cites ({', '.join(with_shape)})")
    return out


class ProseFiguresTest(unittest.TestCase):
    def test_every_figure_of_a_page_is_in_a_file_it_cites_or_allowed(self):
        found = [v for page in pages() for v in violations(REPO, page, ALLOWED)]
        self.assertEqual(found, [], "\n" + "\n".join(found) + "\n\nCorrect the figure from its "
                         "file, or cite the file that holds it, or point at the generated box "
                         "in words; only a figure that is no measurement belongs in ALLOWED.")

    def test_each_allowed_figure_is_still_on_its_page(self):
        # An entry whose figure has left its page would excuse the same figure if it came back
        # with another meaning.
        written = set()
        for page in pages():
            with open(os.path.join(REPO, page), encoding="utf-8") as f:
                written.update((page, figure) for _, figure, _, _ in figures_in(prose(f.read())))
        self.assertEqual(sorted(set(ALLOWED) - written), [])

    def test_a_drifted_figure_fails_naming_page_line_and_files(self):
        # The cited table.md holds a unitless 74.3: a number without a unit matches nothing.
        searched = "(searched: results/run.csv, results/table.md)"
        self.assertEqual(violations(FIXTURE_ROOT, "stage/DRIFTED.md", {}), [
            f"stage/DRIFTED.md:5: '74.3%' is in no results file the page cites {searched}",
            f"stage/DRIFTED.md:7: '1.70x' is in no results file the page cites {searched}",
            f"stage/DRIFTED.md:9: '33.1 TFLOP/s' is in no results file the page cites {searched}",
        ])

    def test_figures_at_the_printed_precision_in_cited_files_pass(self):
        # A CSV's 74.19 as 74.2% (rounded) and 74.1% (cut), its GFLOP/s as TFLOP/s, its ms, a
        # rate over the run's base, a Markdown file's cells under headers naming their unit,
        # and the page's own table cell; the generated section's and the code block's figures
        # are not read.
        with open(os.path.join(FIXTURE_ROOT, "stage/MATCHING.md"), encoding="utf-8") as f:
            written = [figure for _, figure, _, _ in figures_in(prose(f.read()))]
        self.assertEqual(written, ["74.2%", "74.1%", "33.0 TFLOP/s", "2.5 ms", "1.65x",
                                   "28,000 GFLOP/s", "61.5%", "33,000 GFLOP/s"])
        self.assertEqual(violations(FIXTURE_ROOT, "stage/MATCHING.md", {}), [])

    def test_a_figure_from_another_shapes_row_fails(self):
        # 74.19 is the 64^3 row's, 52.31 the 128 x 64 x 32 row's: a sentence that names one
        # shape must quote that shape's row, whether it names it as M x N x K or as a cube.
        self.assertEqual(violations(FIXTURE_ROOT, "stage/WRONG_SHAPE.md", {}), [
            "stage/WRONG_SHAPE.md:6: '74.2%' is in no row of 128 x 64 x 32 (M x N x K) in the "
            "CSVs the page cites (results/shapes.csv)",
            "stage/WRONG_SHAPE.md:8: '52.3%' is in no row of 64 x 64 x 64 (M x N x K) in the "
            "CSVs the page cites (results/shapes.csv)"])

    def test_a_figure_only_in_a_file_the_page_does_not_cite_fails(self):
        self.assertEqual(violations(FIXTURE_ROOT, "stage/UNCITED.md", {}), [
            "stage/UNCITED.md:3: '74.2%' is in no results file the page cites "
            "(searched: none: the page cites no results file)"])
        allowed = {("stage/UNCITED.md", "74.2%"): "the fixture's reason"}
        self.assertEqual(violations(FIXTURE_ROOT, "stage/UNCITED.md", allowed), [])


if __name__ == "__main__":
    unittest.main()
