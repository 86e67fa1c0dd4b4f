"""scripts/sass.py, the one SASS parser, and scripts/sass_counts.py that counts with it:
counts per kernel (tensor-core kernels, mma.sync and Hopper's TMA + wgmma, in a table of their
own), and what it says about a missing file, a program passed instead of its dump, and text
with no kernel in it."""
import unittest

from support import ScriptTest
import sass  # from scripts/, which support puts on the path

DUMP = """
Fatbin elf code:
================
arch = sm_90

	code for sm_90
		Function : kernel_a
	.headerflags	@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDS.U.128 R4, [R2+0x10] ;          /* 0x000fe20008000c00 */
                                                                      /* 0x000fe20008000c00 */
        /*0010*/              @!P0 LDS R8, [R3] ;                     /* 0x000fe20008000c00 */
        /*0020*/                   FFMA R1, R4, R8, R1 ;              /* 0x000fe20008000c00 */
        /*0030*/                   FFMA R1, R5, R8, R1 ;              /* 0x000fe20008000c00 */
        /*0040*/                   EXIT ;                             /* 0x000fe20008000c00 */
		..........
"""
# A second program that also holds kernel_a (its baseline): counted once, from the first dump.
SECOND_DUMP = DUMP.replace("kernel_a", "kernel_b") + DUMP
# A tensor-core kernel as cuobjdump prints mma.sync fed by ldmatrix and cp.async, after an
# FP32 kernel in the same program.
TENSOR_DUMP = DUMP + """
		Function : kernel_mma
	.headerflags	@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDGSTS.E.BYPASS.LTC128B.128 [R3], desc[UR4][R4.64] ;  /* 0x000fe20008000c00 */
        /*0010*/                   LDGSTS.E.LTC128B [R3+0x10], desc[UR4][R6.64] ;  /* 0x000fe20008000c00 */
        /*0020*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;      /* 0x000fe20008000c00 */
        /*0030*/                   LDSM.16.M88.4 R8, [R2] ;           /* 0x000fe20008000c00 */
        /*0040*/                   LDSM.16.MT88.4 R12, [R2+0x800] ;   /* 0x000fe20008000c00 */
        /*0050*/                   HMMA.16816.F32.BF16 R16, R8, R12, R16 ;  /* 0x000fe20008000c00 */
        /*0060*/                   HMMA.16816.F32.BF16 R20, R8, R14, R20 ;  /* 0x000fe20008000c00 */
        /*0070*/                   HMMA.16816.F32.BF16 R24, R10, R12, R24 ;  /* 0x000fe20008000c00 */
        /*0080*/              @!P0 HMMA.16816.F32.BF16 R28, R10, R14, R28 ;  /* 0x000fe20008000c00 */
        /*0090*/                   STG.E.64 desc[UR4][R4.64], R16 ;   /* 0x000fe20008000c00 */
        /*00a0*/                   EXIT ;                             /* 0x000fe20008000c00 */
		..........
"""
# A Hopper kernel as cuobjdump prints TMA copies completing on an mbarrier and wgmma reading
# shared memory: no HMMA, no LDSM, only the instructions of the Hopper stages.
HOPPER_DUMP = """
	code for sm_90a
		Function : kernel_wgmma
	.headerflags	@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   SYNCS.EXCH.64 URZ, [UR4], UR6 ;    /* 0x000fe20008000c00 */
        /*0010*/                   SYNCS.ARRIVE.TRANS64.A1T0 RZ, [UR4], R2 ;  /* 0x000fe20008000c00 */
        /*0020*/                   UTMALDG.2D [UR8], [UR10], desc[UR12] ;  /* 0x000fe20008000c00 */
        /*0030*/              @!P0 UTMALDG.2D.MULTICAST [UR16], [UR10], UR7, desc[UR12] ;  /* 0x000fe20008000c00 */
        /*0040*/                   SYNCS.PHASECHK.TRANS64.TRYWAIT P1, [UR4], R3 ;  /* 0x000fe20008000c00 */
        /*0050*/                   WARPGROUP.ARRIVE ;                 /* 0x000fe20008000c00 */
        /*0060*/                   HGMMA.64x256x16.F32.BF16 R24, gdesc[UR20], R24 ;  /* 0x000fe20008000c00 */
        /*0070*/                   HGMMA.64x256x16.F32.BF16 R24, gdesc[UR24], R24, gsb0 ;  /* 0x000fe20008000c00 */
        /*0080*/                   UTMASTG.2D [UR28], [UR30] ;        /* 0x000fe20008000c00 */
        /*0090*/                   EXIT ;                             /* 0x000fe20008000c00 */
		..........
"""


