#!/usr/bin/env python3
"""Stage 22's model: the time of each FP8 tiling, whole or divided (split-K, Stream-K), predicted
from the shape and the GPU as stage 21's model prices its variants (scripts/stream_k_model.py),
with FP8's constants; fitted on some shape lists and checked on one it never saw.

  python3 scripts/fp8_model.py                  fit on results/22_gpu_fp8/model_fit/, check on
                                                results/22_gpu_fp8/model_check_unseen.csv
  python3 scripts/fp8_model.py --write          also write 22_gpu_fp8/model_constants.hpp, the
                                                picks the stage must make
                                                (results/22_gpu_fp8/model_picks.csv, and per
                                                block model_picks_per_block.csv) and this
                                                report (results/22_gpu_fp8/model.md)
  python3 scripts/fp8_model.py --check-written  exit 1 if a file --write writes differs
  python3 scripts/fp8_model.py --without-alpha  the ablation: alpha 0, the longer side alone
  python3 scripts/fp8_model.py --without-sectors the ablation: no gamma_sectors, every row priced
                                                as if it started on a 32-byte sector

Each CSV is a `shapes.py --stage 22_gpu_fp8 --config all --csv` run. For tiles of BM x BN in
clusters of c (R = SMs / c clusters at once), T cluster tiles and L = ceil(K / 128) slices:

  C = (tau_t + gamma_sectors x KB_t x e(row bytes) x active SMs / SMs) x ceil(T / R) x L
      + phi_t x ceil(T / R)
  M = (MK + KN + 4 MN) / min(B, active SMs x beta)
  time = max(C, M) + alpha x min(C, M) + lambda

tau_t (a slice's time) and phi_t (a tile's fixed cost) per tiling, lambda the launch;
gamma_sectors a slice's extra per KB of 32-byte sectors read beyond the aligned count, with KB_t
stage 21's (BM + BN / c) x 128 bytes and e the share of sectors beyond it where rows start inside
sectors (stream_k_model.sectors_beyond: a 128-byte row touches 5 sectors, not 4); B is
cudaMemcpy's rate in the ladder's record, beta one SM's share and alpha the shorter side's share
that the longer does not hide, both fitted on a grid as stage 21's. A divided variant counts
the slowest cluster's slices and tiles, plus rho per partial tile it saves or reads and sigma_split or
sigma_stream once, as stage 21's, and tau_divided more a slice: its kernel keeps more in
registers than the whole-tile kernel, and spills. The fit is linear least squares on the
relative error over the rows the bandwidth term does not bound, every candidate's rows together.
The check prints, on each list, the model's pick's % of cuBLASLt FP8 beside by_size's (the
stage's default) and the oracle's (the fastest tiling, measured).

Per block the same model is fitted again, on the same runs' per-block rows: the factors' loads
and multiplies cost each tiling its own share (README.md, E), so its own tau and phi. Its check
is against cuBLASLt's block-scaled matmul, on the unseen list (never fitted on) and on the FP8
issue's seven shapes (results/22_gpu_fp8/block_scaled.csv: 4096^3 and 8192^3 are in the fit
lists, the other five are not).
"""
import argparse
import collections
import os
import sys

import stream_k_model as bf16_model

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
RESULTS = os.path.join(REPO, "results", "22_gpu_fp8")
FIT_RUNS = [os.path.join(RESULTS, "model_fit", f"{name}.csv")
            for name in ("model_shapes", "model_shapes_more", "model_shapes_heldout")]
CHECK_RUN = os.path.join(RESULTS, "model_check_unseen.csv")
HEADER = os.path.join(REPO, "22_gpu_fp8", "model_constants.hpp")
PICKS = os.path.join(RESULTS, "model_picks.csv")
REPORT = os.path.join(RESULTS, "model.md")
CEILING = "cuBLASLt FP8 (E4M3, FP32 accumulate)"
DEFAULT = "by_size"
PICKS_PER_BLOCK = os.path.join(RESULTS, "model_picks_per_block.csv")
ISSUE_RUN = os.path.join(RESULTS, "block_scaled.csv")
# What a model is fitted on and checked against: per tensor, the variants' own rows; per block,
# the per-block rows of the same variants. `prefix` names a candidate's row, `ceiling` and
# `default` the rows the check compares with (`words`: the ceiling as the report names it), and
# `tilings` and `model` the header's names.
Scaling = collections.namedtuple("Scaling", "prefix ceiling words default tilings model")
PER_TENSOR = Scaling("", CEILING, "cuBLASLt FP8", DEFAULT, "kTilings", "kModel")
PER_BLOCK = Scaling("per-block, ", "cuBLASLt FP8 block-scaled (1x128 A, 128x128 B)",
                    "cuBLASLt's block-scaled FP8", "per-block scales (1x128 A, 128x128 B)",
                    "kBlockTilings", "kBlockModel")
