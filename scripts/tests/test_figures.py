"""scripts/figures.py: the README's tables and the stage boxes' measured lines are what the
committed record gives, the no-GPU command prints exactly the README's tables, and a section
edited by hand (or a record changed without rewriting) is found."""
import csv
import os
import re
import shutil
import subprocess
import sys
import unittest

from support import REPO, ScriptTest

import figures

STAGE_PAGES = sorted(p for p in os.listdir(REPO) if re.match(r"\d\d_", p))


def section(path, name):
    with open(path) as f:
        found = [m["body"] for m in figures.SECTION.finditer(f.read()) if m["name"] == name]
    return found[0] if found else None


class FiguresTest(ScriptTest):
    def copy_of_the_repository(self, name="repo"):
        """The files figures.py reads and writes, in a folder of this test's called name."""
        root = os.path.join(self.folder, name)
        for page in STAGE_PAGES + ["results/clock_h100/part4_4096", figures.TF32_RECORD,
                                   figures.FP8_RECORD]:
            shutil.copytree(os.path.join(REPO, page), os.path.join(root, page))
        os.makedirs(os.path.join(root, os.path.dirname(figures.ACTIVE_SMS)))
        for name in ("README.md", figures.RECORD_4096, figures.RECORD_ARTICLES,
                     figures.SHAPES_RECORD, figures.ACTIVE_SMS):
            shutil.copy(os.path.join(REPO, name), os.path.join(root, name))
        return root

    def figures(self, *args):
        return self.run_script("scripts/figures.py", *args)

    def test_every_generated_section_matches_the_committed_record(self):
        done = self.figures("--check")
        self.assertEqual(done.returncode, 0,
                         done.stdout + done.stderr + "\nrun: python3 scripts/figures.py")

    def test_the_no_gpu_command_prints_exactly_the_readmes_tables(self):
        readme = os.path.join(REPO, "README.md")
        for name, record in (("ladder 4096", figures.RECORD_4096),
                             ("ladder articles", figures.RECORD_ARTICLES)):
            printed = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "ladder.py"),
                                      "--from-csv", os.path.join(REPO, record)],
                                     capture_output=True, text=True, timeout=60)
            self.assertEqual(printed.returncode, 0, printed.stderr)
            self.assertEqual(printed.stdout.strip(), section(readme, name).strip(), name)

    def test_every_stage_box_has_its_generated_measured_line(self):
        for page in STAGE_PAGES:
            with open(os.path.join(REPO, page, "README.md")) as f:
                box = [line for line in f if line.startswith("> **Measured:**")]
            self.assertEqual(len(box), 1, page)
            self.assertIn(f"<!-- figures: box {page[:2]} -->", box[0], page)

    def test_a_figure_edited_by_hand_is_found_and_rewritten(self):
        root = self.copy_of_the_repository()
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

    def test_a_changed_record_is_found(self):
        root = self.copy_of_the_repository()
        record = os.path.join(root, figures.RECORD_4096)
        with open(record, newline="") as f:
            rows = list(csv.DictReader(f))
        # Stage 18's own row 1% faster: its box, the README's rows and the tables change.
        own = next(r for r in rows if r["stage"] == "18_gpu_persistent_clusters" and r["role"] == "stage")
        own["rate"] = f"{float(own['rate']) * 1.01:.3f}"
        with open(record, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        done = self.figures("--check", "--root", root)
        self.assertEqual(done.returncode, 1)
        self.assertIn("18_gpu_persistent_clusters/README.md: box 18", done.stdout)
        self.assertIn("README.md: ladder 4096", done.stdout)

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
