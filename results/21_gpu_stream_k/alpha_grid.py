#!/usr/bin/env python3
"""How firmly the fit pins stage 21's alpha, host only: for each alpha of the grid, the model
fitted on the committed fit runs (model_fit/) with the beta of least error, and that error; then,
with each fit list held out in turn, the alpha and beta the other two choose.

    python3 results/21_gpu_stream_k/alpha_grid.py
"""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import stream_k_model as model  # noqa: E402

gpu = model.record_gpu()
runs = {name: model.read_run(os.path.join(model.FIT_RUNS, name)) for name in model.FIT_LISTS}
for alpha in model.ALPHAS:
    best, samples = model.fitted(gpu, list(runs.values()), model.MAX_SPLIT, alphas=(alpha,))
    print(f"alpha {alpha}: beta {best.beta / 1e3:.0f} GB/s, rms log error {best.error(samples):.5f}")
for held in runs:
    fit, _ = model.fitted(gpu, [run for name, run in runs.items() if name != held], model.MAX_SPLIT)
    print(f"{held} held out: alpha {fit.alpha}, beta {fit.beta / 1e3:.0f} GB/s")
