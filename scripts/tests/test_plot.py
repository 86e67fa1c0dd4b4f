"""scripts/plot.py: the charts from the committed CSVs where matplotlib is installed, and what
it says without matplotlib (a stand-in package that fails to import) or without its CSVs."""
import importlib.util
import os
import shutil
import unittest

from support import REPO, ScriptTest

CSVS = ("ladder_4096.csv", "sweep_gemm.csv", "sweep_transpose.csv")
CHARTS = ("ladder.png", "gemm_sizes.png", "transpose_sizes.png")


class PlotTest(ScriptTest):
    def setUp(self):
        super().setUp()
        self.results = os.path.join(self.folder, "results")
        os.mkdir(self.results)
        for name in CSVS:
            shutil.copy(os.path.join(REPO, "results", name), self.results)

    def plot(self, python_path=None):
        return self.run_script("scripts/plot.py", "--results", self.results,
                               python_path=python_path)

    @unittest.skipUnless(importlib.util.find_spec("matplotlib"), "matplotlib is not installed")
    def test_charts_from_the_committed_csvs(self):
        done = self.plot()
        self.assertEqual(done.returncode, 0, done.stderr)
        for name in CHARTS:
            self.assertGreater(os.path.getsize(os.path.join(self.results, name)), 10000)

    def test_without_matplotlib(self):
        # A matplotlib that cannot be imported, first on the path, wherever the real one is.
        package = os.path.join(self.folder, "no_matplotlib", "matplotlib")
        os.makedirs(package)
        with open(os.path.join(package, "__init__.py"), "w") as f:
            f.write("raise ImportError('no matplotlib here (a test stand-in)')\n")
        done = self.plot(python_path=os.path.dirname(package))
        self.assert_clear_failure(done, 2, "matplotlib is not installed")
        for name in CHARTS:
            self.assertFalse(os.path.exists(os.path.join(self.results, name)))

    def test_missing_csv(self):
        os.remove(os.path.join(self.results, "sweep_gemm.csv"))
        done = self.plot()
        self.assert_clear_failure(done, 2, "cannot read")
        self.assertIn("sweep_gemm.csv", done.stderr)

    def test_csv_that_no_ladder_run_wrote(self):
        self.write("results/sweep_transpose.csv", "name,value\nx,1\n")
        done = self.plot()
        self.assert_clear_failure(done, 2, "is not a CSV that scripts/ladder.py wrote")


if __name__ == "__main__":
    unittest.main()
