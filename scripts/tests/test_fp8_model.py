"""scripts/fp8_model.py: stage 21's model on FP8's slices: the rounds of whole tiles each tiling
takes, a fit that recovers the constants it was made from, and the check on the committed
runs."""
import os
import sys
import unittest

from support import REPO, ScriptTest

sys.path.insert(0, os.path.join(REPO, "scripts"))
import fp8_model as model  # noqa: E402
import stream_k_model  # noqa: E402

H200 = stream_k_model.Gpu(132, 4.2e6, 60 * 2 ** 20)


def rounds(tiling, m, n):
    """The rounds of whole tiles the slowest cluster takes: the tiles it starts."""
    return stream_k_model.work(H200, tiling, "dp", m, n, 4096, 1, model.SLICE_K)[0][1]


class RoundsTest(unittest.TestCase):
    def test_rounds_of_whole_tiles(self):
        # 4096 x 2112: 32 x 9 tiles of 128 x 256 (the last 64 columns wide) alone, 3 rounds on
        # 132 SMs; 32 x 11 of 128 x 192 in pairs, 176 cluster tiles on 66 pairs, 3 rounds.
        self.assertEqual(rounds("128x256_c1", 4096, 2112), 3)
        self.assertEqual(rounds("128x192_c2", 4096, 2112), 3)
        # One tile row in pairs still counts as one cluster tile per column.
        self.assertEqual(rounds("128x256_c2", 128, 8192), 1)
        x = model.Model(H200, 1e9).features("128x128_c1", "dp", 1024, 1024, 1024)
        i = 2 * stream_k_model.NAMES.index("128x128_c1")
        self.assertEqual((x[i], x[i + 1], x[-1]), (8.0, 1.0, 1.0))  # 1 round of 8 slices


class SectorsTest(unittest.TestCase):
    def test_the_share_of_sectors_beyond_the_aligned_count(self):
        # A row's 128 bytes fill 4 sectors from a sector's start and touch 5 from inside one.
        # 4,048 apart: every other row inside (1/2 x 1/4); 4,040: three rows in four (3/4 x 1/4);
        # 4,064 or 4,096: none. The programs store K FP8 elements in rows of whole 16 bytes.
        beyond = stream_k_model.sectors_beyond
        self.assertEqual([beyond(b) for b in (4048, 4040, 4064, 4096)], [1 / 8, 3 / 16, 0, 0])
        self.assertEqual([stream_k_model.stored_row_bytes(k, 1) for k in (4040, 3500, 4096)],
                         [4048, 3504, 4096])


class FitTest(unittest.TestCase):
    def test_the_fit_recovers_the_constants_it_was_made_from(self):
        # tau and phi of stage 21's eight tilings (FP8 has no 128 x 64 tiles), gamma_sectors,
        # tau_divided, rho, the two sigmas, then the launch; whole and divided rows, on shapes that
        # divide, and rows 4,048 bytes apart (K = 4040), half of which start inside a sector.
        truth = model.Model(H200, 1e9, [0.7, 3.9, 0.72, 3.2, 0.55, 3.0, 0.53, 2.4, 0.42, 1.4,
                                        0.0, 0.0, 0.5, 2.6, 0.28, 1.3, 0.06, 0.05, 2.0, 4.7, 5.6,
                                        4.6])
        shapes = [(4096, 4096, 4096), (512, 4096, 14336), (1024, 1024, 1024), (2048, 8192, 2048),
                  (8192, 3072, 8192), (4096, 2112, 7168), (256, 384, 8960), (256, 4096, 14336),
                  (4040, 4040, 4040)]
        samples = [(m, n, k, t, s, truth.predict(t, s, m, n, k)) for t, s in model.CANDIDATES
                   for m, n, k in shapes]
        def divides(t, s, m, n, k):
            most = model.MAX_SPLIT
            return stream_k_model.work(H200, t, s, m, n, k, most, model.SLICE_K)[1]

        for scheme in ("split", "stream"):
            self.assertTrue(any(divides(t, s, m, n, k) for m, n, k, t, s, _ in samples
                                if s == scheme))
        found = model.Model(H200, 1e9).fit(samples)
        self.assertLess(found.error(samples), 1e-6)
        used = [i for i, name in enumerate(stream_k_model.NAMES) if name in model.NAMES]
        for i in [j for u in used for j in (2 * u, 2 * u + 1)] + list(range(-6, 0)):
            self.assertAlmostEqual(found.params[i], truth.params[i], places=4)


class CommandTest(ScriptTest):
    def test_the_committed_runs_fit_and_check(self):
        done = self.run_script("scripts/fp8_model.py")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("held out: model_check_unseen.csv (27 shapes with a ceiling): the model's "
                      "pick", done.stdout)

    def test_the_stage_has_the_fitted_constants_and_the_picks_they_make(self):
        done = self.run_script("scripts/fp8_model.py", "--check-written")
        self.assertEqual(done.returncode, 0, done.stderr)


if __name__ == "__main__":
    unittest.main()
