"""The pages as a reader walks them: the README's reading order is one chain of previous and
next links through every page, each reading time there is the page's words / 200, and no page
is longer than a lesson."""
import os
import re
import unittest

from support import REPO, STAGES

# A link in Markdown: [text](target).
LINK = re.compile(r"\[([^\]]*)\]\(([^)\s#]+)(?:#[^)]*)?\)")
# A page of the reading order: a stage's README or a primer, by its path from the repository.
PAGE = re.compile(r"^\d\d_[a-z0-9_]+/[A-Za-z0-9_]+\.md$")
MINUTES = re.compile(r"^(\d+) min$")
# A page's box states its reading time too.
BOX_MINUTES = re.compile(r"\*\*Reading time:\*\* about (\d+) minutes?")
WORDS_PER_MINUTE = 200
# A page is a lesson, not its evidence (that lives in results/); the README is the way in.
MOST_WORDS_PAGE = 2500
MOST_WORDS_README = 1500
# A companion page works a stage's lesson out in full, where the stage's page has no room left:
# it sits in the stage's folder and is read just after the stage's page (a primer, before).
COMPANIONS = {"21_gpu_stream_k/MODEL.md", "22_gpu_fp8/MODEL.md"}


def reading_order():
    """[(page, stated minutes)] from the README's table rows, in order: the row's first link to
    a page and its 'N min' cell."""
    with open(os.path.join(REPO, "README.md")) as f:
        lines = f.read().splitlines()
    order = []
    for line in lines:
        if not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        pages = [target for _, target in LINK.findall(line) if PAGE.match(target)]
        minutes = [int(m.group(1)) for m in map(MINUTES.match, cells) if m]
        if pages and minutes:
            order.append((pages[0], minutes[0]))
    return order


def words(page):
    with open(os.path.join(REPO, page)) as f:
        return len(f.read().split())


def navigation_lines(page):
    """The page's lines of links that hold the link to the README: its top and bottom bars."""
    with open(os.path.join(REPO, page)) as f:
        return [line for line in f.read().splitlines()
                if " · " in line and "README.md)" in line and line.lstrip().startswith("[")]


def target_of(page, text, arrow):
    """The pages a bar's links marked by `arrow` lead to, from the repository's root."""
    folder = os.path.dirname(page)
    return [os.path.normpath(os.path.join(folder, target))
            for label, target in LINK.findall(text) if arrow in label]


class PagesTest(unittest.TestCase):
    def test_the_readme_lists_the_pages_in_order(self):
        order = [page for page, _ in reading_order()]
        self.assertGreater(len(order), 20, order)
        self.assertEqual(len(order), len(set(order)), order)
        for page in order:
            self.assertTrue(os.path.isfile(os.path.join(REPO, page)), page)
        listed = [page.split("/")[0] for page in order if page.endswith("/README.md")]
        self.assertEqual(listed, STAGES)

    def test_each_page_links_to_the_previous_and_the_next_in_the_readme_order(self):
        order = [page for page, _ in reading_order()]
        for index, page in enumerate(order):
            with self.subTest(page=page):
                bars = navigation_lines(page)
                self.assertTrue(bars, f"{page} has no navigation line")
                for bar in bars:
                    # The first page has no previous page, the last no next one.
                    if index:
                        self.assertEqual(target_of(page, bar, "←"), [order[index - 1]], bar)
                    if index + 1 < len(order):
                        self.assertEqual(target_of(page, bar, "→"), [order[index + 1]], bar)

    def test_each_primer_comes_just_before_the_stage_it_prepares(self):
        # A primer sits in the folder of the stage that first needs it (03_gpu_naive/PRIMER.md,
        # 13_gpu_wmma/PRIMER.md, 22_gpu_fp8/FP8.md) and is read before that stage's page.
        order = [page for page, _ in reading_order()]
        primers = [page for page in order
                   if not page.endswith("/README.md") and page not in COMPANIONS]
        self.assertIn("22_gpu_fp8/FP8.md", primers)
        for primer in primers:
            with self.subTest(primer=primer):
                stage = os.path.dirname(primer) + "/README.md"
                self.assertEqual(order.index(stage), order.index(primer) + 1, order)

    def test_each_companion_comes_just_after_the_stage_it_works_out(self):
        order = [page for page, _ in reading_order()]
        for companion in sorted(COMPANIONS):
            with self.subTest(companion=companion):
                self.assertIn(companion, order)
                stage = os.path.dirname(companion) + "/README.md"
                self.assertEqual(order.index(companion), order.index(stage) + 1, order)

    def test_the_chain_ends_lead_back_to_the_readme_only(self):
        # The first page's previous link, and the last page's next link if it has one, lead
        # back to the README.
        order = [page for page, _ in reading_order()]
        for end, arrow in ((order[0], "←"), (order[-1], "→")):
            for bar in navigation_lines(end):
                self.assertIn(target_of(end, bar, arrow), ([], ["README.md"]), bar)

    def test_each_reading_time_is_the_pages_words_over_200(self):
        for page, stated in reading_order():
            with self.subTest(page=page):
                expected = max(1, round(words(page) / WORDS_PER_MINUTE))
                self.assertEqual(stated, expected,
                                 f"{page}: {words(page)} words read in about {expected} min")
                with open(os.path.join(REPO, page)) as f:
                    box = [int(m) for m in BOX_MINUTES.findall(f.read())]
                self.assertIn(box, ([], [expected]), f"{page}: its box says {box} minutes")


    def test_no_page_is_longer_than_a_lesson(self):
        self.assertLessEqual(words("README.md"), MOST_WORDS_README)
        for page, _ in reading_order():
            with self.subTest(page=page):
                self.assertLessEqual(words(page), MOST_WORDS_PAGE)


if __name__ == "__main__":
    unittest.main()
