"""scripts/ladder.py: a run over stand-in stage programs, the committed CSV read back, and
what it says when a program, the manifest or a CSV is missing or unreadable."""
import os
import re
import unittest

from support import (CUBLAS_BF16, CUBLAS_FP32, CUBLAS_TF32, CUBLASLT_FP8, NO_GPU, REPO, ScriptTest,
                     csv_rows, fp32_and_tensor_core_programs)

NO_DEVICE = "06_gpu: skipped: no usable CUDA device: no NVIDIA GPU or driver found\n"
TOO_OLD = "14_gpu: skipped: needs sm_80 or newer (this GPU is sm_75)\n"


# A 'vs previous stage' cell: "<ratio>x vs <the row it names> (<that row's GFLOP/s>)".
VS = re.compile(r"(\d+\.\d\d\d?)x vs (.+) \(([0-9.]+)\)")
BASIS = "basis of this stage's rows"
COMMITTED_CSVS = ("ladder_4096.csv", "ladder.csv")


def gemm_rows(stdout):
    """The GEMM table's body as lists of cells, by program."""
    table = stdout.split("Matrix product", 1)[1].split("\n\n")[1]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()[2:]]
    return [row for row in rows if row[0]]


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
        # The reason once, with the stage it skipped; the empty table points to it.
        self.assertEqual(done.stdout.count("no usable CUDA device"), 1, done.stdout)
        self.assertIn("no table, its stages were skipped (below)", done.stdout)
        self.assertIn("results/", done.stdout.splitlines()[-1])
        self.assertIn("python3 scripts/ladder.py --from-csv results/ladder_4096.csv",
                      done.stdout.splitlines()[-1])

    def tensor_core_ladder(self):
        """12 (FP32), 13 (tensor cores) and 14, which needs a newer GPU than this one."""
        entries = [{"name": name, "part": part, "program": self.make_program(name, output)}
                   for (name, output), part in zip(fp32_and_tensor_core_programs().items(), (3, 4))]
        old_gpu = self.make_program("14_gpu", stderr=TOO_OLD, exit_code=NO_GPU)
        entries.append({"name": "14_gpu", "part": 4, "program": old_gpu})
        return self.make_manifest(entries)

    def test_each_gemm_row_names_its_own_ceiling(self):
        csv = os.path.join(self.folder, "ladder.csv")
        done = self.ladder("--build", self.tensor_core_ladder(), "--m", "64", "--n", "64",
                           "--k", "64", "--csv", csv, "--wide")
        self.assertEqual(done.returncode, 0, done.stderr)
        rows = gemm_rows(done.stdout)
        # stage, variant, problem, ms, GFLOP/s, vs previous, ceiling, its GFLOP/s, % of it
        self.assertEqual([row[0] for row in rows], ["12_gpu", "13_gpu", "13_gpu", "13_gpu"])
        self.assertEqual(rows[0][6:], [CUBLAS_FP32, "50000", "90.0%"])
        # 13's baseline (12's kernel on the rounded inputs, same program) is a row of the table,
        # first in its stage, and 13's own rows are against it, by its variant.
        self.assertEqual(rows[1][1], "12's kernel, rounded inputs")
        # The basis row has no ceiling cells: its own stage's row has them.
        self.assertEqual(rows[1][4:], ["44000.0", BASIS, "", "", ""])
        self.assertEqual(rows[2][6:], [CUBLAS_BF16, "660000", "10.0%"])
        self.assertEqual(rows[3][6:], [CUBLAS_BF16, "660000", "20.0%"])
        self.assertEqual(rows[2][5], "1.50x vs 12's kernel, rounded inputs (44000)")
        self.assert_bases_are_rows(done.stdout)
        self.assertIn("A and B rounded to BF16", done.stdout)
        self.assertIn(f"{CUBLAS_BF16}, run once in each program it is the ceiling of (1): "
                      "660000 GFLOP/s.", done.stdout)
        self.assertIn(f"{CUBLAS_FP32}, run once in each program it is the ceiling of (1): "
                      "50000 GFLOP/s.", done.stdout)
        # The stage for a newer GPU is skipped with its reason, and the run goes on.
        self.assertIn("skipped: needs sm_80 or newer (this GPU is sm_75) (14_gpu)", done.stdout)
        # The CSV it wrote prints the same table.
        again = self.ladder("--from-csv", csv, "--wide")
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertEqual(gemm_rows(again.stdout), rows)

    def assert_bases_are_rows(self, stdout):
        """Every row a 'vs previous stage' cell names is a row of the printed GEMM table: by its
        variant in the naming row's own stage (the stage's basis row), else as 'stage: variant';
        and the GFLOP/s in brackets is that row's."""
        rows = gemm_rows(stdout)
        by_label = {(row[0], row[1]): row for row in rows}
        named = 0
        for row in rows:
            if not row[5] or row[5] == BASIS:
                continue
            vs = VS.fullmatch(row[5])
            self.assertTrue(vs, f"not '<ratio>x vs <row> (<GFLOP/s>)': {row}")
            name = vs.group(2)
            stage, _, variant = name.partition(": ")
            basis = by_label.get((row[0], name)) or by_label.get((stage, variant))
            self.assertIsNotNone(basis, f"'{name}' is not a row of the table: {row}")
            self.assertLessEqual(abs(float(basis[4]) - float(vs.group(3))), 0.6, (row, basis))
            named += 1
        # Each basis row is named by a row of its stage.
        for row in rows:
            if row[5] == BASIS:
                self.assertTrue(any(other[0] == row[0] and f" vs {row[1]} (" in other[5]
                                    for other in rows), row)
        return named

    def test_every_row_the_vs_column_names_is_a_row_of_the_table(self):
        # The committed runs: each stage from 04 on measured the previous stage's kernel again
        # (09 measured 04's tile 32, a variant 04's own rows do not show); 02 and 03 have none.
        for name in COMMITTED_CSVS:
            with self.subTest(csv=name):
                done = self.ladder("--from-csv", os.path.join(REPO, "results", name), "--wide")
                self.assertEqual(done.returncode, 0, done.stderr)
                self.assertGreater(self.assert_bases_are_rows(done.stdout), 10)
                rows = gemm_rows(done.stdout)
                self.assertIn(["09_gpu_register_tiled", "04 square tile 32"],
                              [row[:2] for row in rows if row[5] == BASIS])
                self.assertRegex(dict((row[1], row[5]) for row in rows)["i-k-j"],
                                 r"x vs 01_cpu_naive: i-j-k \(")
        # A baseline with the same variant as one of its stage's rows is told apart.
        path = self.write("same.csv", csv_rows("03_gpu", [("tile 16", "stage", "100")])
                          + csv_rows("04_gpu", [("tile 16", "baseline", "100"),
                                                ("tile 16", "stage", "150")], header=False))
        done = self.ladder("--from-csv", path, "--wide")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(self.assert_bases_are_rows(done.stdout), 1)
        self.assertIn("1.50x vs tile 16 (basis) (100)", done.stdout)

    def test_a_legend_under_the_gemm_table_says_what_vs_previous_stage_compares(self):
        for name in COMMITTED_CSVS:
            with self.subTest(csv=name):
                done = self.ladder("--from-csv", os.path.join(REPO, "results", name), "--wide")
                self.assertEqual(done.returncode, 0, done.stderr)
                # The paragraph right after the table.
                legend = done.stdout.split("Matrix product", 1)[1].split("\n\n")[2]
                self.assertTrue(legend.startswith("vs previous stage: this row's GFLOP/s over "
                                                  "that of the row it names"), legend)
                for words in (f"'{BASIS}' is an earlier stage's\nkernel run again by this "
                              "stage's own program", "rounded to BF16",
                              "the previous stage's fastest row in the same run",
                              "named 'stage: variant'"):
                    self.assertIn(words, legend)
                self.assertTrue(all(len(line) <= 200 for line in legend.splitlines()), legend)
                # The table itself is no wider than before the basis rows (270 columns), but
                # for the FP8 stage's rows, which name cuBLASLt FP8 and a BF16 basis (8 more).
                table = done.stdout.split("Matrix product", 1)[1].split("\n\n")[1]
                self.assertLessEqual(max(len(line) for line in table.splitlines()), 278)
        # No legend where the column is empty throughout.
        path = self.write("one.csv", csv_rows("03_gpu", [("tile 16", "stage", "100")]))
        done = self.ladder("--from-csv", path, "--wide")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn("vs previous stage:", done.stdout)

    def test_a_problem_with_words_after_it_is_the_same_problem(self):
        # Comparable rows share m, n, k, whatever a program writes after the matrices.
        programs = fp32_and_tensor_core_programs()
        programs["13_gpu"] = programs["13_gpu"].replace("A 64x64 * B 64x64", "A 64x64 * B 64x64 (BF16)")
        path = self.write("ladder.csv", programs["12_gpu"] + programs["13_gpu"].split("\n", 1)[1])
        done = self.ladder("--from-csv", path)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn("The CPU stages ran the smaller problem", done.stdout)

    def test_the_sweep_skips_only_the_stages_that_cannot_run(self):
        out = os.path.join(self.folder, "sweep")
        done = self.ladder("--build", self.tensor_core_ladder(), "--sweep", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("14_gpu skipped: needs sm_80", done.stderr)
        with open(os.path.join(out, "sweep_gemm.csv")) as f:
            stages = {line.split(",")[0] for line in f.read().splitlines()[1:]}
        self.assertEqual(stages, {"12_gpu", "13_gpu"})

    def test_the_sweep_without_a_gpu_is_skipped(self):
        gpu = self.make_program("06_gpu", stderr=NO_DEVICE, exit_code=NO_GPU)
        build = self.make_manifest([{"name": "06_gpu", "kind": "transpose", "program": gpu}])
        done = self.ladder("--build", build, "--sweep", os.path.join(self.folder, "sweep"))
        self.assertEqual(done.returncode, NO_GPU, done.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.folder, "sweep")))

    def test_the_committed_csv_prints_its_tables(self):
        # The command the README and the skip line give a reader without a GPU.
        done = self.ladder("--from-csv", os.path.join(REPO, "results", "ladder_4096.csv"), "--wide")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("Matrix product, C = A * B (FP32; the rows against cuBLAS BF16", done.stdout)
        self.assertIn("Transpose, out = in^T (FP32)", done.stdout)
        self.assertIn("12_gpu_pipelined", done.stdout)
        self.assertIn("15_gpu_mma_pipelined", done.stdout)
        # Parts 1-3 against cuBLAS FP32, Part 4 against cuBLAS BF16 (stage 20, TF32, against
        # cuBLAS TF32; stage 22, FP8, against cuBLASLt FP8), the CPU rows against nothing.
        ceilings = {20: CUBLAS_TF32, 22: CUBLASLT_FP8}
        for row in gemm_rows(done.stdout):
            number = int(row[0][:2]) if row[0][:2].isdigit() else 0
            ceiling = ceilings.get(number, CUBLAS_BF16 if number >= 13 else CUBLAS_FP32)
            want = "" if "cpu" in row[0] or row[5] == BASIS else ceiling
            self.assertEqual(row[6], want, row)

    def test_the_default_tables_fit_a_terminal(self):
        # Without --wide: each stage's own rows, its rate and its % of the ceiling its program
        # measured, named; no line wider than 100 columns.
        for name in COMMITTED_CSVS:
            with self.subTest(csv=name):
                done = self.ladder("--from-csv", os.path.join(REPO, "results", name))
                self.assertEqual(done.returncode, 0, done.stderr)
                widest = max(done.stdout.splitlines(), key=len)
                self.assertLessEqual(len(widest), 100, widest)
                rows = gemm_rows(done.stdout)
                self.assertEqual(len(rows[0]), 4, rows[0])
                cells = {row[0]: row[3] for row in rows}
                self.assertRegex(cells["12_gpu_pipelined"], r"^\d+\.\d% of cuBLAS FP32$")
                self.assertRegex(cells["20_gpu_tf32"], r"^\d+\.\d% of cuBLAS TF32$")
                self.assertRegex(cells["22_gpu_fp8"], r"^\d+\.\d% of cuBLASLt FP8$")
                self.assertEqual(cells["01_cpu_naive"], "")
                # Every row of a stage is told apart, however its name was cut.
                for table in done.stdout.split("\n\n"):
                    if table.startswith("|"):
                        body = [tuple(c.strip() for c in line.strip("|").split("|")[:2])
                                for line in table.splitlines()[2:]]
                        self.assertEqual(len(body), len(set(body)), table)

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
