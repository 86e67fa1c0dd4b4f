#!/usr/bin/env python3
"""Stage 21's alpha tried on stage 22's FP8 model, host only: for each alpha of stage 21's grid,
the FP8 model fitted on its committed fit runs (beta the best of its grid, as fp8_model.py
fits it), its fit error, and its picks checked on the committed runs that time every variant:
the three fit lists and the unseen list (model_check_unseen.csv).

    python3 results/22_gpu_fp8/alpha_tried/alpha_grid.py
"""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import fp8_model as fp8  # noqa: E402
import stream_k_model as bf16  # noqa: E402

RUNS = os.path.join(REPO, "results", "22_gpu_fp8")
gpu = bf16.record_gpu()
fit_runs = {name: fp8.read_run(os.path.join(RUNS, "model_fit", name)) for name in bf16.FIT_LISTS}
checks = dict(fit_runs, **{"model_check_unseen.csv":
                           fp8.read_run(os.path.join(RUNS, "model_check_unseen.csv"))})
for alpha in bf16.ALPHAS:
    model, samples = fp8.fitted(gpu, list(fit_runs.values()), alpha=alpha)
    print(f"alpha {alpha}: beta {model.beta / 1e3:.0f} GB/s, rms log error {model.error(samples):.4f}")
    for name, run in checks.items():
        print("  " + fp8.check(model, run, name).splitlines()[0])
