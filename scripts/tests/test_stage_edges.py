"""scripts/stage_edges.py: includes and links from one stage folder into another, on small
trees, and on the repository itself."""
import os
import unittest

from support import REPO, ScriptTest


CMAKE = """\
# ladder_stage(02_b PART 1 KIND cpu LINKS 01_a) in a comment is no declaration
ladder_stage(01_a PART 1 KIND cpu)
ladder_stage(02_b PART 1 KIND cpu USES 01_a
  BENCH "--m 64 --n 8")
"""


class StageEdgesTest(ScriptTest):
    def tree(self, files):
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(self.folder, "repo", path)), exist_ok=True)
            self.write(os.path.join("repo", path), text)
        return os.path.join(self.folder, "repo")

    def test_leaves_and_a_baseline_through_uses_have_no_edge(self):
        repo = self.tree({
            "CMakeLists.txt": CMAKE,
            "01_a/kernel.cpp": '#include "01_a/kernel.hpp"\n#include "common/matrix.hpp"\n',
            "02_b/main.cpp": '#include "02_b/kernel.hpp"\n#include "common/baselines.hpp"\n',
            "common/matrix.hpp": "#pragma once\n",
            "tests/test_a.cpp": '#include "01_a/kernel.hpp"\n',
        })
        done = self.run_script("scripts/stage_edges.py", repo)
        self.assertEqual((done.returncode, done.stdout), (0, ""), done.stderr)

    def test_an_include_from_another_stage_or_from_common_is_an_edge(self):
        repo = self.tree({
            "CMakeLists.txt": CMAKE,
            "02_b/main.cpp": '  #  include "01_a/kernel.hpp"\n',
            "common/hopper/launch.cu": '#include "02_b/kernel.hpp"\n',
        })
        done = self.run_script("scripts/stage_edges.py", repo)
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stdout.splitlines(), [
            "02_b -> 01_a (#include in 02_b/main.cpp)",
            "common -> 02_b (#include in common/hopper/launch.cu)",
        ])

    def test_links_is_an_edge(self):
        repo = self.tree({
            "CMakeLists.txt": CMAKE + "ladder_stage(03_c PART 1 KIND gemm LIBRARIES ladder_hopper\n"
                                      "  LINKS 01_a 02_b CHOICES --config)\n",
        })
        done = self.run_script("scripts/stage_edges.py", repo)
        self.assertEqual(done.stdout.splitlines(), [
            "03_c -> 01_a (LINKS in CMakeLists.txt)",
            "03_c -> 02_b (LINKS in CMakeLists.txt)",
        ])

    def test_no_stage_includes_or_links_another(self):
        done = self.run_script("scripts/stage_edges.py", REPO)
        self.assertEqual((done.returncode, done.stdout, done.stderr), (0, "", ""),
                         "edges between stage folders, or the script failed")


if __name__ == "__main__":
    unittest.main()