def table_rows(text, word):
    return [[cell.strip() for cell in line.strip("|").split("|")]
            for line in text.splitlines() if word in line]


class ParserTest(unittest.TestCase):
    def test_functions_per_architecture(self):
        text = DUMP + DUMP.replace("sm_90", "sm_80").replace("SM90", "SM80")
        found = sass.functions(text)
        self.assertEqual([(f.architecture, f.name) for f in found],
                         [("sm_90", "kernel_a"), ("sm_80", "kernel_a")])
        self.assertEqual(found[0].instructions[1], (0x10, "@!P0 LDS R8, [R3]"))
        self.assertEqual(len(found[0].instructions), 5)

    def test_opcode_keeps_the_width_and_mnemonic_drops_it(self):
        self.assertEqual(sass.opcode("@!P0 LDS.U.128 R4, [R2+0x10]"), "LDS.128")
        self.assertEqual(sass.opcode("@UP1 LDG.E R4, desc[UR4][R2.64]"), "LDG")
        self.assertEqual(sass.mnemonic("@!P0 LDS.U.128 R4, [R2+0x10]"), "LDS")
        self.assertEqual(sass.mnemonic("FFMA R1, R2, R3, R1"), "FFMA")

    def test_tensor_core_opcodes_drop_their_shapes(self):
        self.assertEqual(sass.opcode("HMMA.16816.F32.BF16 R16, R8, R12, R16"), "HMMA")
        self.assertEqual(sass.opcode("@!P0 HMMA.1688.F32.TF32 R16, R8, R12, R16"), "HMMA")
        self.assertEqual(sass.opcode("LDSM.16.M88.4 R8, [R2]"), "LDSM")
        self.assertEqual(sass.opcode("LDSM.16.MT88.4 R12, [R2+0x800]"), "LDSM")
        self.assertEqual(sass.opcode("LDSM.16.M88.2 R12, [R2]"), "LDSM")
        self.assertEqual(sass.opcode("HGMMA.64x128x16.F32.BF16 R24, gdesc[UR4], R24, gsb0"),
                         "HGMMA")
        self.assertEqual(sass.opcode("LDGSTS.E.BYPASS.LTC128B.128 [R3], desc[UR4][R4.64]"),
                         "LDGSTS.128")
        self.assertEqual(sass.opcode("LDGSTS.E.LTC128B [R3], desc[UR4][R4.64]"), "LDGSTS")


