"""scripts/wgmma_wrappers.py: the committed 16_gpu_tma_wgmma/wgmma.cuh is exactly what the
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
        for n in wgmma_wrappers.WIDTHS:
            text = wgmma_wrappers.wrapper(n)
            outputs = re.findall(r'"\+f"\(d\[(\d+)\]\)', text)
            self.assertEqual([int(i) for i in outputs], list(range(n // 2)), n)
            self.assertIn(f"m64n{n}k16.f32.bf16.bf16", text)


if __name__ == "__main__":
    unittest.main()
