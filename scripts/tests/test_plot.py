"""scripts/plot.py: the charts from the committed CSVs where matplotlib is installed, and what
it says without matplotlib (a stand-in package that fails to import) or without its CSVs."""
import importlib.util
import os
import re
import shutil
import unittest

from support import REPO, ScriptTest, fp32_and_tensor_core_programs

import plot

HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib")

CSVS = ("ladder_4096.csv", "sweep_gemm.csv", "sweep_transpose.csv")
CHARTS = ("ladder.png", "gemm_sizes.png", "transpose_sizes.png")
PART4_ROW = re.compile(r"(1[3-9]|2[0-9])_gpu_")  # a CSV row of a committed Part 4 stage
BF16_PEAK = re.compile(r", BF16 peak [0-9.]+ TFLOP/s")


class PlotTest(ScriptTest):
    def setUp(self):
        super().setUp()
        self.results = os.path.join(self.folder, "results")
        os.mkdir(self.results)
        # Parts 1-3 of the committed CSVs (the stages before 13) as a run before Part 4 wrote
        # them, with no BF16 peak in the device line: the tests add stand-in tensor-core
        # stages of their own, whose rows and peaks they know exactly.
        for name in CSVS:
            with open(os.path.join(REPO, "results", name)) as source:
                lines = source.read().splitlines(keepends=True)
            with open(os.path.join(self.results, name), "w") as copy:
                copy.writelines(BF16_PEAK.sub("", line) for line in lines
                                if not PART4_ROW.match(line))

    def plot(self, python_path=None):
        return self.run_script("scripts/plot.py", "--results", self.results,
                               python_path=python_path)

    @unittest.skipUnless(HAS_MATPLOTLIB, "matplotlib is not installed")
    def test_charts_from_the_committed_csvs(self):
        done = self.plot()
        self.assertEqual(done.returncode, 0, done.stderr)
        for name in CHARTS:
            self.assertGreater(os.path.getsize(os.path.join(self.results, name)), 10000)

    def add_tensor_core_stages(self):
        """The committed CSVs with a stand-in FP32 stage and tensor-core stage added to each
        GEMM one, as a Part 4 run would write them."""
        for name, problems in (("ladder_4096.csv", ["A 4096x4096 * B 4096x4096"]),
                               ("sweep_gemm.csv", ["A 256x256 * B 256x256",
                                                   "A 4096x4096 * B 4096x4096"])):
            with open(os.path.join(self.results, name), "a") as f:
                for problem in problems:
                    for output in fp32_and_tensor_core_programs(problem).values():
                        f.write(output.split("\n", 1)[1])

    @unittest.skipUnless(HAS_MATPLOTLIB, "matplotlib is not installed")
    def test_charts_with_tensor_core_stages(self):
        self.add_tensor_core_stages()
        done = self.plot()
        self.assertEqual(done.returncode, 0, done.stderr)
        for name in CHARTS:
            self.assertGreater(os.path.getsize(os.path.join(self.results, name)), 10000)

    def test_each_stage_goes_to_the_panel_of_its_ceiling(self):
        self.add_tensor_core_stages()
        rows = plot.read(os.path.join(self.results, "ladder_4096.csv"))
        (fp32, first), (cores, second) = plot.panels(rows)
        self.assertEqual((first, second), ("", plot.TENSOR_PANEL))
        self.assertEqual({r["stage"] for r in cores}, {"13_gpu"})
        self.assertIn("12_gpu", {r["stage"] for r in fp32})
        self.assertIn("12_gpu_pipelined", {r["stage"] for r in fp32})

    def test_the_climb_sets_each_stage_against_its_own_programs_ceiling(self):
        self.add_tensor_core_stages()
        rows = plot.read(os.path.join(self.results, "ladder_4096.csv"))
        bars = {stage: (percent, family, borrowed)
                for stage, _, percent, family, borrowed in plot.climb(rows)}
        # 13's fastest row, 132,000 GFLOP/s, against its own cuBLAS BF16 (660,000), never FP32.
        self.assertAlmostEqual(bars["13_gpu"][0], 20.0)
        self.assertEqual(bars["13_gpu"][1:], (plot.TENSOR_PANEL, False))
        self.assertEqual(bars["12_gpu"][1:], ("", False))

    def test_the_committed_climb(self):
        rows = plot.read(os.path.join(REPO, "results", "ladder_4096.csv"))
        gemm = [r for r in rows if r["unit"] == "GFLOP/s"]
        bars = plot.climb(gemm)
        stages = [stage for stage, *_ in bars]
        self.assertEqual(stages, list(dict.fromkeys(r["stage"] for r in gemm)))
        self.assertEqual(stages[0], "01_cpu_naive")
        self.assertEqual(stages[-1], "22_gpu_fp8")
        families = {stage: family for stage, _, _, family, _ in bars}
        self.assertEqual(families["20_gpu_tf32"], plot.TF32_PANEL)
        self.assertEqual(families["22_gpu_fp8"], plot.FP8_PANEL)
        self.assertEqual(families["19_gpu_clusters"], plot.TENSOR_PANEL)
        self.assertEqual(families["12_gpu_pipelined"], "")
        for stage, best, percent, _, borrowed in bars:
            with self.subTest(stage=stage):
                # Only the CPU stages, whose programs time no ceiling, borrow one.
                self.assertEqual(borrowed, "cpu" in stage)
                if not borrowed:
                    top = plot.ladder.ceiling([r for r in gemm if r["stage"] == stage])
                    self.assertAlmostEqual(percent, 100 * float(best["rate"]) / float(top["rate"]))

    def test_parts_1_to_3_alone_have_no_tensor_core_panel(self):
        rows = plot.read(os.path.join(self.results, "ladder_4096.csv"))
        self.assertEqual([words for _, words in plot.panels(rows)], [""])

    def test_size_of_a_problem(self):
        self.assertEqual(plot.size_of("A 4096x4096 * B 4096x4096"), 4096)
        self.assertEqual(plot.size_of("A 1920x1024 * B 1024x1280"), 1360)
        self.assertEqual(plot.size_of("A 512x512 * B 512x512 (BF16)"), 512)
        self.assertEqual(plot.size_of("8192x8192 floats"), 8192)

    def test_percentages_are_cut_as_in_the_tables(self):
        self.assertEqual(plot.cut(99.96, 1), "99.9")
        self.assertEqual(plot.cut(100 * 749165.774 / 751920.020, 1), "99.6")
        self.assertEqual(plot.cut(0.29 * 100, 1), "29.0")  # 28.999999999999996 in floats
        self.assertEqual(plot.percent_label(99.96), "99.9%")
        self.assertEqual(plot.percent_label(0.0027654), "0.0027%")  # a CPU stage's share, cut

    def test_stage_names_wrap_after_underscores(self):
        self.assertEqual(plot.wrap_name("17_gpu_warp_specialized"), "17_gpu_warp_\nspecialized")
        self.assertEqual(plot.wrap_name("18_gpu_persistent"), "18_gpu_\npersistent")
        self.assertEqual(plot.wrap_name("16_gpu_tma_wgmma"), "16_gpu_tma_wgmma")

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
