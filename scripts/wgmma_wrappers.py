#!/usr/bin/env python3
"""Writes common/hopper/wgmma.cuh: one inline-PTX wrapper per wgmma shape the stages use.

Inline asm must name every accumulator register as its own operand (64 for n128, 128 for
n256), so the wrappers are generated rather than typed. Run from the repository root:
    python3 scripts/wgmma_wrappers.py
"""
from pathlib import Path

# Per operand type: the widths N generated (those the Hopper stages use), the K of one
# instruction, the PTX type, and the immediates after the scale-d predicate. BF16: scale A and
# B by 1, A not transposed (K-major), B transposed (N-major). TF32 has no transpose operands:
# both A and B must be K-major in shared memory.
TYPES = {
    "bf16": ((64, 128, 192, 256), 16, "bf16", "1, 1, 0, 1",
             "N-major: the 1 in the last operand transposes it"),
    "tf32": ((192, 256), 8, "tf32", "1, 1",
             "K-major: TF32 has no transpose, B^T's rows are B's columns"),
    # Stage 22: E4M3 operands, 32 deep (32 bytes, as BF16's 16 and TF32's 8), K-major only.
    "e4m3": ((128, 192, 256), 32, "e4m3", "1, 1",
             "K-major, as FP8 must be: B^T's rows are B's columns"),
}


def asm_function(name, comment, params, n, instruction, a_operand, setp_index, immediates,
                 inputs):
    """One wrapper: `comment` lines, then `name(float (&d)[n/2], params..., int accumulate)`
    issuing `instruction` on D (%0..), the A operand text, B's descriptor and the predicate."""
    regs = n // 2
    names = [f"%{i}" for i in range(regs)]
    head = f"__device__ inline void {name}("
    lines = [f"// {line}" for line in comment] + [
        f"{head}float (&d)[{regs}], {params[0]},",
        f"{' ' * len(head)}{params[1]}, int accumulate) {{",
        "  asm volatile(",
        '      "{\\n.reg .pred p;\\n"',
        f'      "setp.ne.b32 p, %{setp_index}, 0;\\n"',
        f'      "{instruction} {{"',
    ]
    for i in range(0, regs, 16):
        tail = "," if i + 16 < regs else ""
        lines.append(f'      "{", ".join(names[i:i + 16])}{tail}"')
    lines.append(f'      "}}, {a_operand}, %{setp_index - 1}, p, {immediates};\\n}}\\n"')
    outs = [", ".join(f'"+f"(d[{j}])' for j in range(i, i + 8)) for i in range(0, regs, 8)]
    lines.append("      : " + ",\n        ".join(outs))
    lines.append(f"      : {inputs});")
    lines.append("}")
    return "\n".join(lines)


def wrapper(n: int, kind: str = "bf16") -> str:
    _, k, ptx_type, immediates, b_layout = TYPES[kind]
    suffix = "" if kind == "bf16" else f"_{kind}"
    regs = n // 2
    comment = [f"D (64 x {n}, FP32, registers) += A (64 x {k}, shared, K-major) * B ({k} x {n}, shared,",
               f"{b_layout}). accumulate == 0 ignores D's old value."]
    return asm_function(f"wgmma_m64n{n}k{k}{suffix}", comment,
                        ("std::uint64_t desc_a", "std::uint64_t desc_b"), n,
                        f"wgmma.mma_async.sync.aligned.m64n{n}k{k}.f32.{ptx_type}.{ptx_type}",
                        f"%{regs}", regs + 2, immediates,
                        '"l"(desc_a), "l"(desc_b), "r"(accumulate)')


def wrapper_a_in_registers(n: int) -> str:
    """TF32 with A in registers (stage 20's swapped TF32 variants): four 32-bit values a thread."""
    regs = n // 2
    comment = [f"D (64 x {n}, FP32, registers) += A (64 x 8, registers: a thread's four TF32 values, laid",
               f"out as mma.m16n8k8's per warp) * B (8 x {n}, shared, K-major). accumulate == 0 ignores D's",
               "old value."]
    a_names = ", ".join(f"%{regs + i}" for i in range(4))
    return asm_function(f"wgmma_m64n{n}k8_tf32_a_registers", comment,
                        ("const std::uint32_t (&a)[4]", "std::uint64_t desc_b"), n,
                        f"wgmma.mma_async.sync.aligned.m64n{n}k8.f32.tf32.tf32", f"{{{a_names}}}",
                        regs + 5, "1, 1",
                        '"r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(accumulate)')


HEADER = Path(__file__).resolve().parent.parent / "common" / "hopper" / "wgmma.cuh"


def header_text() -> str:
    """The whole of wgmma.cuh."""
    body = "\n\n".join([wrapper(n, kind) for kind, spec in TYPES.items() for n in spec[0]] +
                       [wrapper_a_in_registers(256)])
    return ("// Written by scripts/wgmma_wrappers.py; edit that, not this.\n"
            "// wgmma.mma_async for BF16, TF32 and E4M3 operands with FP32 accumulators, one\n"
            "// function per operand type and N.\n"
            "#pragma once\n\n#include <cstdint>\n\nnamespace ladder::hopper {\n\n"
            f"{body}\n\n}}  // namespace ladder::hopper\n")


def main() -> int:
    HEADER.write_text(header_text())
    print(f"wrote {HEADER}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
