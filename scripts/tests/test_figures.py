"""scripts/figures.py: the full tables (results/ladder.md) and the stage boxes' measured lines
are what the committed record gives, the no-GPU command with --wide prints exactly those
tables, and a section edited by hand (or a record changed without rewriting) is found."""
import csv
import os
import re
import shutil
import subprocess
import sys
import unittest

from support import REPO, STAGES, ScriptTest

import figures


def section(path, name):
    with open(path) as f:
        found = [m["body"] for m in figures.SECTION.finditer(f.read()) if m["name"] == name]
    return found[0] if found else None


class FiguresTest(ScriptTest):
    def copy_of_the_repository(self, name="repo"):
        """The files figures.py reads and writes, in a folder of this test's called name."""
        root = os.path.join(self.folder, name)
        ablations = [os.path.join("results", stage) for stage in figures.ABLATION_STAGES]
        folders = [figures.CLOCKS, figures.TF32_RECORD, figures.FP8_RECORD] + ablations
        for page in STAGES + folders:
            shutil.copytree(os.path.join(REPO, page), os.path.join(root, page))
        os.makedirs(os.path.join(root, os.path.dirname(figures.ACTIVE_SMS)))
        for name in ("README.md", figures.TABLES_PAGE, figures.RECORD_4096,
                     figures.RECORD_ARTICLES,
                     figures.SHAPES_RECORD, figures.MODEL_PICKS, figures.SHAPES_NOTES,
                     figures.ACTIVE_SMS,
                     figures.MMA_PEAK):
            shutil.copy(os.path.join(REPO, name), os.path.join(root, name))
        return root

    def figures(self, *args):
        return self.run_script("scripts/figures.py", *args)

    def test_every_generated_section_matches_the_committed_record(self):
        done = self.figures("--check")
        self.assertEqual(done.returncode, 0,
                         done.stdout + done.stderr + "\nrun: python3 scripts/figures.py")

    def test_the_no_gpu_command_prints_exactly_the_full_tables(self):
        readme = os.path.join(REPO, figures.TABLES_PAGE)
        for name, record in (("ladder 4096", figures.RECORD_4096),
                             ("ladder articles", figures.RECORD_ARTICLES)):
            printed = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "ladder.py"),
                                      "--wide", "--from-csv", os.path.join(REPO, record)],
                                     capture_output=True, text=True, timeout=60)
            self.assertEqual(printed.returncode, 0, printed.stderr)
            self.assertEqual(printed.stdout.strip(), section(readme, name).strip(), name)

    def test_every_stage_box_has_its_generated_measured_line(self):
        for page in STAGES:
            with open(os.path.join(REPO, page, "README.md")) as f:
                box = [line for line in f if line.startswith("> **Measured:**")]
            self.assertEqual(len(box), 1, page)
            self.assertIn(f"<!-- figures: box {page[:2]} -->", box[0], page)

    def test_a_figure_edited_by_hand_is_found_and_rewritten(self):
        root = self.copy_of_the_repository()
        self.assertEqual(self.figures("--root", root).returncode, 0)
        page = os.path.join(root, "15_gpu_mma_pipelined", "README.md")
        with open(page) as f:
            text = f.read()
        edited = re.sub(r"(<!-- figures: box 15 -->.*?)\d+\.\d%", r"\g<1>55.0%", text, count=1)
        self.assertNotEqual(edited, text)
        with open(page, "w") as f:
            f.write(edited)
        done = self.figures("--check", "--root", root)
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stdout.strip(), "differs from the record: 15_gpu_mma_pipelined/README.md: box 15")
        self.assertEqual(self.figures("--root", root).returncode, 0)
        with open(page) as f:
            self.assertEqual(f.read(), text)
        self.assertEqual(self.figures("--check", "--root", root).returncode, 0)

    def edit_record(self, root, edit):
        """Rewrites the copy's record at 4096^3 with edit(row) applied to each row."""
        record = os.path.join(root, figures.RECORD_4096)
        with open(record, newline="") as f:
            rows = list(csv.DictReader(f))
        for row in rows:
            edit(row)
        with open(record, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)

    def test_a_changed_record_is_found(self):
        root = self.copy_of_the_repository()
        self.assertEqual(self.figures("--root", root).returncode, 0)

        def faster(row):
            # Stage 18's own row 1% faster: its box, the full tables' rows and the tables change
            # (stage 19's box compares with stage 18's kernel timed in its own program).
            if row["stage"] == "18_gpu_persistent" and row["role"] == "stage":
                row["rate"] = f"{float(row['rate']) * 1.01:.3f}"
        self.edit_record(root, faster)
        done = self.figures("--check", "--root", root)
        self.assertEqual(done.returncode, 1)
        self.assertEqual(set(done.stdout.splitlines()), {
            "differs from the record: " + name for name in (
                "18_gpu_persistent/README.md: box 18", "results/ladder.md: ladder 4096",
                "results/ladder.md: part 4")})

    def sections_of(self, root):
        """figures.py's sections of the repository at root."""
        self.addCleanup(setattr, figures, "ROOT", figures.ROOT)
        figures.ROOT = root
        return figures.sections()

    def test_boxes_name_the_records_gpu_and_its_own_ceiling(self):
        out = self.sections_of(self.copy_of_the_repository())
        gpu = figures.ladder.gpu_name(figures.ladder.read_rows(
            os.path.join(REPO, figures.RECORD_4096), "stage", "ladder.py"))
        for page in STAGES[2:]:  # the CPU stages name no GPU
            box = out[(os.path.join(page, "README.md"), f"box {page[:2]}")]
            self.assertIn(f"({gpu}, {figures.RECORD_LINK})", box, page)
        box = out[(os.path.join(figures.TF32_STAGE, "README.md"), f"box {figures.TF32_STAGE[:2]}")]
        self.assertIn("% of cuBLAS TF32 in the same program", box)
        self.assertNotIn("BF16", box)
        self.assertIn("% of cuBLASLt FP8 in the same program",
                      out[(os.path.join(figures.FP8_STAGE, "README.md"), f"box {figures.FP8_STAGE[:2]}")])

    def test_clock_figures_only_where_the_clock_was_measured_on_the_records_gpu(self):
        root = self.copy_of_the_repository()
        with open(os.path.join(root, figures.CLOCKS, "13_gpu_wmma.txt")) as f:
            clock_gpu = re.search(r"^on (.+?) \(", f.read(), re.M)[1]
        clocked = {name[:-len(".txt")] for name in os.listdir(os.path.join(root, figures.CLOCKS))}

        def box(out, stage):
            return out[(os.path.join(stage, "README.md"), f"box {stage[:2]}")]
        mixed = self.sections_of(root)
        if clock_gpu not in box(mixed, "13_gpu_wmma"):
            # The record ran on another GPU than the clocks: no clock figure anywhere.
            self.assertNotIn("tensor pipe", box(mixed, "13_gpu_wmma"))
            self.assertNotIn("SM clock", mixed[(figures.TABLES_PAGE, "part 4")])
            self.assertIn("was not measured on the", mixed[(figures.TABLES_PAGE, "part 4")])
        # The record as if run on the clocks' GPU: the stages with a clock file get their clock
        # figure, the others none.

        def on_clock_gpu(row):
            row["device"] = re.sub(r"^[^(]+ \(", clock_gpu + " (", row["device"])
        self.edit_record(root, on_clock_gpu)
        same = self.sections_of(root)
        for stage in figures.PART4_KERNELS:
            self.assertEqual("of the tensor pipe's ceiling at the" in box(same, stage),
                             stage in clocked, stage)
        self.assertIn("SM clock (Nsight Compute)", same[(figures.TABLES_PAGE, "part 4")])

    def check_with_page_13(self, edit, name="repo"):
        """figures.py --check on a copy (folder name) whose page 13 is edit(its text)."""
        root = self.copy_of_the_repository(name)
        page = os.path.join(root, "13_gpu_wmma", "README.md")
        with open(page) as f:
            text = f.read()
        with open(page, "w") as f:
            f.write(edit(text))
        return self.figures("--check", "--root", root)

    def test_a_marker_that_nothing_writes_is_an_error(self):
        done = self.check_with_page_13(lambda text: text + "\n<!-- figures: box 31 --><!-- /figures -->\n")
        self.assertEqual(done.returncode, 2)
        self.assertIn("markers that nothing writes: box 31", done.stderr)

    def test_a_page_without_its_markers_is_an_error(self):
        for index, missing in enumerate(("", "<!-- figures: box 31 -->")):  # gone, or renamed
            done = self.check_with_page_13(
                lambda text: text.replace("<!-- figures: box 13 -->", missing), f"repo{index}")
            self.assertEqual(done.returncode, 2)
            self.assertIn("13_gpu_wmma/README.md has no markers for box 13", done.stderr)


if __name__ == "__main__":
    unittest.main()