SLICE_K = 128
# Split-K's most ranges a tile, as its fit runs were made (a higher cap, measured on BF16 only,
# would need them made again).
MAX_SPLIT = 4
# The tilings by_size chooses among, each a variant promoted every slice (as stage 21's model
# names them), whole; and the schemes it also runs them divided by, as stage 21's.
NAMES = ["128x256_c2", "128x256_c1", "128x192_c2", "128x192_c1", "128x128_c1", "64x256_c1",
         "64x128_c1"]
DIVIDED = {"128x256_c2": ("split", "stream"), "128x192_c1": ("split", "stream"),
           "128x128_c1": ("split", "stream"), "64x256_c1": ("split",), "64x128_c1": ("split",)}
CANDIDATES = [(t, "dp") for t in NAMES] + [(t, s) for t in DIVIDED for s in DIVIDED[t]]


def variant(tiling, scheme):
    """The stage's name for a tiling run whole ("128x192_c1_promote1") or divided
    ("128x192_c1_split")."""
    return f"{tiling}_promote1" if scheme == "dp" else f"{tiling}_{scheme}"


class Model(bf16_model.Model):
    """Stage 21's model on FP8: 128-deep slices of 1-byte elements, every constant fitted on FP8's
    runs."""

    def __init__(self, gpu, beta, params=None, alpha=0.0, row_sectors=True):
        super().__init__(gpu, beta, MAX_SPLIT, params, slice_k=SLICE_K, operand_bytes=1,
                         divided_slices=True, alpha=alpha, row_sectors=row_sectors)

    def pick(self, m, n, k):
        """(tiling, scheme) predicted fastest; the first of CANDIDATES on a tie, as fastest()."""
        return min(CANDIDATES, key=lambda c: self.predict(*c, m, n, k))

    def constants(self, tiling):
        """tau and phi of a tiling."""
        i = bf16_model.NAMES.index(tiling)
        return self.params[2 * i], self.params[2 * i + 1]


def read_run(path):
    """A run's medians by variant (the path taken cut off the name), without the shapes that take
    the fallback."""
    return bf16_model.read_run(path, lambda variant: variant.replace(", TMA path", ""))


def samples_of(runs, scaling=PER_TENSOR):
    """(m, n, k, tiling, scheme, us) of every candidate a run timed, with `scaling`'s scales."""
    return [(m, n, k, t, scheme, rows[scaling.prefix + variant(t, scheme)]) for run in runs
            for (_, m, n, k), rows in run.items() for t, scheme in CANDIDATES
            if scaling.prefix + variant(t, scheme) in rows]


def fitted(gpu, runs, scaling=PER_TENSOR, alphas=bf16_model.ALPHAS, row_sectors=True):
    """The model with the beta and alpha of least error, each pair fitted on the runs, as stage
    21's."""
    samples = samples_of(runs, scaling)
    model = bf16_model.least_error(
        lambda beta, alpha: Model(gpu, beta, alpha=alpha, row_sectors=row_sectors), samples,
        alphas)
    model.params = [round(p, 6) for p in model.params]  # as the header writes them
    return model, samples


