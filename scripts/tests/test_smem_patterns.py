"""scripts/smem_patterns.py: the table from a stand-in program and ncu, and what it says when
the program is missing, ncu is absent, or ncu profiles a different number of kernels."""
import os
import sys
import unittest

from support import ScriptTest

PROGRAM_TABLE = """Test GPU (sm_90, 1 SMs)

| pattern | bytes per warp | predicted wavefronts (busiest bank) |
|---|---|---|
| LDS.32 stride 2 words | 128 | 2 |
| LDS.128 broadcast | 512 | 1 |
"""

# What `ncu --csv --page raw --print-units base` prints: the program's output, a header row,
# a units row and one row per kernel launch.
NCU_HEADER = ('"ID","Kernel Name","smsp__inst_executed_op_shared_ld.sum",'
              '"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",'
              '"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"\n'
              '"","","inst","",""\n')
NCU_TWO_KERNELS = (PROGRAM_TABLE + NCU_HEADER +
                   '"0","void smem_pattern<1>(Pattern, int, float*)","1,000","2,000","1,000"\n'
                   '"1","void smem_pattern<4>(Pattern, int, float*)","1,000","2,000","0"\n')


class SmemPatternsTest(ScriptTest):
    def build(self):
        """BUILD/bin/smem_patterns printing PROGRAM_TABLE; returns BUILD."""
        build = os.path.join(self.folder, "build")
        os.makedirs(os.path.join(build, "bin"))
        self.make_program(os.path.join("build", "bin", "smem_patterns"), PROGRAM_TABLE)
        return build

    def make_ncu(self, stdout):
        self.make_tool("ncu", stdout)

    def test_measured_beside_predicted(self):
        self.make_ncu(NCU_TWO_KERNELS)
        done = self.run_script("scripts/smem_patterns.py", "--build", self.build())
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = done.stdout.splitlines()
        self.assertEqual(lines[0], "Test GPU (sm_90, 1 SMs)")
        self.assertIn("| LDS.32 stride 2 words | 128 | 2 | 2.00 | 1.00 |", lines)
        self.assertIn("| LDS.128 broadcast | 512 | 1 | 2.00 | 0.00 |", lines)

    def test_a_kernel_count_that_does_not_match(self):
        self.make_ncu(NCU_TWO_KERNELS.rsplit('"1",', 1)[0])
        done = self.run_script("scripts/smem_patterns.py", "--build", self.build())
        self.assert_clear_failure(done, 1, "ncu profiled 1 kernels for 2 patterns")

    def test_program_not_built(self):
        self.make_ncu(NCU_TWO_KERNELS)
        done = self.run_script("scripts/smem_patterns.py", "--build", self.folder)
        self.assert_clear_failure(done, 2, "is not built")

    def test_ncu_absent(self):
        done = self.run_script("scripts/smem_patterns.py", "--build", self.build())
        self.assert_clear_failure(done, 2, "ncu (Nsight Compute) is not on the PATH")


if __name__ == "__main__":
    unittest.main()
