"""05_gpu_unrolled/inner_loop_sass.py over a stand-in cuobjdump (its output for a program
built for sm_75 and sm_80, fixtures/): the architecture it reads, and what it says when
cuobjdump, the program, the architecture or the kernels are not there."""
import os
import unittest

from support import FIXTURES, ScriptTest

SCRIPT = "05_gpu_unrolled/inner_loop_sass.py"


class InnerLoopSassTest(ScriptTest):
    def setUp(self):
        super().setUp()
        self.program = self.make_program("05_gpu_unrolled")

    def cuobjdump_prints(self, fixture):
        with open(os.path.join(FIXTURES, fixture)) as f:
            self.make_tool("cuobjdump", f.read())

    def headers(self, done):
        return [line for line in done.stdout.splitlines() if line.startswith("==")]

    def test_reads_the_newest_architecture_by_default(self):
        # Before, it asked for sm_90 and found nothing in a build for any other GPU.
        self.cuobjdump_prints("cuobjdump_05_sm75_sm80.txt")
        done = self.run_script(SCRIPT, self.program, "--tile", "16")
        self.assertEqual(done.returncode, 0, done.stderr)
        headers = self.headers(done)
        self.assertEqual(len(headers), 5)
        self.assertIn("== stage 04 square, tile 16: 12 instructions, 2 FFMA, 2 LDS, 1 BAR, 2 BRA",
                      headers[0])
        self.assertIn("unroll 1, tile 16: 12 instructions", headers[1])
        self.assertIn("SASS identical to stage 04's", headers[1])
        self.assertIn("unroll full, tile 16: 15 instructions, 5 FFMA", headers[3])
        self.assertIn("SASS differs from stage 04's", headers[3])
        # Its K loop: from the backward branch's target down to that branch.
        loop = done.stdout.split(headers[3] + "\n")[1].split("\n==")[0].splitlines()
        self.assertEqual([line.strip() for line in loop],
                         ["LDS R4, [R2]", "LDS R5, [R3]", "BAR.SYNC.DEFER_BLOCKING 0x0"]
                         + ["FFMA R8, R4, R5, R8"] * 5 + ["@!P0 BRA 0x30"])

    def test_arch_chooses_another(self):
        self.cuobjdump_prints("cuobjdump_05_sm75_sm80.txt")
        done = self.run_script(SCRIPT, self.program, "--arch", "sm_75")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("unroll full, tile 16: 14 instructions, 4 FFMA", self.headers(done)[3])

    def test_architecture_not_in_the_program(self):
        self.cuobjdump_prints("cuobjdump_05_sm75_sm80.txt")
        done = self.run_script(SCRIPT, self.program, "--arch", "sm_90")
        self.assert_clear_failure(done, 1, "holds no SASS for sm_90, only for sm_75, sm_80")

    def test_program_with_ptx_only(self):
        self.make_tool("cuobjdump", "\nFatbin ptx code:\n================\narch = sm_90\n")
        done = self.run_script(SCRIPT, self.program)
        self.assert_clear_failure(done, 1, "holds no SASS (built for PTX only?)")

    def test_another_program(self):
        self.cuobjdump_prints("cuobjdump_05_sm75_sm80.txt")
        done = self.run_script(SCRIPT, self.program, "--tile", "32")
        self.assert_clear_failure(done, 1, "expected one kernel matching gemm_tiled_squareILi32E")

    def test_cuobjdump_absent(self):
        done = self.run_script(SCRIPT, self.program)
        self.assert_clear_failure(done, 2, "cuobjdump (CUDA toolkit) is not on the PATH")

    def test_cuobjdump_fails(self):
        self.make_tool("cuobjdump", stderr="cuobjdump fatal   : Could not open input file\n",
                       exit_code=255)
        done = self.run_script(SCRIPT, self.program)
        self.assert_clear_failure(done, 1, "cuobjdump failed on")
        self.assertIn("Could not open input file", done.stderr)

    def test_missing_program(self):
        self.cuobjdump_prints("cuobjdump_05_sm75_sm80.txt")
        done = self.run_script(SCRIPT, os.path.join(self.folder, "not_built"))
        self.assert_clear_failure(done, 2, "no program")


if __name__ == "__main__":
    unittest.main()