def check(model, run, label, scaling=PER_TENSOR, other=None):
    """The model's picks against by_size as the run measured it and against the fastest
    candidate the run measured (the oracle): in % of the scaling's cuBLASLt ceiling where the
    run has it, and the pick's gap to the oracle on every shape, the shapes without a ceiling
    too. The oracle is the fastest of the candidates the run timed; a pick it did not time stops
    the check. With `other` (per block: the per-tensor constants), that model's picks on the same
    rows too."""
    def cut(values, pick=bf16_model.geomean):
        return bf16_model.cut(pick(values))

    def row(candidate):
        return scaling.prefix + variant(*candidate)

    gaps, shares = [], []
    every = sum(all(row(c) in times for c in CANDIDATES) for times in run.values())
    for (name, m, n, k), times in run.items():
        pick = row(model.pick(m, n, k))
        if pick not in times:
            raise SystemExit(f"fp8_model.py: {label} did not time {pick} at {name}")
        oracle = min((row(c) for c in CANDIDATES if row(c) in times), key=lambda v: times[v])
        picked = times[pick]
        gaps.append((100 * (picked / times[oracle] - 1), name, pick, oracle, k))
        if scaling.ceiling in times:  # else cuBLASLt had no algorithm for the shape
            ceiling = times[scaling.ceiling]
            shares.append((100 * ceiling / picked, 100 * ceiling / times[scaling.default],
                           100 * ceiling / times[oracle],
                           100 * ceiling / times[row(other.pick(m, n, k))] if other else 0))
    over = [g for g in gaps if g[0] > 3]
    lines = [f"{label} ({len(shares)} shapes with a ceiling): the model's pick "
             f"{cut([s[0] for s in shares])} of {scaling.words} (lowest "
             f"{cut([s[0] for s in shares], min)}), by_size as run {cut([s[1] for s in shares])} "
             f"(lowest {cut([s[1] for s in shares], min)}), the oracle "
             f"{cut([s[2] for s in shares])}"
             + (f", the per-tensor constants' pick {cut([s[3] for s in shares])} (lowest "
                f"{cut([s[3] for s in shares], min)})" if other else "")
             + f"; the pick more than 3% slower than the oracle on {len(over)} of {len(gaps)} "
             "shapes"
             + ("" if every == len(run) else f" (every candidate timed on {every} of them)")]
    lines += [f"  {name}: {pick} {gap:.1f}% slower than {oracle}"
              + (" (rows start inside 32-byte sectors)" if model.sectors_beyond(k) else "")
              for gap, name, pick, oracle, k in sorted(over, reverse=True)]
    return "\n".join(lines)


def inside_sectors(model, runs, scaling):
    """Lines: on each fit shape whose rows start inside 32-byte sectors, 128 x 256 alone and in
    pairs as the model predicts them and as the run measured them."""
    lines = []
    for run in runs:
        for (name, m, n, k), times in run.items():
            if not model.sectors_beyond(k):
                continue
            sides = [f"{tiling} predicted {model.predict(tiling, 'dp', m, n, k):.1f} us, measured "
                     f"{times[scaling.prefix + variant(tiling, 'dp')]:.1f} us"
                     for tiling in ("128x256_c1", "128x256_c2")]
            lines.append(f"rows inside sectors, {name}: " + "; ".join(sides))
    return lines


def header_text(model, block_model):
    """22_gpu_fp8/model_constants.hpp: the fitted constants, per tensor and per block."""
    def tilings(fit):
        return [(name, *bf16_model.TILINGS[name], *fit.constants(name)) for name in NAMES]

    more = ["", "// Per block: the same model fitted to the per-block kernels' runs (README.md, E)."]
    more += bf16_model.constants_set(tilings(block_model), SLICE_K, 1, MAX_SPLIT,
                                     tuple(block_model.params[-4:]), block_model.beta,
                                     block_model.tau_divided(), block_model.gamma(),
                                     PER_BLOCK.tilings, PER_BLOCK.model, block_model.alpha,
                                     block_model.gamma_sectors())
    more += ["", "static_assert(kBlockModel.max_split == kModel.max_split,",
             '              "launch() divides per block with kModel\'s most ranges");']
    return bf16_model.constants_header("fp8_model.py", "results/22_gpu_fp8/model_fit/",
                                       "stage 22's model (README.md, G)", "fp8_model",
                                       tilings(model), SLICE_K, 1, MAX_SPLIT,
                                       tuple(model.params[-4:]), model.beta, model.tau_divided(),
                                       model.gamma(), more, model.alpha, model.gamma_sectors())


