"""scripts/plot.py: the charts from the committed CSVs where matplotlib is installed, and what
it says without matplotlib (a stand-in package that fails to import) or without its CSVs."""
import importlib.util
import os
import re
import shutil
import unittest

from support import CUBLAS_BF16, REPO, ScriptTest, fp32_and_tensor_core_programs

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
        # Each panel's ceiling line is its own cuBLAS, never the other's.
        self.assertEqual(plot.fastest_ceiling(cores, "cuBLAS"), (CUBLAS_BF16, 660000.0, 1))
        self.assertEqual(plot.fastest_ceiling(fp32, "cuBLAS")[0], "cuBLAS SGEMM FP32")
        # The peaks, from the device line of the rows that name them.
        self.assertEqual(plot.peak_gflops(rows, "BF16"), 900000.0)
        self.assertEqual(plot.peak_gflops(rows), 66900.0)

    def test_the_committed_csvs_have_a_tensor_core_panel(self):
        rows = plot.read(os.path.join(REPO, "results", "ladder_4096.csv"))
        (fp32, first), (cores, second), (tf32, third), (fp8, fourth) = plot.panels(rows)
        self.assertEqual((first, second, third, fourth),
                         ("", plot.TENSOR_PANEL, plot.TF32_PANEL, plot.FP8_PANEL))
        # The TF32 and the FP8 stage each alone in its panel, each line its own ceiling (the FP8
        # one cuBLASLt's default, not fast accumulation).
        self.assertEqual({r["stage"] for r in tf32}, {"20_gpu_tf32"})
        self.assertEqual(plot.fastest_ceiling(tf32, "cuBLAS TF32")[0], "cuBLAS TF32 (FP32 accumulate)")
        self.assertEqual({r["stage"] for r in fp8}, {"22_gpu_fp8"})
        self.assertEqual(plot.fastest_ceiling(fp8, "cuBLASLt FP8 (")[0],
                         "cuBLASLt FP8 (E4M3, FP32 accumulate)")
        # Every BF16 stage of Part 4 measured there (the Hopper ones only where the run had a
        # Hopper GPU), and only those: the Part 4 stages but the TF32 and the FP8 one.
        stages = {r["stage"] for r in cores}
        self.assertLessEqual({"13_gpu_wmma", "14_gpu_mma_ldmatrix", "15_gpu_mma_pipelined"}, stages)
        self.assertTrue(all(13 <= int(stage[:2]) <= 22 for stage in stages), stages)
        self.assertFalse({"20_gpu_tf32", "22_gpu_fp8"} & stages, stages)
        self.assertEqual({r["variant"] for r in cores if r["role"] == "ceiling"}, {CUBLAS_BF16})
        self.assertEqual(plot.peak_gflops(rows, "BF16"), 1070500.0)

    def test_parts_1_to_3_alone_have_no_tensor_core_panel(self):
        rows = plot.read(os.path.join(self.results, "ladder_4096.csv"))
        self.assertEqual([words for _, words in plot.panels(rows)], [""])
        self.assertIsNone(plot.peak_gflops(rows, "BF16"))

    def test_size_of_a_problem(self):
        self.assertEqual(plot.size_of("A 4096x4096 * B 4096x4096"), 4096)
        self.assertEqual(plot.size_of("A 1920x1024 * B 1024x1280"), 1360)
        self.assertEqual(plot.size_of("A 512x512 * B 512x512 (BF16)"), 512)
        self.assertEqual(plot.size_of("8192x8192 floats"), 8192)

    def test_percentages_are_cut_and_rates_rounded_as_in_the_tables(self):
        self.assertEqual(plot.cut(99.96, 1), "99.9")
        self.assertEqual(plot.cut(100 * 749165.774 / 751920.020, 1), "99.6")
        self.assertEqual(plot.cut(0.29 * 100, 1), "29.0")  # 28.999999999999996 in floats
        self.assertEqual(plot.rate_label(5.516), "5.5")
        self.assertEqual(plot.rate_label(9.96), "10.0")  # as ladder.py's table prints it
        self.assertEqual(plot.rate_label(698141.623), "698,142")

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
