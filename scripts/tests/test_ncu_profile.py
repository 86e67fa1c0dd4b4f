"""scripts/ncu_profile.py: the table from a stand-in ncu, and what it says when ncu is
absent, fails or prints no CSV, or a program is missing. Also: the name no longer shadows
Python's own `profile` module."""
import os
import subprocess
import sys
import unittest

from support import SCRIPTS, ScriptTest

# What `ncu --csv --page raw --print-units base` prints: the program's output, then a header
# row, a units row and one row per kernel launch.
NCU_TABLE = '''Done: 1.0 GFLOP/s
"ID","Process ID","Kernel Name","gpu__time_duration.sum","dram__throughput.avg.pct_of_peak_sustained_elapsed"
"","","","nsecond","%"
"0","42","void ladder::(anonymous namespace)::gemm_naive<16>(ladder::Matrix, ladder::Matrix, ladder::Matrix)","2,500","81.5"
"1","42","void ladder::check_gemm_kernel(ladder::Matrix)","900","10.0"
'''


class NcuProfileTest(ScriptTest):
    def make_ncu(self, stdout, exit_code=0):
        """A stand-in ncu: knows no metric list (as an old ncu), profiles as told."""
        path = os.path.join(self.tools, "ncu")
        with open(path, "w") as f:
            f.write(f"#!{sys.executable}\nimport sys\n"
                    "if '--query-metrics' in sys.argv:\n    sys.exit(1)\n"
                    f"sys.stdout.write({stdout!r})\nsys.exit({exit_code})\n")
        os.chmod(path, 0o755)

    def profile(self, program=None):
        program = program or self.make_program("03_gpu")
        build = self.make_manifest([
            {"name": "01_cpu", "gpu": False, "kind": "cpu", "program": "/none"},
            {"name": "03_gpu", "program": program, "profile": ["--block 16"]},
        ])
        return self.run_script("scripts/ncu_profile.py", "--build", build)

    def test_one_row_per_lesson_kernel(self):
        self.make_ncu(NCU_TABLE)
        done = self.profile()
        self.assertEqual(done.returncode, 0, done.stderr)
        rows = [line for line in done.stdout.splitlines() if "gemm_naive<16>" in line]
        self.assertEqual(len(rows), 2)  # the memory table and the pipes table
        self.assertIn("| 2.5 ", rows[0])  # 2,500 ns
        self.assertIn("| 81.5 ", rows[0])
        self.assertNotIn("check_gemm_kernel", done.stdout)  # the harness's kernel is left out

    def test_ncu_absent(self):
        done = self.profile()
        self.assert_clear_failure(done, 2, "ncu (Nsight Compute) is not on the PATH")

    def test_ncu_prints_no_csv(self):
        self.make_ncu("==PROF== Connected to process\nDone: 1.0 GFLOP/s\n")
        done = self.profile()
        self.assert_clear_failure(done, 1, "ncu printed no CSV table for")

    def test_ncu_fails(self):
        self.make_ncu("==ERROR== ERR_NVGPUCTRPERM\n", exit_code=1)
        done = self.profile()
        self.assert_clear_failure(done, 1, "ncu failed on")
        self.assertIn("ERR_NVGPUCTRPERM", done.stderr)

    def test_missing_program(self):
        self.make_ncu(NCU_TABLE)
        done = self.profile(os.path.join(self.folder, "not_built"))
        self.assert_clear_failure(done, 2, "no program")

    def test_the_standard_profile_module_is_not_shadowed(self):
        # Python puts a script's folder first on its path: a scripts/profile.py would win.
        done = subprocess.run([sys.executable, "-c", "import profile; print(profile.Profile)"],
                              cwd=SCRIPTS, capture_output=True, text=True,
                              env={"PYTHONPATH": SCRIPTS, "PYTHONDONTWRITEBYTECODE": "1"})
        self.assertEqual(done.returncode, 0, done.stderr)


if __name__ == "__main__":
    unittest.main()
