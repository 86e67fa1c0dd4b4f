"""scripts/shapes.py: a stage run over a shape list, its % of cuBLAS BF16 per shape, the
geometric mean and the lowest, the CSV read back, and what it says when it cannot run."""
import csv
import os
import sys
import unittest

from support import CUBLAS_BF16, NO_GPU, REPO, ScriptTest, csv_rows

STAGE = "19_gpu"


class ShapesTest(ScriptTest):
    def setUp(self):
        super().setUp()
        self.shapes = self.write("shapes.csv", """\
            name,m,n,k
            square,64,64,64
            thin,16,256,64
            """)

    def stage(self, rate, cublas, exit_code=0, stderr=""):
        """A stand-in stage program printing one default row and its ceiling."""
        program = self.make_program(STAGE, csv_rows(STAGE, [("default", "stage", rate),
                                                            (CUBLAS_BF16, "ceiling", cublas)]),
                                    stderr=stderr, exit_code=exit_code)
        return self.make_manifest([{"name": STAGE, "part": 4, "program": program}])

    def shapes_py(self, *args):
        return self.run_script("scripts/shapes.py", *args)

    def test_each_shape_against_cublas_then_the_mean_and_the_lowest(self):
        build = self.stage("450", "500")
        out = os.path.join(self.folder, "run.csv")
        done = self.shapes_py("--build", build, "--stage", STAGE, "--shapes", self.shapes,
                              "--csv", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("| square", done.stdout)
        self.assertIn("| thin", done.stdout)
        self.assertEqual(done.stdout.count("| 90.0%"), 2)
        self.assertIn("Geometric mean 90.0% of cuBLAS BF16 over 2 shapes; lowest 90.0% (square).",
                      done.stdout)
        again = self.shapes_py("--from-csv", out)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertEqual(again.stdout, done.stdout)

    def test_the_mean_is_geometric_and_cut(self):
        done = self.shapes_py("--from-csv", self.write("two.csv", """\
            stage,variant,role,problem,device,median_ms,min_ms,runs,rate,unit,pct_of_ceiling,verified,shape
            19_gpu,default,stage,A 1x1 * B 1x1,gpu,1,1,3,50,GFLOP/s,,yes,a
            19_gpu,cuBLAS BF16 (FP32 accumulate),ceiling,A 1x1 * B 1x1,gpu,1,1,3,100,GFLOP/s,,yes,a
            19_gpu,default,stage,A 1x1 * B 1x1,gpu,1,1,3,200,GFLOP/s,,yes,b
            19_gpu,cuBLAS BF16 (FP32 accumulate),ceiling,A 1x1 * B 1x1,gpu,1,1,3,100,GFLOP/s,,yes,b
            """))
        self.assertEqual(done.returncode, 0, done.stderr)
        # sqrt(50% x 200%) = 100%, not the arithmetic 125%.
        self.assertIn("Geometric mean 100.0% of cuBLAS BF16 over 2 shapes; lowest 50.0% (a).",
                      done.stdout)
        self.assertIn("Rows whose median is more than 1.15x their fastest run: 0.", done.stdout)

    def test_a_baseline_and_several_variants_give_the_baseline_and_the_oracle(self):
        done = self.shapes_py("--from-csv", self.write("all.csv", """\
            stage,variant,role,problem,device,median_ms,min_ms,runs,rate,unit,pct_of_ceiling,verified,shape
            21_gpu,19 base,baseline,A 1x1 * B 1x1,gpu,1,1,3,80,GFLOP/s,,yes,a
            21_gpu,rule,stage,A 1x1 * B 1x1,gpu,1,1,3,90,GFLOP/s,,yes,a
            21_gpu,wide,stage,A 1x1 * B 1x1,gpu,2,1,3,95,GFLOP/s,,yes,a
            21_gpu,cuBLAS BF16 (FP32 accumulate),ceiling,A 1x1 * B 1x1,gpu,1,1,3,100,GFLOP/s,,yes,a
            21_gpu,19 base,baseline,A 1x1 * B 1x1,gpu,1,1,3,100,GFLOP/s,,yes,b
            21_gpu,rule,stage,A 1x1 * B 1x1,gpu,1,1,3,99,GFLOP/s,,yes,b
            21_gpu,wide,stage,A 1x1 * B 1x1,gpu,1,1,3,50,GFLOP/s,,yes,b
            21_gpu,cuBLAS BF16 (FP32 accumulate),ceiling,A 1x1 * B 1x1,gpu,1,1,3,100,GFLOP/s,,yes,b
            """))
        self.assertEqual(done.returncode, 0, done.stderr)
        # The baseline: sqrt(80% x 100%) = 89.4%; the rule is 1 point below it on b.
        self.assertIn("The baseline in the same programs: geometric mean 89.4%, lowest 80.0% (a); "
                      "the default is below it on 1 shape, by at most 1.0 points (b).", done.stdout)
        # The oracle takes the other variant on a (95%) and the baseline on b (100%), never the
        # default itself.
        self.assertIn("(the oracle): geometric mean 97.4%, lowest 95.0% (a); the default is at "
                      "most 5.0 points below it (a).", done.stdout)
        self.assertIn("| 19 base", done.stdout)
        # A median twice the fastest run is named as noisy.
        self.assertIn("Rows whose median is more than 1.15x their fastest run: 1 (a, wide: 2.00x).",
                      done.stdout)

    def test_fp8_rows_name_their_ceiling_and_no_oracle_drops_the_other_recipes(self):
        path = self.write("fp8.csv", """\
            stage,variant,role,problem,device,median_ms,min_ms,runs,rate,unit,pct_of_ceiling,verified,shape
            22_gpu,19 clusters (BF16),baseline,A 1x1 * B 1x1,gpu,1,1,3,50,GFLOP/s,,yes,a
            22_gpu,by_size,stage,A 1x1 * B 1x1,gpu,1,1,3,90,GFLOP/s,,yes,a
            22_gpu,per-block scales,stage,A 1x1 * B 1x1,gpu,1,1,3,95,GFLOP/s,,yes,a
            22_gpu,"cuBLASLt FP8 (E4M3, FP32 accumulate)",ceiling,A 1x1 * B 1x1,gpu,1,1,3,100,GFLOP/s,,yes,a
            """)
        done = self.shapes_py("--from-csv", path, "--no-oracle")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("Geometric mean 90.0% of cuBLASLt FP8 over 1 shapes; lowest 90.0% (a).",
                      done.stdout)
        self.assertIn("cuBLASLt FP8, same program", done.stdout)
        self.assertNotIn("oracle", done.stdout)
        self.assertNotIn("best variant", done.stdout)
        # Without --no-oracle the per-block row would count as a choice of the default.
        self.assertIn("(the oracle)", self.shapes_py("--from-csv", path).stdout)

    def test_a_shape_the_library_refused_is_left_out_and_named(self):
        done = self.shapes_py("--from-csv", self.write("refused.csv", """\
            stage,variant,role,problem,device,median_ms,min_ms,runs,rate,unit,pct_of_ceiling,verified,shape
            22_gpu,by_size,stage,A 1x1 * B 1x1,gpu,1,1,3,90,GFLOP/s,,yes,a
            22_gpu,"cuBLASLt FP8 (E4M3, FP32 accumulate)",ceiling,A 1x1 * B 1x1,gpu,1,1,3,100,GFLOP/s,,yes,a
            22_gpu,by_size,stage,A 1x1 * B 1x1,gpu,1,1,3,90,GFLOP/s,,yes,odd
            """), "--no-oracle")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("over 1 shapes; lowest 90.0% (a).", done.stdout)
        self.assertIn("Without a ceiling row (the library refused the shape), so left out: odd.",
                      done.stdout)

    def test_no_gpu_is_a_skip_with_the_reason(self):
        build = self.stage("0", "0", exit_code=NO_GPU,
                           stderr="19_gpu: skipped: no usable CUDA device\n")
        done = self.shapes_py("--build", build, "--stage", STAGE, "--shapes", self.shapes)
        self.assertEqual(done.returncode, NO_GPU)
        self.assertIn("skipped: no usable CUDA device", done.stdout)

    def test_the_csv_keeps_the_shapes_a_stopped_run_finished(self):
        # The stand-in runs the first shape and finds no GPU at the second (m = 16).
        rows = csv_rows(STAGE, [("default", "stage", "100"), (CUBLAS_BF16, "ceiling", "200")])
        program = os.path.join(self.folder, STAGE)
        with open(program, "w") as f:
            f.write(f"#!{sys.executable}\nimport sys\n"
                    "if sys.argv[sys.argv.index('--m') + 1] == '16':\n"
                    "    sys.stderr.write('19_gpu: skipped: no usable CUDA device\\n')\n"
                    f"    sys.exit({NO_GPU})\n"
                    f"sys.stdout.write({rows!r})\n")
        os.chmod(program, 0o755)
        build = self.make_manifest([{"name": STAGE, "part": 4, "program": program}])
        out = os.path.join(self.folder, "run.csv")
        done = self.shapes_py("--build", build, "--stage", STAGE, "--shapes", self.shapes,
                              "--csv", out)
        self.assertEqual(done.returncode, NO_GPU, done.stderr)
        with open(out, newline="") as f:
            self.assertEqual({row["shape"] for row in csv.DictReader(f)}, {"square"})

    def test_missing_stage_list_or_csv_exits_2(self):
        build = self.stage("1", "1")
        self.assert_clear_failure(self.shapes_py("--build", build, "--stage", "99_none",
                                                 "--shapes", self.shapes), 2, "no stage 99_none")
        self.assert_clear_failure(self.shapes_py("--build", build, "--stage", STAGE, "--shapes",
                                                 os.path.join(self.folder, "none.csv")),
                                  2, "cannot read the shape list")
        self.assert_clear_failure(self.shapes_py("--from-csv", self.shapes), 2,
                                  "not a CSV that shapes.py --csv wrote")

    def test_the_other_committed_lists_are_readable(self):
        import shapes
        for name, count in (("model_shapes_more.csv", 15), ("model_shapes_heldout.csv", 12),
                            ("model_shapes_unseen.csv", 31), ("unaligned_shapes.csv", 9)):
            listed = shapes.read_shapes(os.path.join(REPO, "scripts", name))
            self.assertEqual(len(listed), count, name)
            self.assertTrue(all(m > 0 and n > 0 and k > 0 for _, m, n, k in listed), name)

    def test_the_committed_list_has_the_issues_21_shapes(self):
        with open(os.path.join(REPO, "scripts", "model_shapes.csv")) as f:
            lines = f.read().strip().splitlines()
        self.assertEqual(lines[0], "name,m,n,k")
        self.assertEqual(len(lines) - 1, 21)


if __name__ == "__main__":
    unittest.main()
