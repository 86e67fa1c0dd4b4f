#!/usr/bin/env python3
"""Writes 16_gpu_tma_wgmma/wgmma.cuh: one inline-PTX wrapper per wgmma shape the stages use.

Inline asm must name every accumulator register as its own operand (64 for n128, 128 for
n256), so the wrappers are generated rather than typed. Run from the repository root:
    python3 scripts/wgmma_wrappers.py
"""
from pathlib import Path

WIDTHS = (128, 192, 256)  # the N of m64nNk16 that stages 16-18 use


def wrapper(n: int) -> str:
    regs = n // 2
    names = [f"%{i}" for i in range(regs)]
    lines = [
        f"// D (64 x {n}, FP32, registers) += A (64 x 16, shared, K-major) * B (16 x {n}, shared,",
        "// N-major: the 1 in the last operand transposes it). accumulate == 0 ignores D's old value.",
        f"__device__ inline void wgmma_m64n{n}k16(float (&d)[{regs}], std::uint64_t desc_a,",
        f"{' ' * (len(f'__device__ inline void wgmma_m64n{n}k16(') )}std::uint64_t desc_b, int accumulate) {{",
        "  asm volatile(",
        '      "{\\n.reg .pred p;\\n"',
        f'      "setp.ne.b32 p, %{regs + 2}, 0;\\n"',
        f'      "wgmma.mma_async.sync.aligned.m64n{n}k16.f32.bf16.bf16 {{"',
    ]
    for i in range(0, regs, 16):
        tail = "," if i + 16 < regs else ""
        lines.append(f'      "{", ".join(names[i:i + 16])}{tail}"')
    lines.append(f'      "}}, %{regs}, %{regs + 1}, p, 1, 1, 0, 1;\\n}}\\n"')
    outs = [", ".join(f'"+f"(d[{j}])' for j in range(i, i + 8)) for i in range(0, regs, 8)]
    lines.append("      : " + ",\n        ".join(outs))
    lines.append('      : "l"(desc_a), "l"(desc_b), "r"(accumulate));')
    lines.append("}")
    return "\n".join(lines)


HEADER = Path(__file__).resolve().parent.parent / "16_gpu_tma_wgmma" / "wgmma.cuh"


def header_text() -> str:
    """The whole of wgmma.cuh."""
    body = "\n\n".join(wrapper(n) for n in WIDTHS)
    return ("// Written by scripts/wgmma_wrappers.py; edit that, not this.\n"
            "// wgmma.mma_async for BF16 operands and FP32 accumulators, one function per N.\n"
            "#pragma once\n\n#include <cstdint>\n\nnamespace ladder::hopper {\n\n"
            f"{body}\n\n}}  // namespace ladder::hopper\n")


def main() -> int:
    HEADER.write_text(header_text())
    print(f"wrote {HEADER}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
