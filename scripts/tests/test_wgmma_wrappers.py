"""scripts/wgmma_wrappers.py: the committed common/hopper/wgmma.cuh is exactly what the
script writes, so an edit of either alone fails here; and each wrapper names every
accumulator register once."""
import re
import unittest

import support  # noqa: F401  (puts scripts/ on the module path)
import wgmma_wrappers


class WgmmaWrappersTest(unittest.TestCase):
    def test_committed_header_is_the_scripts_output(self):
        self.assertEqual(wgmma_wrappers.HEADER.read_text(), wgmma_wrappers.header_text())

    def test_every_accumulator_is_an_operand_once(self):
        for kind, shape in (("bf16", "k16.f32.bf16.bf16"), ("tf32", "k8.f32.tf32.tf32")):
            for n in wgmma_wrappers.TYPES[kind][0]:
                text = wgmma_wrappers.wrapper(n, kind)
                outputs = re.findall(r'"\+f"\(d\[(\d+)\]\)', text)
                self.assertEqual([int(i) for i in outputs], list(range(n // 2)), (kind, n))
                self.assertIn(f"m64n{n}{shape}", text)

    def test_only_bf16_names_transposes(self):
        # TF32 takes no transpose immediates: after scale-d come imm-scale-a and imm-scale-b.
        self.assertIn("p, 1, 1, 0, 1;", wgmma_wrappers.wrapper(256, "bf16"))
        self.assertIn("p, 1, 1;", wgmma_wrappers.wrapper(256, "tf32"))


if __name__ == "__main__":
    unittest.main()
