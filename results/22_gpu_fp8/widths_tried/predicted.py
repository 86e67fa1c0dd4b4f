#!/usr/bin/env python3
"""What stage 22's model predicts 128 x 144, 128 x 160 and 128 x 176 tiles (alone, whole or
divided) would buy over the tilings by_size chooses among, on every shape of the four lists
and the FP8 issue's seven: each new width's tau and phi interpolated linearly in the width
between the fitted 128-, 192- and 256-wide tilings alone (per tensor). A guess at constants
never measured, to choose what to try; the prototype's runs (README.md beside it) measure it.

    python3 results/22_gpu_fp8/widths_tried/predicted.py > results/22_gpu_fp8/widths_tried/predicted.txt
"""
import os
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import fp8_model  # noqa: E402
import stream_k_model as bf16_model  # noqa: E402

WIDTHS = (144, 160, 176)


def main():
    gpu = bf16_model.record_gpu()
    model, _ = fp8_model.fitted(gpu, [fp8_model.read_run(p) for p in fp8_model.FIT_RUNS])
    known = {bn: model.constants(f"128x{bn}_c1") for bn in (128, 192, 256)}

    def between(width):
        low, high = (128, 192) if width < 192 else (192, 256)
        f = (width - low) / (high - low)
        return [known[low][i] + f * (known[high][i] - known[low][i]) for i in range(2)]

    count = len(bf16_model.NAMES)
    names = [f"128x{w}_c1" for w in WIDTHS]
    for name, width in zip(names, WIDTHS):
        bf16_model.TILINGS[name] = (128, width, 1)
        bf16_model.NAMES.append(name)
    params = list(model.params)
    model.params = (params[:2 * count] + [v for w in WIDTHS for v in between(w)]
                    + params[2 * count:])
    model.size = len(model.params)
    wider = fp8_model.CANDIDATES + [(n, s) for n in names for s in ("dp", "split", "stream")]
    first = {}  # a shape in two lists counted once, under the first
    for name in bf16_model.SHAPE_LISTS:
        for shape in bf16_model.list_shapes(name):
            first.setdefault(shape, name)
    for _, m, n, k in fp8_model.read_run(fp8_model.ISSUE_RUN):
        first.setdefault((m, n, k), "the FP8 issue")
    rows = []
    for (m, n, k), name in first.items():
        now = model.predict(*model.pick(m, n, k), m, n, k)
        pick = min(wider, key=lambda c: model.predict(*c, m, n, k))
        rows.append((100 * (now / model.predict(*pick, m, n, k) - 1), name, m, n, k, pick))
    gains = [r[0] for r in rows]
    print(f"{len(rows)} shapes; predicted more than 3% faster on {sum(g > 3 for g in gains)}; "
          f"geometric mean {100 * (bf16_model.geomean([1 + g / 100 for g in gains]) - 1):.1f}%")
    for gain, name, m, n, k, (tiling, scheme) in sorted(rows, reverse=True):
        print(f"{gain:5.1f}%  {m} x {n} x {k}  ({name})  {tiling}_{scheme}")


if __name__ == "__main__":
    main()