class SassCountsTest(ScriptTest):
    def test_counts_and_ratio(self):
        done = self.run_script("scripts/sass_counts.py", self.write("a.txt", DUMP))
        self.assertEqual(done.returncode, 0, done.stderr)
        row = next(line for line in done.stdout.splitlines() if "kernel_a" in line)
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        # kernel, FFMA, LDS, LDS.128, LDG, LDG.128, LDGSTS, LDGSTS.128, STS, STG, STG.128, BAR,
        # all, ratio
        self.assertEqual(cells, ["kernel_a", "2", "1", "1", "0", "0", "0", "0", "0", "0", "0",
                                 "0", "5", "1.0"])
        self.assertNotIn("HMMA", done.stdout)  # no tensor-core kernel, no tensor-core table

    def test_tensor_core_kernels_in_their_own_table(self):
        done = self.run_script("scripts/sass_counts.py", self.write("mma.txt", TENSOR_DUMP))
        self.assertEqual(done.returncode, 0, done.stderr)
        fp32_header, tensor_header = table_rows(done.stdout, "| kernel ")
        self.assertEqual(fp32_header, [
            "kernel", "FFMA", "LDS", "LDS.128", "LDG", "LDG.128", "LDGSTS", "LDGSTS.128", "STS",
            "STG", "STG.128", "BAR", "all", "FFMA per shared load"])
        self.assertEqual(tensor_header, [
            "kernel", "HMMA", "HGMMA", "LDSM", "UTMALDG", "UTMASTG", "SYNCS", "LDS", "LDS.128",
            "LDG", "LDG.128", "LDGSTS", "LDGSTS.128", "STS", "STS.128", "STG", "STG.128", "BAR",
            "all", "HMMA per LDSM"])
        self.assertEqual(table_rows(done.stdout, "kernel_mma"), [[
            "kernel_mma", "4", "0", "2", "0", "0", "0", "0", "0", "0", "0", "1", "1", "0", "0",
            "1", "0", "1", "11", "2.0"]])
        self.assertEqual(len(table_rows(done.stdout, "kernel_a")), 1)  # in the FP32 table only
        self.assertLess(done.stdout.index("kernel_a"), done.stdout.index("kernel_mma"))
        self.assertTrue(done.stdout.strip().splitlines()[-1].startswith("Tensor-core kernels"))

    def test_hopper_kernels_count_wgmma_tma_and_mbarriers(self):
        done = self.run_script("scripts/sass_counts.py", self.write("hopper.txt", HOPPER_DUMP))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(len(table_rows(done.stdout, "| kernel ")), 1)  # the tensor-core table
        # HMMA 0, HGMMA 2, LDSM 0, UTMALDG 2 (multicast included), UTMASTG 1, SYNCS 3, then
        # none of the older loads and stores; all 10; no LDSM, no ratio.
        self.assertEqual(table_rows(done.stdout, "kernel_wgmma"), [[
            "kernel_wgmma", "0", "2", "0", "2", "1", "3", "0", "0", "0", "0", "0", "0", "0",
            "0", "0", "0", "0", "10", "-"]])

    def test_only_tensor_core_kernels(self):
        text = TENSOR_DUMP.replace(DUMP, "\tcode for sm_90\n")
        done = self.run_script("scripts/sass_counts.py", self.write("mma.txt", text))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(len(table_rows(done.stdout, "| kernel ")), 1)
        self.assertNotIn("FFMA", done.stdout)
        self.assertEqual(table_rows(done.stdout, "kernel_mma")[0][1], "4")

    def test_a_kernel_in_two_dumps_counts_once(self):
        done = self.run_script("scripts/sass_counts.py", self.write("a.txt", DUMP),
                               self.write("b.txt", SECOND_DUMP))
        self.assertEqual(done.returncode, 0, done.stderr)
        rows = [line for line in done.stdout.splitlines() if "kernel_" in line]
        self.assertEqual(len(rows), 2)
        self.assertIn("| 5 ", rows[0])  # kernel_a from a.txt only

    def test_missing_file(self):
        done = self.run_script("scripts/sass_counts.py", "/no/such/dump.txt")
        self.assert_clear_failure(done, 2, "No such file")

    def test_program_instead_of_its_dump(self):
        path = self.write("program", "")
        with open(path, "wb") as f:
            f.write(b"\x7fELF\x02\x01\x01\x00\xa0\xff\xfe")
        done = self.run_script("scripts/sass_counts.py", path)
        self.assert_clear_failure(done, 2, "is not text")

    def test_text_without_kernels(self):
        done = self.run_script("scripts/sass_counts.py", self.write("log.txt", "hello\n"))
        self.assert_clear_failure(done, 1, "no kernel in")


if __name__ == "__main__":
    unittest.main()
