"""scripts/stream_k_model.py: the work each variant's slowest cluster does, as divide() hands it
out; a fit that recovers the constants it was made from; and the check on the committed runs."""
import os
import re
import shutil
import sys
import tempfile
import unittest

from support import REPO, ScriptTest

sys.path.insert(0, os.path.join(REPO, "scripts"))
import stream_k_model as model  # noqa: E402

H200 = model.Gpu(132, 4.2e6, 60 * 2 ** 20)


def number(path, pattern):
    """The integer in pattern's first group, in the source at path (from the repository)."""
    with open(os.path.join(REPO, path)) as f:
        return int(re.search(pattern, f.read()).group(1))


class WorkTest(unittest.TestCase):
    def test_whole_waves_are_not_divided(self):
        # 4096^3 in pairs of 128 x 256: 256 cluster tiles, 66 at once: 4 rounds of 64 slices;
        # 256 % 66 = 58 leaves no room to split (66 // 58 = 1).
        self.assertEqual(model.work(H200, "128x256_c2", "dp", 4096, 4096, 4096, 4),
                         ((256, 4, 0), False))
        self.assertEqual(model.work(H200, "128x256_c2", "split", 4096, 4096, 4096, 4),
                         ((256, 4, 0), False))

    def test_split_k_halves_one_wave(self):
        # 512 x 4096 x 14336: 32 cluster tiles on 66 pairs, split two ways: 112 of 224 slices.
        self.assertEqual(model.work(H200, "128x256_c2", "split", 512, 4096, 14336, 4),
                         ((112, 1, 1), True))
        self.assertEqual(model.split_ways(32, 66, 224, 4), 2)
        self.assertEqual(model.split_ways(10, 132, 224, 4), 4)  # at most `most`
        # Two tiles of 65 slices on 66 pairs: 33 ways fill the wave, under stage 21's cap.
        self.assertEqual(model.split_ways(2, 66, 65, model.MAX_SPLIT), 33)
        self.assertEqual(model.split_ways(2, 66, 65, 16), 16)

    def test_split_k_reads_back_along_the_trees_longest_chain(self):
        # Up to four ranges the last reads the others' one after another, as a chain would.
        self.assertEqual([model.tree_transfers(s) for s in (2, 3, 4)], [1, 2, 3])
        # 16 ranges: 16 reads 15, 14, 13 (saved at once), then 12, 8 and 4, each saved after
        # reading its own three: 7 transfers after the first save (6 reads, 1 save), not 15.
        self.assertEqual(model.tree_transfers(16), 7)
        self.assertEqual([model.tree_unit(i) for i in (1, 4, 8, 16, 48, 64)], [1, 4, 4, 16, 16, 64])
        # One tile of 1024 slices on 132 SMs at a cap of 64: 64 ranges of 16 slices, 11
        # transfers (9 reads, 2 saves).
        self.assertEqual(model.work(H200, "128x64_c1", "split", 128, 64, 65536, 64),
                         ((16, 1, 11), True))

    def test_the_trees_longest_chain_in_closed_form(self):
        # MODEL.md's formula: 4h + ceil(s / 4^h) - 1 with 4^h < s <= 4^(h + 1), against the
        # walk of for_each_tree_read that the model takes it from, far past the cap of 64.
        for ways in range(2, 1025):
            h = next(h for h in range(6) if 4 ** h < ways <= 4 ** (h + 1))
            with self.subTest(ways=ways):
                self.assertEqual(model.tree_levels(ways), h)
                self.assertEqual(model.tree_transfers(ways), 4 * h + -(-ways // 4 ** h) - 1)
                self.assertEqual(model.tree_chain(ways), model.tree_transfers(ways))

    def test_stream_k_shares_the_slices_evenly(self):
        # 1024^3 on 128 x 128 tiles: 64 tiles x 16 slices = 1024 over 132 SMs: runs of 7 or 8.
        # A tile's finishing part holds a slice at least; the other 15 span up to
        # ceil(15 / 7) = 3 runs before it, whose partial tiles it reads back.
        self.assertEqual(model.work(H200, "128x128_c1", "stream", 1024, 1024, 1024, 4),
                         ((8, 2, 3), True))
        # 4096 x 4096 x 8192 on pairs of 128 x 256: 256 cluster tiles on 66 pairs; two waves
        # whole (256 slices), then the other 124 tiles x 128 slices shared, runs of 240 or 241:
        # longer than a tile, so a tile has at most two parts, and one partial tile is read back.
        self.assertEqual(model.work(H200, "128x256_c2", "stream", 4096, 4096, 8192, 4),
                         ((497, 5, 1), True))


class PriceTest(unittest.TestCase):
    def test_stream_k_reads_a_shared_slice_again_when_l2_no_longer_holds_it(self):
        # Two 128 x 128 tiles side by side share A's panel; 132 runs. At 6600 slices a tile the
        # runs (100 slices) end where the tiles do, so both tiles read each slice of A at the
        # same time: A once, each B panel once, the least. At 6610 and 6650 the runs (100 or
        # 101 slices) cross tile 1's start, and some of A's slices come from DRAM twice.
        def panels(slices):
            k = 64 * slices
            return model.stream_reads(H200, "128x128_c1", 128, 256, k) / (128 * k * 2)
        self.assertEqual(panels(6600), 3)
        self.assertAlmostEqual(panels(6610), 2 + 7160 / 6610)
        self.assertAlmostEqual(panels(6650), 2 + 10495 / 6650)
        # A whole wave divides nothing: no Stream-K runs to price.
        self.assertIsNone(model.stream_reads(H200, "128x128_c1", 128 * 12, 128 * 11, 4096))

    def test_stream_k_reads_are_those_of_the_kernels_walk_slice_by_slice(self):
        # Every run walked as PartWalk walks it, one slice a slice-time, each read of each
        # panel's slice timed; a read after a gap of more than H comes from DRAM. Ragged edges,
        # more than 8 cluster rows, more than one wave, pairs, and FP8's 128 x 192 tiles.
        def walked(tiling, m, n, k, slice_k=64, operand_bytes=2):
            bm, bn, c = model.TILINGS[tiling]
            rows, cols = -(-m // (bm * c)), -(-n // bn)
            tiles, slices, runs = rows * cols, -(-k // slice_k), H200.sms // c
            before = max(0, tiles // runs - 1) * runs
            share, extra = divmod((tiles - before) * slices, runs)
            hold = H200.l2_bytes / (runs * (bm * c + bn) * slice_k * operand_bytes)
            reads = {}  # (A or B, panel, slice) -> the times it is read
            for g in range(runs):
                begin, end = g * share + min(g, extra), (g + 1) * share + min(g + 1, extra)
                time = 0
                while end > begin:
                    tile = (end - 1) // slices
                    first = max(begin, tile * slices)
                    t = before + tile
                    group, in_group = divmod(t, 8 * cols)
                    group_rows = min(rows - 8 * group, 8)
                    row, col = 8 * group + in_group % group_rows, in_group // group_rows
                    for i in range(first, end):
                        reads.setdefault(("A", row, i % slices), []).append(time)
                        reads.setdefault(("B", col, i % slices), []).append(time)
                        time += 1
                    end = first
            total = 0
            for (operand, panel, _), times in reads.items():
                times.sort()
                size = (min(bm * c, m - panel * bm * c) if operand == "A"
                        else min(bn, n - panel * bn))
                total += size * (1 + sum(1 for x, y in zip(times, times[1:]) if y - x > hold))
            whole = operand_bytes * (m * k + k * n) * before / tiles
            return whole + k * operand_bytes * total / slices
        for tiling, m, n, k in [("128x128_c1", 1100, 1000, 3000), ("128x256_c2", 2000, 3000, 5000),
                                ("128x128_c1", 4000, 4000, 2000), ("128x128_c1", 640, 640, 40960)]:
            with self.subTest(tiling=tiling, m=m, n=n, k=k):
                self.assertAlmostEqual(model.stream_reads(H200, tiling, m, n, k) /
                                       walked(tiling, m, n, k), 1, places=12)
        self.assertAlmostEqual(model.stream_reads(H200, "128x192_c1", 1500, 2500, 4096, 128, 1) /
                               walked("128x192_c1", 1500, 2500, 4096, 128, 1), 1, places=12)

    def test_the_model_takes_tiles_in_the_kernels_order(self):
        # Which Stream-K tiles share a panel follows the kernels' groups of cluster rows: the
        # script, the C++ model and the kernels' Config must name the same number.
        self.assertEqual(number("common/hopper/persistent.cuh", r"kGroupM = (\d+);"),
                         model.GROUP_ROWS)
        self.assertEqual(number("common/hopper/tile_model.cpp", r"kGroupRows = (\d+);"),
                         model.GROUP_ROWS)

    def test_the_tree_is_as_wide_as_the_kernels(self):
        # tree_meets mirrors tile_parts.hpp's for_each_tree_read, whose width is kTreeWidth.
        self.assertEqual(
            number("common/hopper/tile_parts.hpp", r"constexpr int kTreeWidth = (\d+);"),
            model.TREE_WIDTH)

    def test_a_division_that_divides_nothing_is_priced_as_whole_tiles(self):
        # The launch then runs the whole-tile kernel on the same clusters: 1024^3 on 128 x 64
        # tiles (128 tiles for 132 SMs, 132 // 128 = 1: no split) and 1536 x 1408 on 128 x 128
        # (132 tiles, one whole wave: nothing to pool). A shape that divides is priced otherwise.
        priced = model.Model(H200, 60e3, 16, [0.5] * 12 + [0.002, 1.5, 6.0, 5.0, 4.0],
                             busy_reads=True)
        self.assertEqual(priced.predict("128x64_c1", "split", 1024, 1024, 1024),
                         priced.predict("128x64_c1", "dp", 1024, 1024, 1024))
        self.assertEqual(priced.predict("128x128_c1", "stream", 1536, 1408, 4096),
                         priced.predict("128x128_c1", "dp", 1536, 1408, 4096))
        self.assertNotEqual(priced.predict("128x64_c1", "split", 384, 512, 4136),
                            priced.predict("128x64_c1", "dp", 384, 512, 4136))


class FitTest(unittest.TestCase):
    def test_the_fit_recovers_the_constants_it_was_made_from(self):
        # Stream-K's reads price predictions only, never the fit (Model.fit): left out here.
        truth = model.Model(H200, 1e9, 4, [0.6, 3.0, 0.7, 2.5, 0.5, 1.0, 0.45, 2.0, 0.45, 0.4,
                                           0.3, 0.6, 0.4, 0.8, 0.25, 0.3, 2.0, 4.0, 6.0, 5.0],
                            stream_reuse=False)
        samples = []
        for m, n, k in [(4096, 4096, 4096), (512, 4096, 14336), (1024, 1024, 1024),
                        (2048, 8192, 2048), (8192, 3072, 8192), (640, 13824, 2560),
                        (1536, 5120, 5120), (256, 12288, 12288), (3000, 11008, 4096)]:
            for tiling, scheme in model.VARIANTS.values():
                samples.append((m, n, k, tiling, scheme, truth.predict(tiling, scheme, m, n, k)))
        found = model.Model(H200, 1e9, 4, stream_reuse=False).fit(samples)
        self.assertLess(found.error(samples), 1e-6)

    def test_the_fit_with_alpha_recovers_the_constants_where_compute_bounds(self):
        # On a DRAM fast enough that every row's compute side is the longer, the target (the
        # time less alpha x the memory side) is the compute side itself: the fit is exact.
        fast = model.Gpu(H200.sms, 1e9, H200.l2_bytes)
        params = [0.6, 3.0, 0.7, 2.5, 0.5, 1.0, 0.45, 2.0, 0.45, 0.4, 0.3, 0.6, 0.4, 0.8, 0.25,
                  0.3, 2.0, 4.0, 6.0, 5.0]
        truth = model.Model(fast, 1e9, 4, params, stream_reuse=False, alpha=0.15)
        samples = [(m, n, k, tiling, scheme, truth.predict(tiling, scheme, m, n, k))
                   for m, n, k in [(4096, 4096, 4096), (512, 4096, 14336), (1024, 1024, 1024),
                                   (2048, 8192, 2048), (64, 8192, 22528), (640, 13824, 2560),
                                   (1536, 5120, 5120), (256, 12288, 12288)]
                   for tiling, scheme in model.VARIANTS.values()]
        for m, n, k, tiling, scheme, us in samples:
            self.assertLess(truth.memory_time(tiling, scheme, m, n, k), us - params[-1] -
                            truth.alpha * truth.memory_time(tiling, scheme, m, n, k))
        found = model.Model(fast, 1e9, 4, stream_reuse=False, alpha=0.15).fit(samples)
        self.assertLess(found.error(samples), 1e-6)
        without = model.Model(fast, 1e9, 4, stream_reuse=False).fit(samples)
        self.assertGreater(without.error(samples), 1e-4)  # alpha 0 cannot fit them


class PageTest(unittest.TestCase):
    """MODEL.md's generated sections: filled between figures.py's markers, in the page's line
    endings, and a section edited by hand, gone or unknown is found."""

    def page(self, text, newline="\n"):
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder)
        path = os.path.join(folder, "MODEL.md")
        with open(path, "w", newline="") as f:
            f.write(text.replace("\n", newline))
        return path

    def test_sections_are_filled_and_a_hand_edit_is_found(self):
        skeleton = ("# page\n\n<!-- figures: a -->\n<!-- /figures -->\n\nprose\n\n"
                    "<!-- figures: b -->\n<!-- /figures -->\n")
        wanted = {"a": "| x |\n|---|\n| 1 |", "b": "| y |\n|---|\n| 2 |"}
        for newline in ("\n", "\r\n"):
            with self.subTest(newline=repr(newline)):
                filled = model.page_text(self.page(skeleton, newline), wanted)
                self.assertIn(f"<!-- figures: a -->{newline}{newline}| x |{newline}", filled)
                # The page's own line endings, every line of it.
                self.assertEqual(filled.count("\r\n"),
                                 filled.count("\n") if newline == "\r\n" else 0)
                self.assertEqual(model.page_text(self.page(filled, "\n"), wanted), filled)
                edited = filled.replace("| 2 |", "| 3 |")
                self.assertNotEqual(model.page_text(self.page(edited, "\n"), wanted), edited)

    def test_a_missing_or_unknown_section_stops_the_write(self):
        path = self.page("<!-- figures: a -->\n<!-- /figures -->\n")
        with self.assertRaises(SystemExit):
            model.page_text(path, {"a": "x", "b": "y"})
        with self.assertRaises(SystemExit):
            model.page_text(path, {"b": "y"})

    def test_each_shape_by_hand_adds_up_to_the_prediction(self):
        # by_hand raises where its factors do not give predict()'s time; every scheme's rows.
        fitted = model.Model(H200, 60e3, model.MAX_SPLIT,
                             [0.5, 3.0, 0.5, 3.0, 0.4, 3.0, 0.4, 2.7, 0.37, 0.9, 0.23, 0.65,
                              0.44, 0.9, 0.27, 0.1, 0.002, 1.4, 6.9, 5.3, 4.1], busy_reads=True,
                             alpha=0.15)
        for name, m, n, k in model.BY_HAND:
            with self.subTest(name=name):
                table = model.by_hand(fitted, name, m, n, k)
                self.assertIn(f"**{fitted.predict(*model.VARIANTS[name], m, n, k):.1f} us**",
                              table)

    def test_the_measured_row_is_the_committed_median(self):
        # 1024^3's 128x256_c2_dp row of results/21_gpu_stream_k/model_shapes.csv: 0.017664 ms.
        us, gpu, path = model.measured("128x256_c2_dp", 1024, 1024, 1024)
        self.assertAlmostEqual(us, 17.664)
        self.assertEqual((gpu, os.path.basename(path)), ("NVIDIA H200", "model_shapes.csv"))
        with self.assertRaises(SystemExit):
            model.measured("128x256_c2_dp", 1000, 1001, 1002)


class CommandTest(ScriptTest):
    def test_the_committed_runs_fit_and_check(self):
        done = self.run_script("scripts/stream_k_model.py")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("Checked on model_shapes_unseen.csv: rms log error", done.stdout)
        self.assertIn("model_shapes_unseen.csv (27 shapes): the model's pick", done.stdout)

    def test_cross_validation_holds_out_each_fit_list_with_and_without_tau_divided(self):
        done = self.run_script("scripts/stream_k_model.py", "--cross-validate")
        self.assertEqual(done.returncode, 0, done.stderr)
        held = [line for line in done.stdout.splitlines() if " held out: " in line]
        self.assertEqual(len(held), 6)  # three fit lists, two forms
        self.assertEqual(sum(line.startswith("tau_divided in") for line in held), 3)
        with open(os.path.join(REPO, "results", "21_gpu_stream_k",
                               "model_cross_validation.txt")) as f:
            recorded = [line for line in f.read().splitlines() if " held out: " in line]
        self.assertEqual(held, recorded)

    def test_the_stage_has_the_fitted_constants_and_the_picks_they_make(self):
        done = self.run_script("scripts/stream_k_model.py", "--check-written")
        self.assertEqual(done.returncode, 0, done.stderr)


if __name__ == "__main__":
    unittest.main()