def picks_text(model):
    """A model_picks file: each listed shape's pick on the H200's counts, its predicted time and
    the DRAM rate the prediction took, which the stage's C++ model must reproduce (a host test)."""
    rows = ["m,n,k,pick,predicted_us,bytes_per_us,l2_bytes"]
    seen = set()
    for name in bf16_model.SHAPE_LISTS:
        for shape in bf16_model.list_shapes(name):
            if shape in seen:
                continue
            seen.add(shape)
            pick = model.pick(*shape)
            rows.append(f"{shape[0]},{shape[1]},{shape[2]},{variant(*pick)},"
                        f"{model.predict(*pick, *shape):.6f},{model.gpu.bytes_per_us:.3f},"
                        f"{model.gpu.l2_bytes}")
    return "\n".join(rows) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true",
                        help="write model_constants.hpp and model_picks.csv")
    parser.add_argument("--check-written", action="store_true",
                        help="exit 1 if a file --write writes differs")
    parser.add_argument("--without-alpha", action="store_true",
                        help="the ablation: alpha 0, the longer side alone (prints only)")
    parser.add_argument("--without-sectors", action="store_true",
                        help="the ablation: no gamma_sectors (prints only)")
    options = parser.parse_args()
    ablation = options.without_alpha or options.without_sectors
    if ablation and (options.write or options.check_written):
        parser.error("an ablation fits a model the stage does not run: no --write")
    alphas = (0.0,) if options.without_alpha else bf16_model.ALPHAS
    sectors = not options.without_sectors
    gpu = bf16_model.record_gpu()
    fit_runs = [read_run(path) for path in FIT_RUNS]
    model, samples = fitted(gpu, fit_runs, alphas=alphas, row_sectors=sectors)
    block_model, block_samples = fitted(gpu, fit_runs, PER_BLOCK, alphas, sectors)
    report = (report_text(gpu, model, samples, fit_runs, PER_TENSOR)
              + report_text(gpu, block_model, block_samples, fit_runs, PER_BLOCK, model))
    if options.write or options.check_written:
        files = ((HEADER, header_text(model, block_model)), (PICKS, picks_text(model)),
                 (PICKS_PER_BLOCK, picks_text(block_model)), (REPORT, report))
        if not bf16_model.write_or_check(files, options.write, "fp8_model.py"):
            return 1
    print(report, end="")
    return 0


def report_text(gpu, model, samples, fit_runs, scaling, other=None):
    """results/22_gpu_fp8/model.md's section for one scaling: the constants and the checks, as
    the script prints them."""
    if scaling is PER_TENSOR:
        lines = ["<!-- written by scripts/fp8_model.py --write -->",
                 "# Stage 22's model: its constants and its picks", "",
                 "NVIDIA H200 runs; % of cuBLASLt FP8 (E4M3, FP32 accumulate) in the same process "
                 "(per block, of", "cuBLASLt's block-scaled FP8). Made by `python3 "
                 "scripts/fp8_model.py`; [the notes](README.md) say what", "each file is.", ""]
    else:
        lines = ["", "Per block: the same model fitted to the per-block rows of the same runs.", ""]
    lines += ["```",
              f"GPU: {gpu.sms} SMs, B = {gpu.bytes_per_us / 1e3:.0f} GB/s; beta = "
              f"{model.beta / 1e3:.0f} GB/s per SM, alpha = {model.alpha}",
              f"Fitted on {len(samples)} rows; rms log error {model.error(samples):.3f}"]
    for name in NAMES:
        tau, phi = model.constants(name)
        lines.append(f"  {name}: tau {tau:.3f} us a slice, phi {phi:.2f} us a tile")
    rho, split, stream, launch = model.params[-4:]
    lines.append(f"  divided: tau_divided {model.tau_divided():.3f} us more a slice; rho {rho:.2f} "
                 f"us a 128 x 256 partial tile saved or read; sigma {split:.2f} us a split-K launch, "
                 f"{stream:.2f} us a Stream-K launch")
    lines.append(f"  gamma_sectors {model.gamma_sectors():.4f} us a slice per KB of sectors read "
                 "beyond the aligned count, every SM busy")
    lines.append(f"  lambda {launch:.2f} us")
    check_run = read_run(CHECK_RUN)
    # C rows of whole 16 bytes (N a multiple of 4) take the TMA store, which the constants
    # price; the others store element by element, which they do not.
    stored = {key: rows for key, rows in check_run.items() if key[2] % 4 == 0}
    others = len(check_run) - len(stored)
    lines.append(f"Checked on {os.path.basename(CHECK_RUN)}: rms log error "
                 f"{model.error(samples_of([stored], scaling)):.3f} on the {len(stored)} shapes "
                 f"whose C takes the TMA store"
                 + (f", {model.error(samples_of([check_run], scaling)):.3f} with the {others} "
                    f"whose N is no multiple of 4" if others else ""))
    for path, run in zip(FIT_RUNS, fit_runs):
        lines.append(check(model, run, "fit: " + os.path.basename(path), scaling, other))
    lines += inside_sectors(model, fit_runs, scaling)
    lines.append(check(model, check_run, "held out: " + os.path.basename(CHECK_RUN), scaling,
                       other))
    if scaling is PER_BLOCK:
        lines.append(check(model, read_run(ISSUE_RUN), "held out: the FP8 issue's shapes, "
                           + os.path.basename(ISSUE_RUN), scaling, other))
    lines.append("```")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
