"""scripts/pictures.py: every committed picture is what the kernels' sources draw today, each is
shown by a page of its folder, a constant changed in a source changes its picture, and a
pattern no longer found in a source stops the script with the file and what it looked for."""
import glob
import os
import re
import shutil
import unittest

from support import REPO, ScriptTest

import pictures


class PicturesTest(ScriptTest):
    def copy_of_the_sources(self, name="repo"):
        """The sources pictures.py reads and the pictures it writes, in a folder of this test's
        called name."""
        root = os.path.join(self.folder, name)
        for path in pictures.SOURCES + tuple(path for path, _ in pictures.PICTURES):
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            shutil.copy(os.path.join(REPO, path), os.path.join(root, path))
        return root

    def pictures(self, *args):
        return self.run_script("scripts/pictures.py", *args)

    def edit(self, root, path, pattern, replace):
        """Rewrites the copy's source at path with pattern's first match replaced."""
        full = os.path.join(root, path)
        with open(full) as f:
            text = f.read()
        edited = re.sub(pattern, replace, text, count=1)
        self.assertNotEqual(edited, text, f"{path} has no {pattern}")
        with open(full, "w") as f:
            f.write(edited)

    def test_every_committed_picture_matches_its_sources(self):
        done = self.pictures("--check")
        self.assertEqual(done.returncode, 0,
                         done.stdout + done.stderr + "\nrun: python3 scripts/pictures.py")

    def test_each_picture_says_it_is_generated_and_its_page_shows_it(self):
        for path, _ in pictures.PICTURES:
            with self.subTest(picture=path):
                with open(os.path.join(REPO, path)) as f:
                    head = f.read().splitlines()[:5]
                self.assertTrue(any("generated" in line for line in head), head)
                folder, name = path.split("/pictures/")
                shown = []  # on any page of the folder: the stage's, a primer or a companion
                for page in glob.glob(os.path.join(REPO, folder, "*.md")):
                    with open(page) as f:
                        shown += re.findall(r"!\[([^\]]+)\]\(pictures/" + re.escape(name) + r"\)",
                                            f.read())
                self.assertEqual(len(shown), 1, f"no page of {folder} shows {name} once, with alt text")

    def test_a_changed_constant_changes_its_picture(self):
        root = self.copy_of_the_sources()
        self.assertEqual(self.pictures("--check", "--root", root).returncode, 0)
        # Stage 18's default groups of tile rows (GroupM): only the tile order shows them.
        self.edit(root, pictures.STAGE_18, r'(\{"128x256_g8", launch<Tiling<)(\d+)(, true>>)',
                  lambda m: m[1] + ("4" if m[2] != "4" else "2") + m[3])
        done = self.pictures("--check", "--root", root)
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertEqual(done.stdout.strip(),
                         "differs from its sources: 18_gpu_persistent/pictures/tile_order.svg")
        self.assertEqual(self.pictures("--root", root).returncode, 0)
        self.assertEqual(self.pictures("--check", "--root", root).returncode, 0)

    def test_stage_16s_slot_count_changes_the_pictures_that_name_it(self):
        # The primer's mbarrier picture states the slot count its parity rule assumes, read
        # from stage 16's kernel, as the ring does.
        root = self.copy_of_the_sources()
        self.edit(root, pictures.STAGE_16, r"(struct Tile : SlotRing<\d+, BlockN, )(\d+)(, \d+>)",
                  lambda m: m[1] + ("4" if m[2] != "4" else "3") + m[3])
        done = self.pictures("--check", "--root", root)
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertEqual(done.stdout.strip().splitlines(),
                         ["differs from its sources: 13_gpu_wmma/pictures/mbarrier.svg",
                          "differs from its sources: 16_gpu_tma_wgmma/pictures/ring.svg"])

    def test_the_ring_fillers_words_stay_inside_its_box(self):
        # Stage 17's filler takes three lines, stage 16's two: each line's baseline, and the
        # descenders below it, inside the box drawn around them.
        for path, draw in pictures.PICTURES:
            if not path.endswith("/ring.svg"):
                continue
            with self.subTest(picture=path):
                svg = draw()
                box = next(re.search(r'y="([\d.]+)" width="170" height="([\d.]+)"', item)
                           for item in svg.items if item.startswith('<rect x="24" ')
                           and 'width="170"' in item)
                top, height = float(box[1]), float(box[2])
                lines = [float(re.search(r'y="([\d.]+)"', item)[1]) for item in svg.items
                         if item.startswith('<text x="36" ')]
                self.assertGreaterEqual(len(lines), 2, path)
                for y in lines:
                    self.assertGreaterEqual(y - 13, top, f"{path}: a line above its box")
                    self.assertLessEqual(y + 4, top + height, f"{path}: a line below its box")

    def test_a_constant_no_longer_found_stops_the_script(self):
        cases = (
            (pictures.WARPGROUP, r"constexpr int kSliceK = ", "constexpr int kSliceDepth = ",
             "common/hopper/warpgroup.cuh: no kSliceK"),
            (pictures.STAGE_21_MODEL, r",  // max_split", ",  // most_ways",
             "21_gpu_stream_k/model_constants.hpp: no max_split"),
            # Found, but not the shape whose fragments the picture draws.
            (pictures.MMA_TILE, r"m16n8k16\.row\.col", "m16n8k8.row.col",
             "mma.sync is m16n8k8"),
            # B's leading and stride offsets swapped: the descriptor picture would lie.
            (pictures.WARPGROUP, r"kBoxBytes, kSwizzleAtomBytes\)",
             "kSwizzleAtomBytes, kBoxBytes)", "common/hopper/warpgroup.cuh: no B's descriptor"),
        )
        for index, (path, pattern, replace, words) in enumerate(cases):
            with self.subTest(source=path):
                root = self.copy_of_the_sources(f"repo{index}")
                self.edit(root, path, pattern, replace)
                for args in (("--check",), ()):
                    self.assert_clear_failure(self.pictures(*args, "--root", root), 2, words)

    def test_the_swizzle_period_changes_only_the_descriptor_picture(self):
        root = self.copy_of_the_sources()
        self.edit(root, pictures.WARPGROUP, r"kSwizzleAtomBytes = 1024;",
                  "kSwizzleAtomBytes = 2048;")
        done = self.pictures("--check", "--root", root)
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertEqual(done.stdout.strip(),
                         "differs from its sources: 16_gpu_tma_wgmma/pictures/descriptors.svg")

    def test_a_picture_nothing_writes_is_found(self):
        root = self.copy_of_the_sources()
        shutil.copy(os.path.join(root, pictures.PICTURES[0][0]),
                    os.path.join(root, "22_gpu_fp8", "pictures", "old.svg"))
        done = self.pictures("--check", "--root", root)
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stdout.strip(), "no picture writes it: 22_gpu_fp8/pictures/old.svg")


if __name__ == "__main__":
    unittest.main()
