"""scripts/stages.py: the manifest's stages as shell lines; a missing or broken manifest."""
import os
import unittest

from support import ScriptTest


class StagesTest(ScriptTest):
    def test_bench_lines_add_the_headline_size_unless_given(self):
        build = self.make_manifest([
            {"name": "01_cpu", "gpu": False, "kind": "cpu", "program": "/bin/01_cpu"},
            {"name": "03_gpu", "program": "/bin/03_gpu", "bench": ["--block 16", "--m 64 --n 8"]},
            {"name": "06_transpose", "kind": "transpose", "program": "/bin/06", "bench": [""]},
        ])
        done = self.run_script("scripts/stages.py", build, "bench")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.splitlines(), [
            "/bin/03_gpu --m 4096 --n 4096 --k 4096 --block 16",
            "/bin/03_gpu --m 64 --n 8",
            "/bin/06 --rows 8192 --cols 8192",
        ])

    def test_gpu_lists_the_gpu_programs(self):
        build = self.make_manifest([
            {"name": "01_cpu", "gpu": False, "kind": "cpu", "program": "/bin/01_cpu"},
            {"name": "03_gpu", "program": "/bin/03_gpu"},
        ])
        done = self.run_script("scripts/stages.py", build, "gpu")
        self.assertEqual(done.stdout, "/bin/03_gpu\n")

    def test_missing_manifest(self):
        done = self.run_script("scripts/stages.py", os.path.join(self.folder, "nowhere"), "gpu")
        self.assert_clear_failure(done, 2, "no stage manifest")

    def test_manifest_that_is_not_json(self):
        build = self.make_manifest([])
        self.write("build/stages.json", "[{ cut short")
        done = self.run_script("scripts/stages.py", build, "gpu")
        self.assert_clear_failure(done, 2, "unreadable stage manifest")

    def test_manifest_without_the_fields_of_a_stage(self):
        build = self.make_manifest([])
        self.write("build/stages.json", '[{"name": "03_gpu"}]')
        done = self.run_script("scripts/stages.py", build, "gpu")
        self.assert_clear_failure(done, 2, "unreadable stage manifest")

    def test_bad_usage(self):
        done = self.run_script("scripts/stages.py", self.folder, "everything")
        self.assertEqual(done.returncode, 2)
        self.assertIn("python3 scripts/stages.py BUILD bench", done.stderr)


if __name__ == "__main__":
    unittest.main()
