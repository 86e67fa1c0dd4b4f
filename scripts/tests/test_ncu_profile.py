"""scripts/ncu_profile.py: the table from a stand-in ncu, and what it says when ncu is
absent, fails or prints no CSV, or a program is missing; the tensor-core table of Part 4's
stages, with n/a where a metric is missing, and a metric ncu refuses profiled again without
it. Also: the name no longer shadows Python's own `profile` module."""
import ast
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


STALL = "smsp__average_warps_issue_stalled_{}_per_issue_active.ratio"
# A tensor-core stage's kernel: its own metrics, most stall reasons (misc is missing and
# imc_miss has no value, as a GPU or ncu without them would give), and the harness's kernel.
TENSOR_VALUES = {
    "gpu__time_duration.sum": "1,234,000",
    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed": "62.5",
    "sm__inst_executed_pipe_tensor_op_hmma.avg.pct_of_peak_sustained_elapsed": "31.25",
    "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_elapsed": "0",
    "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum": "25,165,824",
    "smsp__issue_active.avg.pct_of_peak_sustained_elapsed": "40.0",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "24.9",
    "smsp__inst_executed_op_ldsm.sum": "4,194,304",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "16,777,216",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "12",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "0",
    STALL.format("barrier"): "0.5",
    STALL.format("long_scoreboard"): "0.2",
    STALL.format("short_scoreboard"): "0.1",
    STALL.format("mio_throttle"): "1.5",
    STALL.format("math_pipe_throttle"): "0.9",
    STALL.format("wait"): "0.3",
    STALL.format("not_selected"): "0.05",
    STALL.format("imc_miss"): "n/a",
}


def ncu_csv(kernels, values):
    """ncu's CSV for these kernels, each with the same metric values."""
    header = ["ID", "Process ID", "Kernel Name", *values]
    units = ["", "", ""] + ["" for _ in values]
    rows = [[str(i), "42", kernel, *values.values()] for i, kernel in enumerate(kernels)]
    return "Done: 1.0 GFLOP/s\n" + "".join(
        ",".join(f'"{cell}"' for cell in row) + "\n" for row in [header, units, *rows])


TENSOR_TABLE = ncu_csv(
    ["void ladder::(anonymous namespace)::gemm_mma<128, 128>(ladder::MatrixBf16)",
     "void ladder::check_gemm_kernel(ladder::Matrix)"], TENSOR_VALUES)


def cells(line):
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


