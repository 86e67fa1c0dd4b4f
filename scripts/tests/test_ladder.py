"""scripts/ladder.py: a run over stand-in stage programs, the committed CSV read back, and
what it says when a program, the manifest or a CSV is missing or unreadable."""
import os
import unittest

from support import NO_GPU, REPO, ScriptTest, csv_rows

NO_DEVICE = "06_gpu: skipped: no usable CUDA device: no NVIDIA GPU or driver found\n"


class LadderTest(ScriptTest):
    def ladder(self, *args):
        return self.run_script("scripts/ladder.py", *args)

    def test_cpu_rows_and_a_skipped_gpu_stage_point_to_the_committed_tables(self):
        cpu = self.make_program("01_cpu", csv_rows("01_cpu", [("i-j-k", "stage", "2.5")]))
        gpu = self.make_program("06_gpu", stderr=NO_DEVICE, exit_code=NO_GPU)
        build = self.make_manifest([
            {"name": "01_cpu", "gpu": False, "kind": "cpu", "program": cpu},
            {"name": "06_gpu", "kind": "transpose", "program": gpu},
        ])
        done = self.ladder("--build", build, "--m", "64", "--n", "64", "--k", "64")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("| 01_cpu | i-j-k", done.stdout)
        self.assertIn("skipped: no usable CUDA device", done.stdout)
        self.assertIn("results/", done.stdout.splitlines()[-1])
        self.assertIn("python3 scripts/ladder.py --from-csv results/ladder_4096.csv",
                      done.stdout.splitlines()[-1])

    def test_the_committed_csv_prints_its_tables(self):
        # The command the README and the skip line give a reader without a GPU.
        done = self.ladder("--from-csv", os.path.join(REPO, "results", "ladder_4096.csv"))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("Matrix product, C = A * B (FP32)", done.stdout)
        self.assertIn("Transpose, out = in^T (FP32)", done.stdout)
        self.assertIn("12_gpu_pipelined", done.stdout)

    def test_missing_csv(self):
        done = self.ladder("--from-csv", os.path.join(self.folder, "none.csv"))
        self.assert_clear_failure(done, 2, "cannot read")

    def test_csv_that_no_ladder_run_wrote(self):
        path = self.write("other.csv", "name,value\nx,1\n")
        done = self.ladder("--from-csv", path)
        self.assert_clear_failure(done, 2, "is not a CSV that ladder.py --csv wrote")

    def test_csv_with_a_rate_that_is_not_a_number(self):
        path = self.write("bad.csv", csv_rows("03_gpu", [("v", "stage", "fast")]))
        done = self.ladder("--from-csv", path)
        self.assert_clear_failure(done, 2, "rate 'fast' is not a number")

    def test_missing_program(self):
        build = self.make_manifest([{"name": "03_gpu", "program": os.path.join(self.folder, "none")}])
        done = self.ladder("--build", build)
        self.assert_clear_failure(done, 2, "no program")

    def test_missing_manifest(self):
        done = self.ladder("--build", os.path.join(self.folder, "nowhere"))
        self.assert_clear_failure(done, 2, "no stage manifest")

    def test_program_that_prints_no_csv_is_a_failure(self):
        program = self.make_program("03_gpu", "Done: 1.0 GFLOP/s\n")
        build = self.make_manifest([{"name": "03_gpu", "program": program}])
        done = self.ladder("--build", build)
        self.assertNotIn("Traceback", done.stderr)
        self.assertEqual(done.returncode, 1)
        self.assertIn("FAILED: 03_gpu printed no CSV rows", done.stdout)

    def test_failing_program(self):
        program = self.make_program("03_gpu", stderr="wrong result\n", exit_code=1)
        build = self.make_manifest([{"name": "03_gpu", "program": program}])
        done = self.ladder("--build", build)
        self.assertEqual(done.returncode, 1)
        self.assertIn("FAILED: 03_gpu failed (exit code 1)", done.stdout)


if __name__ == "__main__":
    unittest.main()
