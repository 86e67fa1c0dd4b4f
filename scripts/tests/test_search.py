"""scripts/search.py: a search over a stand-in program, and a program that is missing, finds
no GPU, fails or prints no table."""
import os
import unittest

from support import NO_GPU, ScriptTest, csv_rows  # support puts scripts/ on the path
from search import SIZES  # noqa: E402


class SearchTest(ScriptTest):
    def search(self, program, *options):
        build = self.make_manifest([
            {"name": "01_cpu", "gpu": False, "kind": "cpu", "program": "/none"},
            {"name": "11_gpu", "program": program, "search": ["--config all"]},
            {"name": "15_gpu", "program": "/not-built", "search": ["--config all"]},
        ])
        self.out = os.path.join(self.folder, "out")
        return self.run_script("scripts/search.py", "--build", build, "--out", self.out,
                               "--stage", "11_gpu", *options)

    def test_candidates_ranked_with_the_default_marked(self):
        rows = [("64x64,slow", "stage", "100"), ("128x64,fast", "stage", "300"),
                ("cuBLAS SGEMM FP32", "ceiling", "400")]
        done = self.search(self.make_program("11_gpu", csv_rows("11_gpu", rows)))
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(os.path.join(self.out, "11_gpu", "search.md")) as f:
            table = f.read()
        self.assertLess(table.index("128x64 "), table.index("64x64 (default)"))
        with open(os.path.join(self.out, "11_gpu", "search.csv")) as f:
            self.assertEqual(len(f.read().splitlines()), 1 + len(SIZES) * len(rows))

    def test_the_table_names_the_stages_own_ceiling(self):
        rows = [("64x64", "stage", "100"), ("cuBLAS BF16 (FP32 accumulate)", "ceiling", "400")]
        done = self.search(self.make_program("11_gpu", csv_rows("11_gpu", rows)))
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(os.path.join(self.out, "11_gpu", "search.md")) as f:
            self.assertIn("% of cuBLAS BF16 (FP32 accumulate) in the same run", f.read())

    def test_a_stage_that_searches_nothing(self):
        build = self.make_manifest([{"name": "11_gpu", "program": "/none", "search": ["x"]}])
        done = self.run_script("scripts/search.py", "--build", build, "--stage", "01_cpu")
        self.assert_clear_failure(done, 2, "no stage declares SEARCH arguments among 01_cpu")

    def test_missing_program(self):
        done = self.search(os.path.join(self.folder, "not_built"))
        self.assert_clear_failure(done, 2, "no program")

    def test_no_gpu_is_a_failure_not_a_skip(self):
        no_device = "11_gpu: skipped: no usable CUDA device: no NVIDIA GPU or driver found\n"
        done = self.search(self.make_program("11_gpu", stderr=no_device, exit_code=NO_GPU))
        self.assert_clear_failure(done, 1, "found no usable GPU (exit code 77)")
        self.assertIn("no NVIDIA GPU or driver found", done.stderr.splitlines()[-1])

    def test_failing_program(self):
        done = self.search(self.make_program("11_gpu", stderr="wrong result\n", exit_code=1))
        self.assert_clear_failure(done, 1, "11_gpu failed with exit code 1")

    def test_program_that_prints_no_csv(self):
        done = self.search(self.make_program("11_gpu", "Done.\n"))
        self.assert_clear_failure(done, 1, "printed no CSV rows")

    def test_missing_manifest(self):
        done = self.run_script("scripts/search.py", "--build", os.path.join(self.folder, "none"))
        self.assert_clear_failure(done, 2, "no stage manifest")


if __name__ == "__main__":
    unittest.main()