class NcuProfileTest(ScriptTest):
    def make_ncu(self, stdout, exit_code=0):
        """A stand-in ncu: knows no metric list (as an old ncu), profiles as told."""
        path = os.path.join(self.tools, "ncu")
        with open(path, "w") as f:
            f.write(f"#!{sys.executable}\nimport sys\n"
                    "if '--query-metrics' in sys.argv:\n    sys.exit(1)\n"
                    f"sys.stdout.write({stdout!r})\nsys.exit({exit_code})\n")
        os.chmod(path, 0o755)

    def make_logging_ncu(self, stdout, known=None, refuses=None):
        """A stand-in ncu that writes each call's arguments to a log, lists the base names in
        known for --query-metrics (fails it when None), and fails as ncu does on an unknown
        metric when its --metrics holds refuses."""
        self.ncu_log = os.path.join(self.folder, "ncu_calls.txt")
        path = os.path.join(self.tools, "ncu")
        refused_base = (refuses or "").split(".")[0]
        with open(path, "w") as f:
            f.write(f"#!{sys.executable}\nimport sys\n"
                    f"open({self.ncu_log!r}, 'a').write(repr(sys.argv[1:]) + '\\n')\n"
                    "if '--query-metrics' in sys.argv:\n"
                    f"    known = {known!r}\n"
                    "    if known is None:\n        sys.exit(1)\n"
                    "    print('Device NVIDIA H100\\nMetric Name  Metric Description')\n"
                    "    print('\\n'.join(name + '  a metric' for name in known))\n"
                    "    sys.exit(0)\n"
                    "metrics = sys.argv[sys.argv.index('--metrics') + 1].split(',')\n"
                    f"if {refuses!r} in metrics:\n"
                    f"    print('==ERROR== Failed to find metric regex:^{refused_base}$')\n"
                    "    sys.exit(1)\n"
                    f"sys.stdout.write({stdout!r})\n")
        os.chmod(path, 0o755)

    def ncu_calls(self):
        with open(self.ncu_log) as f:
            return [ast.literal_eval(line) for line in f]

    def metrics_asked(self):
        """The --metrics list of the last ncu call."""
        call = self.ncu_calls()[-1]
        return call[call.index("--metrics") + 1].split(",")

    def profile(self, program=None, part=1):
        program = program or self.make_program("03_gpu")
        build = self.make_manifest([
            {"name": "01_cpu", "gpu": False, "kind": "cpu", "program": "/none"},
            {"name": "03_gpu", "program": program, "profile": ["--block 16"], "part": part},
        ])
        return self.run_script("scripts/ncu_profile.py", "--build", build)

    def tensor_row(self, done):
        lines = done.stdout.splitlines()
        header = next(i for i, line in enumerate(lines) if "tensor pipe %" in line)
        self.assertEqual(cells(lines[header]), [
            "stage", "kernel", "time us", "tensor pipe %", "HMMA issued %", "wgmma issued %",
            "issue slots %", "occupancy %", "LDSM", "TMA MB", "smem ld wavefronts",
            "smem ld conflicts", "smem st conflicts", "top stalls (warps per issue)"])
        rows = [line for line in lines[header:] if line.startswith("| 03_gpu")]
        self.assertEqual(len(rows), 1)  # the harness's kernel is left out here too
        self.assertTrue(lines[-1].startswith("Tensor cores: "), lines[-1])  # the legend
        return cells(rows[0])

    def test_tensor_core_table_for_part_4(self):
        self.make_logging_ncu(TENSOR_TABLE)
        done = self.profile(part=4)
        self.assertEqual(done.returncode, 0, done.stderr)
        # Stall reasons ncu gave no value for (misc absent, imc_miss n/a) are passed over.
        self.assertEqual(self.tensor_row(done), [
            "03_gpu", "gemm_mma<128, 128>", "1234.0", "62.5", "31.2", "0.0", "40.0", "24.9",
            "4.19e+06", "25.2", "1.68e+07", "12", "0",
            "mio_throttle 1.50, math_pipe_throttle 0.90, barrier 0.50"])
        # The FP32 tables are still there, with the kernel in each.
        self.assertEqual(len([l for l in done.stdout.splitlines() if "gemm_mma<128, 128>" in l]), 3)
        # Every stall reason was asked for by name, and the tensor metrics with them.
        metrics = self.metrics_asked()
        for reason in ["misc", "imc_miss", "tex_throttle", "branch_resolving", "barrier", "gmma"]:
            self.assertIn(STALL.format(reason), metrics)
        self.assertIn("smsp__inst_executed_op_ldsm.sum", metrics)
        self.assertIn("sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_elapsed",
                      metrics)
        self.assertIn("l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum", metrics)

    def test_missing_tensor_metrics_print_na(self):
        # As a GPU before Hopper gives them: no wgmma or TMA metrics, and here none of the
        # others of the tensor table either.
        values = {k: v for k, v in TENSOR_VALUES.items()
                  if not any(word in k for word in ("ldsm", "mma", "tma", "stalled"))}
        self.make_logging_ncu(ncu_csv(["void gemm_wmma(ladder::MatrixBf16)"], values))
        done = self.profile(part=4)
        self.assertEqual(done.returncode, 0, done.stderr)
        row = self.tensor_row(done)
        self.assertEqual(row[3:6], ["n/a", "n/a", "n/a"])  # tensor pipe, HMMA and wgmma issued
        self.assertEqual(row[8:10], ["n/a", "n/a"])  # LDSM, TMA MB
        self.assertEqual(row[-1], "n/a")  # no stall reason at all

    def test_parts_1_to_3_keep_their_two_tables_and_metrics(self):
        self.make_logging_ncu(NCU_TABLE)
        done = self.profile(part=3)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn("tensor pipe", done.stdout)
        self.assertNotIn("Tensor cores", done.stdout)
        metrics = self.metrics_asked()
        self.assertNotIn("smsp__inst_executed_op_ldsm.sum", metrics)
        self.assertNotIn(STALL.format("misc"), metrics)
        self.assertIn(STALL.format("mio_throttle"), metrics)

    def test_metric_unknown_to_query_metrics_is_not_asked_for(self):
        import ncu_profile
        known = [m.split(".")[0] for m in ncu_profile.METRICS + ncu_profile.TENSOR_METRICS
                 if "_misc_" not in m]
        self.make_logging_ncu(TENSOR_TABLE, known=known)
        done = self.profile(part=4)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("does not know " + STALL.format("misc"), done.stderr)
        metrics = self.metrics_asked()
        self.assertNotIn(STALL.format("misc"), metrics)
        self.assertEqual(self.tensor_row(done)[-1],
                         "mio_throttle 1.50, math_pipe_throttle 0.90, barrier 0.50")

    def test_metric_ncu_refuses_is_dropped_and_profiled_again(self):
        self.make_logging_ncu(TENSOR_TABLE, refuses=STALL.format("sleeping"))
        done = self.profile(part=4)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("ncu refused " + STALL.format("sleeping"), done.stderr)
        calls = self.ncu_calls()
        self.assertEqual(len(calls), 3)  # --query-metrics, the refused run, the run without it
        self.assertNotIn(STALL.format("sleeping"), calls[-1][calls[-1].index("--metrics") + 1])
        self.assertEqual(self.tensor_row(done)[2], "1234.0")

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
