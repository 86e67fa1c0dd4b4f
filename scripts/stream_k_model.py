#!/usr/bin/env python3
"""A model of stage 21's variants: each one's time predicted from the shape and the GPU, its
constants fitted on some shape lists and checked on another that it never saw.

  python3 scripts/stream_k_model.py                 fit on the runs in results/21_gpu_stream_k/
                                                    model_fit/, check on the lists' latest runs
  python3 scripts/stream_k_model.py --fit A.csv B.csv --check C.csv
  python3 scripts/stream_k_model.py --write         also write the constants into the stage's
                                                    model_constants.hpp, the picks it must make
                                                    into results/21_gpu_stream_k/model_picks.csv,
                                                    Stream-K's reads (model_stream_reads.csv),
                                                    the page's worked shapes (model_worked.md)
                                                    and the generated sections of the stage's
                                                    MODEL.md (the symbols, the tree's chain, the
                                                    worked shapes by hand)
  python3 scripts/stream_k_model.py --check-written exit 1 if a file it writes differs from the fit
  python3 scripts/stream_k_model.py --explain M N K every candidate's counts and predicted time
  python3 scripts/stream_k_model.py --without-gamma the ablation: the model fitted without gamma
  python3 scripts/stream_k_model.py --without-stream-reads  the ablation: Stream-K's operands
                                                    priced as the least a product reads
  python3 scripts/stream_k_model.py --without-alpha the ablation: alpha 0, the longer side alone
  python3 scripts/stream_k_model.py --cross-validate each fit list held out in turn, with and
                                                    without tau_divided, then each form's check

Each CSV is a `shapes.py --stage 21_gpu_stream_k --config all --csv` run: every variant, stage
19's default (the baseline, which the model does not price) and cuBLAS BF16 on each shape. For
a variant with tiles of BM x BN in clusters of c (R = SMs / c clusters at once), T cluster tiles
and L = ceil(K / 64) slices, the model counts what the slowest cluster does, as divide()
(common/hopper/tile_parts.cpp) hands out the work:

  data-parallel  ceil(T / R) tiles of L slices
  split-K        T // R whole tiles, then ceil(L / s) slices of one more, s = split_ways(T, R, L),
                 and the partial tiles saved or read one after another on the longest chain of the
                 tree the s ranges meet in (tree_transfers(s) = 4h + ceil(s / 4^h) - 1, with
                 4^h < s <= 4^(h + 1): tree_chain)
  Stream-K       the whole tiles of all but the last two waves, then an even share of the rest's
                 slices, which touches ceil(share / L) + 1 tiles; with S those slices, the
                 runs are S // R slices or one more, so a tile's finishing part (a slice at
                 least) adds at most ceil((L - 1) / (S // R)) partial tiles, the parts before it

  compute = (tau_t + gamma x KB_t x active SMs / SMs + tau_divided) x slices + phi_t x tiles
            + rho x partial tiles + sigma_scheme
  memory = bytes / min(B, active SMs x beta)
  time = max(compute, memory) + alpha x min(compute, memory) + lambda

tau_t (a slice's time) and phi_t (a tile's fixed cost: the first loads, the store) per tiling;
gamma a slice's extra per KB it reads from L2 (KB_t = (BM + BN / c) x 128 bytes: a cluster's
blocks share B's) when every SM reads, in proportion to the SMs at work; tau_divided a slice's
extra in a launch that divides (its kernel walks parts and keeps more in registers; 0 where the
launch divides nothing and runs the whole-tile kernel);
rho per 128 x 256 partial tile saved or read; sigma a split or Stream-K launch's fixed extra; lambda
the launch; alpha the share of the shorter side that the longer does not hide (each tile's
first loads wait for no product and its last products for no load), fitted with beta.
bytes = 2 (MK + KN) + 4 MN, the least a product moves, but for Stream-K the
operands as its runs read them from DRAM (stream_reads: tiles that share a panel of A or B read
each slice of it at different times, and a read finds it in L2 only if the last came at most
what the L2 holds before); B is cudaMemcpy's rate in
the ladder's record on the same GPU; beta one SM's share, fitted. The fit is linear least
squares on the relative error, over the rows that the bandwidth term does not bound.

The check picks, on each shape, the variant the model predicts fastest, and prints its % of
cuBLAS beside by_shape's (the stage's default, which runs the same model in C++, measured in its
own row) and the oracle's (the fastest of the variants, measured). Shapes whose rows are not
whole 16 bytes are left out: the variants run on a copy of them, which the model does not price.

The fit is made once, on the runs kept in results/21_gpu_stream_k/model_fit/ (the three lists as
they ran with split-K up to MAX_SPLIT ways, the previous constants picking by_shape's variant),
so that rerunning a list does not move the constants. The
stage reads them from 21_gpu_stream_k/model_constants.hpp, which --write writes; a C++ test
checks that the stage's model makes, on every listed shape, the pick and the prediction that
model_picks.csv holds.
"""
import argparse
import bisect
import csv
import functools
import math
import os
import re
import sys

import ladder
from figures import filled  # the pages' generated sections

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
RESULTS = os.path.join(REPO, "results", "21_gpu_stream_k")
FIT_RUNS = os.path.join(RESULTS, "model_fit")
HEADER = os.path.join(REPO, "21_gpu_stream_k", "model_constants.hpp")
PICKS = os.path.join(RESULTS, "model_picks.csv")
WORKED = os.path.join(RESULTS, "model_worked.md")
STREAM_READS = os.path.join(RESULTS, "model_stream_reads.csv")
# Shapes beyond the lists for STREAM_READS: ragged edges, more than 8 cluster rows, more than a
# wave, pairs and few tiles with a long K.
STREAM_READS_SHAPES = [(1100, 1000, 3000), (2000, 3000, 5000), (4000, 4000, 2000),
                       (1500, 2500, 4096), (640, 640, 40960)]
# The page's worked shapes (21_gpu_stream_k/README.md, D): every candidate in WORKED.
WORKED_SHAPES = [(1024, 1024, 1024), (512, 4096, 14336), (640, 640, 40960)]
# The companion page, the model term by term: --write fills its generated sections (figures.py's
# markers, which the pages' prose check leaves out) with the symbols' values, the split-K tree's
# chain and one variant on each worked shape, factor by factor (BY_HAND).
MODEL_PAGE = os.path.join(REPO, "21_gpu_stream_k", "MODEL.md")
BY_HAND = [("128x256_c2_dp", 1024, 1024, 1024), ("128x256_c2_split", 512, 4096, 14336),
           ("128x128_c1_stream", 640, 640, 40960)]
# The stage's model, whose kCopyShareOfPeak (by_shape's DRAM rate: that share of the peak the
# driver reports) MODEL.md quotes.
TILE_MODEL = os.path.join(REPO, "common", "hopper", "tile_model.cpp")
SHAPE_LISTS = ["model_shapes.csv", "model_shapes_more.csv", "model_shapes_heldout.csv",
               "model_shapes_unseen.csv"]
# The H200's maximum SM clock (cudaDevAttrClockRate), at which the constants were measured.
FIT_CLOCK_MHZ = 1980
# Split-K's most ranges a tile, written into the constants for divide() (results/
# 21_gpu_stream_k/notes.md, split-K into more ways).
MAX_SPLIT = 64
RECORD = os.path.join(REPO, "results", "ladder_4096.csv")
FIT_LISTS = ["model_shapes.csv", "model_shapes_more.csv", "model_shapes_heldout.csv"]
# The runs MODEL.md's worked shapes are measured in: the shape lists, then the huge-K list.
MEASURED_LISTS = SHAPE_LISTS + ["model_shapes_huge_k.csv"]
CHECK_LISTS = SHAPE_LISTS
# The lists whose picks the C++ test checks: the four, and one of few tiles and a long K, where
# split-K cuts a tile into many ranges.
PICK_LISTS = SHAPE_LISTS + ["huge_k_shapes.csv"]
CUBLAS = "cuBLAS BF16 (FP32 accumulate)"
DEFAULT = "by_shape"
SLICE_K = 64

# The tilings of stage 21's variants: (BM, BN, blocks per cluster).
TILINGS = {"128x256_c2": (128, 256, 2), "128x256_c1": (128, 256, 1), "128x192_c2": (128, 192, 2),
           "128x192_c1": (128, 192, 1), "128x128_c1": (128, 128, 1), "128x64_c1": (128, 64, 1),
           "64x256_c1": (64, 256, 1), "64x128_c1": (64, 128, 1)}
NAMES = list(TILINGS)


def cdiv(a, b):
    return -(-a // b)


class Gpu:
    def __init__(self, sms, bytes_per_us, l2_bytes):
        self.sms, self.bytes_per_us, self.l2_bytes = sms, bytes_per_us, l2_bytes

    def resident(self, tiling):
        return self.sms // TILINGS[tiling][2]


def record_gpu(path=RECORD):
    """The SM count, cudaMemcpy's device-to-device rate and the L2's size (printed in MB, a whole
    number of MiB) of the ladder's record."""
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if "cudaMemcpy" in r["variant"]]
    if not rows:
        raise SystemExit(f"stream_k_model.py: no cudaMemcpy row in {path}")
    sms = int(re.search(r"(\d+) SMs", rows[0]["device"]).group(1))
    l2_mib = round(int(re.search(r"L2 (\d+) MB", rows[0]["device"]).group(1)) * 1e6 / 2 ** 20)
    rate = sorted(float(r["rate"]) for r in rows)[len(rows) // 2]  # GB/s
    return Gpu(sms, rate * 1e3, l2_mib * 2 ** 20)  # bytes per microsecond


def tiles(tiling, m, n):
    bm, bn, c = TILINGS[tiling]
    return cdiv(cdiv(m, bm), c) * cdiv(n, bn)


def split_ways(t, resident, slices, most):
    rest = t % resident
    return 1 if rest == 0 else min(resident // rest, most, slices)


TREE_WIDTH = 4  # tile_parts.hpp's kTreeWidth (a test holds the two equal)


def tree_unit(i):
    """The largest power of TREE_WIDTH dividing i: range i holds ranges (i - unit, i]."""
    unit = 1
    while i % (unit * TREE_WIDTH) == 0:
        unit *= TREE_WIDTH
    return unit


def tree_meets(ways):
    """A tile split `ways` ways, as tile_parts.hpp's for_each_tree_read has meet_parts add the
    ranges: each range's reads in order (i - j u, j < 4, u = 1, 4, ... below its unit; the last
    range then the ranges before its subtree), and the transfer (a save or a read) after which
    its sums are ready: saved one after its last read, or for the last, added up."""
    reads, ready = {}, {}
    for i in range(1, ways + 1):
        order, u, unit = [], 1, tree_unit(i)
        while u < unit:
            order += [i - j * u for j in range(1, TREE_WIDTH)]
            u *= TREE_WIDTH
        below = i - unit
        while i == ways and below > 0:
            order.append(below)
            below -= tree_unit(below)
        t = 0
        for r in order:
            t = max(t, ready[r]) + 1
        reads[i], ready[i] = order, t + (0 if i == ways else 1)
    return reads, ready


def tree_transfers(ways):
    """The partial-tile transfers (saves and reads) one after another before a tile split `ways`
    ways holds its sum, less the leaves' first save, which every range makes at once."""
    return tree_meets(ways)[1][ways] - 1


def tree_levels(ways):
    """h, the levels below the top of a tree of `ways` ranges: 4^h < ways <= 4^(h + 1)."""
    h = 0
    while TREE_WIDTH ** (h + 1) < ways:
        h += 1
    return h


def tree_chain(ways):
    """tree_transfers in closed form (a test holds the two equal): a whole subtree of 4^j ranges
    has its sum saved 4j transfers after the leaves' saves (3 reads and a save a level); the last
    range then reads the top level's other ceil(ways / 4^h) - 1 subtrees one after another, the
    last of them ready at 4h."""
    h = tree_levels(ways)
    return TREE_WIDTH * h + cdiv(ways, TREE_WIDTH ** h) - 1


def stream_division(t, r, slices):
    """divide()'s Stream-K for t tiles of `slices` slices on r clusters: (the whole tiles before
    the runs, the runs' length, how many runs are one slice longer), or None where it divides
    nothing."""
    before = max(0, t // r - 1) * r
    iterations = (t - before) * slices
    if t % r == 0 or iterations < r:
        return None
    return (before,) + divmod(iterations, r)


def work(gpu, tiling, scheme, m, n, k, most, slice_k=SLICE_K):
    """(slices, tiles, partial tiles) of the slowest cluster, and whether the scheme divided;
    slices slice_k deep."""
    t, slices, r = tiles(tiling, m, n), cdiv(k, slice_k), gpu.resident(tiling)
    whole = (cdiv(t, r) * slices, cdiv(t, r), 0)
    if scheme == "split":
        s = split_ways(t, r, slices, most)
        if s > 1:
            return ((t // r) * slices + cdiv(slices, s), t // r + 1, tree_transfers(s)), True
    division = stream_division(t, r, slices) if scheme == "stream" else None
    if division:
        before, run, extra = division
        share = run + (extra > 0)  # the longest run
        return ((before // r) * slices + share, before // r + cdiv(share, slices) + 1,
                cdiv(slices - 1, run)), True
    return whole, False


GROUP_ROWS = 8  # persistent.cuh's kGroupM: tiles are taken down groups of 8 cluster rows


def l2_hold(gpu, tiling, slice_k=SLICE_K, operand_bytes=2):
    """H: the slice-times the L2 holds, every cluster reading a slice of new bytes each."""
    bm, bn, c = TILINGS[tiling]
    return gpu.l2_bytes / (gpu.resident(tiling) * (bm * c + bn) * slice_k * operand_bytes)


@functools.lru_cache(maxsize=None)  # the fit prices each row once per beta and alpha
def stream_reads(gpu, tiling, m, n, k, slice_k=SLICE_K, operand_bytes=2):
    """The operand bytes a Stream-K launch reads from DRAM, as its clusters walk their runs:
    None where it divides nothing. The whole tiles before the runs read what data-parallel tiles
    do. Run g is iterations [g share + min(g, extra), ...) (divide(): share = iterations // R,
    the first `extra` runs one longer); its cluster takes the run's parts from the end back
    (PartWalk) and each part's slices in order, one a slice-time. So tiles that share a panel
    of A (a tile row) or of B (a tile column) read its slice s at different times. A read finds
    the slice in L2 if the panel's last read of it came at most H slice-times before, H = L2 /
    (the bytes every cluster reads in one slice-time, as if none were in L2); else it comes
    from DRAM. A panel's bytes are its rows (of A) or columns (of B) in the matrix times K."""
    bm, bn, c = TILINGS[tiling]
    rows, cols = cdiv(cdiv(m, bm), c), cdiv(n, bn)
    t, slices, r = rows * cols, cdiv(k, slice_k), gpu.resident(tiling)
    division = stream_division(t, r, slices)
    if division is None:
        return None
    before, share, extra = division
    hold = l2_hold(gpu, tiling, slice_k, operand_bytes)
    # Each shared tile's parts: (first slice, end slice, the time of slice s less s).
    parts = [[] for _ in range(t - before)]
    for g in range(r):
        begin, i, time = g * share + min(g, extra), (g + 1) * share + min(g + 1, extra), 0
        while i > begin:
            u = (i - 1) // slices
            first = max(begin, u * slices)
            parts[u].append((first - u * slices, i - u * slices, time - (first - u * slices)))
            time, i = time + i - first, first
    panels_a, panels_b = {}, {}
    for u, tile_parts in enumerate(parts):
        tile = before + u
        group = tile // (GROUP_ROWS * cols) * GROUP_ROWS
        in_group, group_rows = tile % (GROUP_ROWS * cols), min(rows - group, GROUP_ROWS)
        panels_a.setdefault(group + in_group % group_rows, []).append(tile_parts)
        panels_b.setdefault(in_group // group_rows, []).append(tile_parts)

    def reads(tiles):
        """A panel's DRAM reads, summed over its slices. Between two parts' first slices every
        tile reads slice s at s + a fixed offset, so each slice there is read 1 + (the gaps over
        H between the tiles' sorted offsets) times; a part's first slice moves one offset."""
        offsets, over = [], 0  # sorted offsets, and the gaps between them over H

        def move(x, sign):  # sign 1 adds offset x, -1 takes one x away
            nonlocal over
            at = bisect.bisect_left(offsets, x)
            lower = offsets[at - 1] if at > 0 else None
            above = at + 1 if sign < 0 else at
            upper = offsets[above] if above < len(offsets) else None
            split = ((lower is not None and x - lower > hold)
                     + (upper is not None and upper - x > hold))
            joined = lower is not None and upper is not None and upper - lower > hold
            over += sign * (split - joined)
            if sign > 0:
                offsets.insert(at, x)
            else:
                del offsets[at]

        starts = sorted((first, u, offset) for u, tile in enumerate(tiles)
                        for first, _, offset in tile)
        held, total = {}, 0
        for e, (first, u, offset) in enumerate(starts):
            if u in held:
                move(held[u], -1)
            move(offset, 1)
            held[u] = offset
            total += (1 + over) * ((starts[e + 1][0] if e + 1 < len(starts) else slices) - first)
        return total

    read_rows = sum(min(bm * c, m - row * bm * c) * reads(v) for row, v in panels_a.items())
    read_cols = sum(min(bn, n - col * bn) * reads(v) for col, v in panels_b.items())
    whole = operand_bytes * (m * k + k * n) * before / t
    return whole + k * operand_bytes * (read_rows + read_cols) / slices


# Stage 21's variants after by_shape, in the stage's order: name -> (tiling, scheme).
VARIANTS = {
    "128x256_c2_dp": ("128x256_c2", "dp"),
    "128x256_c2_split": ("128x256_c2", "split"),
    "128x256_c2_stream": ("128x256_c2", "stream"),
    "128x256_c1_dp": ("128x256_c1", "dp"),
    "128x192_c2_dp": ("128x192_c2", "dp"),
    "128x192_c1_dp": ("128x192_c1", "dp"),
    "128x128_c1_dp": ("128x128_c1", "dp"),
    "128x128_c1_split": ("128x128_c1", "split"),
    "128x128_c1_stream": ("128x128_c1", "stream"),
    "128x64_c1_dp": ("128x64_c1", "dp"),
    "128x64_c1_split": ("128x64_c1", "split"),
    "64x256_c1_dp": ("64x256_c1", "dp"),
    "64x256_c1_split": ("64x256_c1", "split"),
    "64x128_c1_dp": ("64x128_c1", "dp"),
    "64x128_c1_split": ("64x128_c1", "split"),
}


def read_kb(tiling):
    """The KB a block reads from L2 for one slice: BM rows of A's and BN rows of B's 128 bytes
    (B's shared by the c blocks of a cluster, each reading BN / c and multicasting them)."""
    bm, bn, c = TILINGS[tiling]
    return (bm + bn / c) * 128 / 1024


def sectors_beyond(row_bytes):
    """The share of a slice's 32-byte sectors that rows `row_bytes` apart read beyond the aligned
    count: a row's 128 bytes fill 4 sectors where they start on a sector, and touch 5 where they
    start inside one, as all rows but a share gcd(row_bytes mod 32, 32) / 32 do."""
    return (1 - math.gcd(row_bytes % 32, 32) / 32) / 4


def stored_row_bytes(k, operand_bytes):
    """The bytes from one row of A (or B^T) to the next as the programs store K elements
    (fp8_stride, common/harness/fp8_gemm_bench.hpp): rows of whole 16 bytes, which TMA reads as
    they are (the launchers copy other rows into 128-byte lines first)."""
    return -(-k * operand_bytes // 16) * 16


class Model:
    """tau and phi per tiling, then (with busy_reads) gamma, then (with divided_slices)
    tau_divided, then rho, sigma_split, sigma_stream, lambda; beta per SM. BF16's slices and
    elements by default; stage 22's model is the same with FP8's (fp8_model.py), whose divided
    kernels also take tau_divided more a slice than its whole-tile kernels. gamma: a slice's
    extra time per KB it reads from L2 when every SM reads, in proportion to the share of SMs
    busy (fewer KB with multicast)."""

    def __init__(self, gpu, beta, most, params=None, slice_k=SLICE_K, operand_bytes=2,
                 divided_slices=False, busy_reads=False, stream_reuse=True, alpha=0.0,
                 row_sectors=False):
        self.gpu, self.beta, self.most, self.params = gpu, beta, most, params
        self.alpha = alpha  # the shorter side's share that the longer does not hide
        self.stream_reuse = stream_reuse
        self.slice_k, self.operand_bytes = slice_k, operand_bytes
        self.divided_slices, self.busy_reads = divided_slices, busy_reads
        self.row_sectors = row_sectors
        self.size = 2 * len(NAMES) + busy_reads + row_sectors + divided_slices + 4

    def tau_divided(self):
        """A divided kernel's extra time a slice: 0 where the model has no such term."""
        return self.params[-5] if self.divided_slices else 0.0

    def gamma(self):
        """A slice's extra time per KB read with every SM busy: 0 where the model has none."""
        return self.params[2 * len(NAMES)] if self.busy_reads else 0.0

    def gamma_sectors(self):
        """A slice's extra time per KB of sectors its rows read beyond the aligned count, every SM
        reading: 0 where the model has no such term."""
        return self.params[2 * len(NAMES) + self.busy_reads] if self.row_sectors else 0.0

    def sectors_beyond(self, k):
        """sectors_beyond() of rows of K elements as the programs store them."""
        return sectors_beyond(stored_row_bytes(k, self.operand_bytes))

    def active_sms(self, tiling, divided, m, n):
        """The SMs at work: every cluster's (a pair over one tile row does one block's work),
        for whole tiles no more than the tiles'."""
        bm, bn, c = TILINGS[tiling]
        rows = cdiv(m, bm)
        active = self.gpu.resident(tiling) * (1 if (c == 2 and rows == 1) else c)
        return active if divided else min(rows * cdiv(n, bn), active)

    def features(self, tiling, scheme, m, n, k):
        x = [0.0] * self.size
        (slices, tile_count, partials), divided = work(self.gpu, tiling, scheme, m, n, k,
                                                       self.most, self.slice_k)
        i = NAMES.index(tiling)
        x[2 * i], x[2 * i + 1] = slices, tile_count
        busy = self.active_sms(tiling, divided, m, n) / self.gpu.sms
        if self.busy_reads:
            x[2 * len(NAMES)] = slices * read_kb(tiling) * busy
        if self.row_sectors:
            x[2 * len(NAMES) + self.busy_reads] = (slices * read_kb(tiling)
                                                   * self.sectors_beyond(k) * busy)
        if divided and self.divided_slices:
            x[-5] = slices
        bm, bn, _ = TILINGS[tiling]
        x[-4] = partials * bm * bn / (128 * 256)
        if divided:
            x[-3 if scheme == "split" else -2] = 1.0
        x[-1] = 1.0
        return x

    def memory_time(self, tiling, scheme, m, n, k, least=False):
        """The bytes moved over what the busy SMs draw: the least a product moves, or with
        stream_reuse (least False) a Stream-K launch's operands as its runs read them."""
        _, divided = work(self.gpu, tiling, scheme, m, n, k, self.most, self.slice_k)
        reads = None
        if scheme == "stream" and self.stream_reuse and not least:
            reads = stream_reads(self.gpu, tiling, m, n, k, self.slice_k, self.operand_bytes)
        if reads is None:
            reads = self.operand_bytes * (m * k + k * n)
        moved = reads + 4 * m * n
        active = self.active_sms(tiling, divided, m, n)
        return moved / min(self.gpu.bytes_per_us, active * self.beta)

    def sides(self, tiling, scheme, m, n, k):
        """(compute, memory) in microseconds, the launch in neither."""
        x = self.features(tiling, scheme, m, n, k)
        compute = math.fsum(a * b for a, b in zip(self.params, x)) - self.params[-1]
        return compute, self.memory_time(tiling, scheme, m, n, k)

    def predict(self, tiling, scheme, m, n, k):
        compute, memory = self.sides(tiling, scheme, m, n, k)
        return max(compute, memory) + self.alpha * min(compute, memory) + self.params[-1]

    def fit(self, samples):
        """Least squares on the relative error over the rows that moving the least bytes does not
        bound, each taken as bound by its compute side: the target is the measured time less
        alpha times the memory side as predict() prices it (Stream-K's reads included), so that
        predict() gives back the fitted time on such a row. A row whose memory side is the
        longer under the fitted constants (14 of 720 in the committed fit) is fitted as if it
        were not. Stream-K's reads (stream_reads) come from a rule of thumb for L2 (H counts
        every read as new to it), not from a measure, so they drop no row from the fit."""
        a = [[0.0] * self.size for _ in range(self.size)]
        b = [0.0] * self.size
        for m, n, k, tiling, scheme, us in samples:
            if self.memory_time(tiling, scheme, m, n, k, least=True) > 0.85 * us:
                continue
            x = self.features(tiling, scheme, m, n, k)
            target = us - self.alpha * self.memory_time(tiling, scheme, m, n, k)  # compute's part
            for i in range(self.size):
                b[i] += x[i] * target / us ** 2
                for j in range(self.size):
                    a[i][j] += x[i] * x[j] / us ** 2
        for i in range(self.size):
            a[i][i] += 1e-9  # a tiling no sample uses keeps 0
        self.params = solve(a, b)
        return self

    def error(self, samples):
        """Root mean square of log(predicted / measured)."""
        logs = [math.log(self.predict(t, s, m, n, k) / us) for m, n, k, t, s, us in samples]
        return math.sqrt(math.fsum(v * v for v in logs) / len(logs))


def solve(a, b):
    """x with a x = b, by Gaussian elimination with partial pivoting."""
    n = len(b)
    rows = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[col][col]:
                factor = rows[r][col] / rows[col][col]
                for j in range(col, n + 1):
                    rows[r][j] -= factor * rows[col][j]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def read_run(path, name=lambda variant: variant.split(",")[0]):
    """{(shape, m, n, k): {name(variant): median us}} of a shapes.py CSV (or of a program's own
    --csv runs appended, whose shape is the problem it names), without the shapes
    that take the fallback (stage 15's kernel, or FP8's on the CUDA cores) or copy their rows
    first: the model prices neither."""
    shapes, fallback = {}, set()
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["problem"] == "problem":  # the header again, where runs were appended
                continue
            a, b = r["problem"].replace("A ", "").split(" * B ")
            m, k = (int(v) for v in a.split("x"))
            key = (r.get("shape", r["problem"]), m, int(b.split("x")[1]), k)
            shapes.setdefault(key, {})[name(r["variant"])] = float(r["median_ms"]) * 1e3
            if "fallback" in r["variant"] or "after a copy" in r["variant"]:
                fallback.add(key)
    return {key: rows for key, rows in shapes.items() if key not in fallback}


def samples_of(gpu, runs):
    return [(m, n, k, tiling, scheme, rows[name])
            for run in runs for (_, m, n, k), rows in run.items()
            for name, (tiling, scheme) in VARIANTS.items() if name in rows]


# The values of beta the fit tries, in GB/s (one SM's share of DRAM), and of alpha.
BETAS = (30, 40, 50, 60, 80, 120)
ALPHAS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3)


def least_error(make, samples, alphas=ALPHAS):
    """Of make(beta in bytes/us, alpha) for each beta of BETAS and alpha of `alphas`, each fitted
    on the samples, the model of least error."""
    models = [make(beta * 1e3, alpha).fit(samples) for beta in BETAS for alpha in alphas]
    return min(models, key=lambda model: model.error(samples))


def fitted(gpu, runs, most, busy_reads=True, divided_slices=False, stream_reuse=True,
           alphas=ALPHAS):
    """The model with the beta and alpha of least error, each pair fitted on the runs."""
    samples = samples_of(gpu, runs)
    return least_error(lambda beta, alpha: Model(gpu, beta, most, busy_reads=busy_reads,
                                                 stream_reuse=stream_reuse,
                                                 divided_slices=divided_slices, alpha=alpha),
                       samples, alphas), samples


def pick(model, m, n, k, among=VARIANTS):
    """The variant of `among` the model predicts fastest; the first on a tie, as fastest()."""
    return min(among, key=lambda v: model.predict(*VARIANTS[v], m, n, k))


def cross_validate(gpu, runs, checks):
    """Lines: for each form of the model (without tau_divided, the stage's, and with it), fitted
    on all fit lists but one and checked on that one, the picks' geometric mean as % of the
    oracle's speed and the picks more than 3% slower than it; then fitted on all of them and
    checked on the `checks` runs."""
    lines = []
    for divided in (False, True):
        whole, _ = fitted(gpu, list(runs.values()), MAX_SPLIT, divided_slices=divided)
        whole.params = [round(p, 6) for p in whole.params]
        for held, run in runs.items():
            model, _ = fitted(gpu, [r for h, r in runs.items() if h != held], MAX_SPLIT,
                              divided_slices=divided)
            ratios = []
            for (_, m, n, k), rows in run.items():
                timed = [v for v in VARIANTS if v in rows]
                ratios.append(min(rows[v] for v in timed) / rows[pick(model, m, n, k, timed)])
            lines.append(f"tau_divided {'in' if divided else 'out'}, {held} held out: the picks "
                         f"{cut(100 * geomean(ratios))} of the oracle's speed, "
                         f"{sum(r < 1 / 1.03 for r in ratios)} of {len(ratios)} more than 3% "
                         "slower")
        lines += [f"tau_divided {'in' if divided else 'out'}, fitted on all: "
                  + check(whole, run, name).split("\n")[0] for name, run in checks.items()]
    return "\n".join(lines)


def geomean(values):
    return math.exp(math.fsum(math.log(v) for v in values) / len(values))


def cut(percent):
    """A %, cut to one decimal as the tables print it (ladder.cut): "99.6%"."""
    return f"{ladder.cut(percent, 1)}%"


def check(model, run, label):
    """One line on the model's picks against by_shape and the oracle, and the worst shapes."""
    picks = []
    for (name, m, n, k), rows in run.items():
        timed = [v for v in VARIANTS if v in rows]
        picked = pick(model, m, n, k, timed)
        oracle = min(timed, key=rows.get)
        cublas = rows[CUBLAS]
        picks.append((100 * (rows[picked] / rows[oracle] - 1), name, picked, oracle,
                      100 * cublas / rows[picked], 100 * cublas / rows[DEFAULT],
                      100 * cublas / rows[oracle]))
    over = [p for p in picks if p[0] > 3]
    lines = [f"{label} ({len(picks)} shapes): the model's pick "
             f"{cut(geomean([p[4] for p in picks]))} of cuBLAS BF16 (lowest "
             f"{cut(min(p[4] for p in picks))}), by_shape "
             f"{cut(geomean([p[5] for p in picks]))} (lowest {cut(min(p[5] for p in picks))}), "
             f"the oracle {cut(geomean([p[6] for p in picks]))}; the pick more than 3% slower "
             f"than the oracle on {len(over)}"]
    for gap, name, picked, oracle, *_ in sorted(over, reverse=True):
        lines.append(f"  {name}: {picked} {gap:.1f}% slower than {oracle}")
    return "\n".join(lines)


def header_text(model):
    """21_gpu_stream_k/model_constants.hpp: the fitted constants, in the model's units."""
    rho, split, stream, launch = model.params[-4:]
    tilings = []
    for i, name in enumerate(NAMES):
        tilings.append((name, *TILINGS[name], model.params[2 * i], model.params[2 * i + 1]))
    return constants_header("stream_k_model.py", "results/21_gpu_stream_k/model_fit/",
                            "stage 21's model (README.md, D)", "stream_k_model", tilings,
                            SLICE_K, 2, MAX_SPLIT, (rho, split, stream, launch), model.beta,
                            model.tau_divided(), model.gamma(), alpha=model.alpha)


def constants_set(tilings, slice_k, operand_bytes, max_split, fixed, beta, tau_divided, gamma,
                  tilings_name="kTilings", model_name="kModel", alpha=0.0, gamma_sectors=None):
    """One set of a model_constants.hpp: its tilings' (name, BM, BN, cluster, tau, phi) and the
    ModelConstants (common/hopper/tile_model.hpp) over them: slice depth, element size, split-K's
    most ranges, rho, the two sigmas and lambda (`fixed`), beta, tau_divided and gamma."""
    rho, split, stream, launch = fixed
    lines = [f"inline constexpr TilingCost {tilings_name}[] = {{"]
    for name, bm, bn, c, tau, phi in tilings:
        rows = "" if bm == 128 else f", {bm}"  # TilingCost's block_m, 128 unless written
        lines.append(f"    {{{bn}, {c}, {tau:.6f}, {phi:.6f}{rows}}},  // {name}")
    lines += [
        "};",
        "",
        f"inline constexpr ModelConstants {model_name} = {{",
        f"    {tilings_name}, {len(tilings)},",
        f"    {slice_k},  // slice_k",
        f"    {operand_bytes},  // operand_bytes",
        f"    {max_split},  // max_split: split-K's most ranges a tile",
        f"    {rho:.6f},  // rho: a 128 x 256 partial tile saved or read",
        f"    {split:.6f},  // sigma_split: a split-K launch's extra",
        f"    {stream:.6f},  // sigma_stream: a Stream-K launch's extra",
        f"    {tau_divided:.6f},  // tau_divided: a divided kernel's extra a slice"
        + ("" if tau_divided else " (not in this fit)"),
        f"    {gamma:.6f},  // gamma: a slice's extra a KB read from L2, every SM busy"
        + ("" if gamma else " (not in this fit)"),
        f"    {launch:.6f},  // lambda: the launch",
        f"    {beta:.1f},  // beta: one SM's share of DRAM",
        f"    {FIT_CLOCK_MHZ},  // the clock of the fit",
        f"    {alpha},  // alpha: the shorter of compute and memory, the share not hidden"
        + ("" if alpha else " (not in this fit)"),
    ]
    if gamma_sectors is not None:  # else the struct's 0: not in this fit
        lines.append(f"    {gamma_sectors:.6f},  // gamma_sectors: a slice's extra a KB of sectors "
                     "read beyond the aligned count")
    return lines + ["};"]


def constants_header(script, fit_runs, whose, namespace, tilings, slice_k, operand_bytes,
                     max_split, fixed, beta, tau_divided, gamma, more=(), alpha=0.0,
                     gamma_sectors=None):
    """A stage's model_constants.hpp: constants_set's kTilings and kModel, then the lines of
    `more` (further sets, each with its comment)."""
    lines = [
        f"// Written by scripts/{script} from the runs in {fit_runs};",
        f"// edit that, not this. The constants of {whose},",
        f"// in microseconds on an H200 at its {FIT_CLOCK_MHZ} MHz maximum SM clock.",
        "#pragma once",
        "",
        '#include "common/hopper/tile_model.hpp"',
        "",
        f"namespace ladder::{namespace} {{",
        "",
        f"// Each tiling: BM x BN tiles (BM 128 unless written last) in clusters of c; tau, a "
        f"{slice_k}-deep",
        "// slice's time, and phi, a tile's fixed cost (its first loads and its store).",
    ]
    lines += constants_set(tilings, slice_k, operand_bytes, max_split, fixed, beta, tau_divided,
                           gamma, alpha=alpha, gamma_sectors=gamma_sectors)
    lines += list(more)
    lines += [
        "",
        f"}}  // namespace ladder::{namespace}",
        "",
    ]
    return "\n".join(lines)


def list_shapes(name):
    with open(os.path.join(HERE, name), newline="") as f:
        return [(int(r["m"]), int(r["n"]), int(r["k"])) for r in csv.DictReader(f)]


def picks_text(model):
    """model_picks.csv: on the H200's counts, each listed shape's pick and its predicted time, with
    the DRAM rate the prediction took (the record's cudaMemcpy rate, which a rerun moves) and the
    L2's size."""
    rows = ["m,n,k,pick,predicted_us,bytes_per_us,l2_bytes"]
    seen = set()
    for name in PICK_LISTS:
        for m, n, k in list_shapes(name):
            if (m, n, k) in seen:
                continue
            seen.add((m, n, k))
            picked = pick(model, m, n, k)
            rows.append(f"{m},{n},{k},{picked},{model.predict(*VARIANTS[picked], m, n, k):.6f},"
                        f"{model.gpu.bytes_per_us:.3f},{model.gpu.l2_bytes}")
    return "\n".join(rows) + "\n"


def stream_reads_text(gpu):
    """model_stream_reads.csv: stream_reads' bytes for each Stream-K tiling of stages 21 (BF16,
    slices of 64) and 22 (FP8, slices of 128) on every listed shape and STREAM_READS_SHAPES, on
    the H200's counts, which a host test holds the C++ model to."""
    rows = ["stage,m,n,k,block_n,cluster,bytes"]
    shapes = []
    for name in PICK_LISTS:
        shapes += [shape for shape in list_shapes(name) if shape not in shapes]
    shapes += [shape for shape in STREAM_READS_SHAPES if shape not in shapes]
    import fp8_model  # it imports this module: here, not at the top
    streamed = [tiling for tiling, scheme in VARIANTS.values() if scheme == "stream"]
    streamed_fp8 = [tiling for tiling, schemes in fp8_model.DIVIDED.items() if "stream" in schemes]
    for stage, tilings, slice_k, operand_bytes in ((21, streamed, SLICE_K, 2),
                                                   (22, streamed_fp8, fp8_model.SLICE_K, 1)):
        for m, n, k in shapes:
            for tiling in tilings:
                read = stream_reads(gpu, tiling, m, n, k, slice_k, operand_bytes)
                if read is not None:
                    _, bn, c = TILINGS[tiling]
                    rows.append(f"{stage},{m},{n},{k},{bn},{c},{read:.3f}")
    return "\n".join(rows) + "\n"


def explain(model, m, n, k):
    """Every candidate's counts, its compute and memory sides (without the launch) and its
    predicted time for one shape, fastest first: a table."""
    lines = [f"**{m} x {n} x {k}** on {model.gpu.sms} SMs ({model.gpu.sms // 2} pairs), L = "
             f"{cdiv(k, SLICE_K)} slices of 64:", "",
             "| candidate | tiling | T | S | P | Q | compute (us) | memory (us) | predicted (us) |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    rows = []
    for name, (tiling, scheme) in VARIANTS.items():
        (slices, tile_count, partials), _ = work(model.gpu, tiling, scheme, m, n, k, model.most)
        compute, memory = model.sides(tiling, scheme, m, n, k)
        rows.append((model.predict(tiling, scheme, m, n, k), name, tiling, tiles(tiling, m, n),
                     slices, tile_count, partials, compute, memory))
    for us, name, tiling, t, slices, tile_count, partials, compute, memory in sorted(rows):
        lines.append(f"| `{name}` | {tiling} | {t} | {slices} | {tile_count} | {partials} | "
                     f"{compute:.1f} | {memory:.1f} | {us:.1f} |")
    return "\n".join(lines)


def worked_text(model):
    """model_worked.md: the page's worked shapes, every candidate, on the H200's counts."""
    head = ("<!-- written by scripts/stream_k_model.py --write -->\n"
            "# Stage 21's model on the page's shapes\n\n"
            "Every candidate's counts for the slowest cluster (T cluster tiles, S slices, P tiles, "
            "Q partial\ntiles), its compute and memory sides without the launch, and predicted "
            "microseconds on\nthe H200's counts, fastest first.\n"
            "`python3 scripts/stream_k_model.py --explain M N K` prints the same for any "
            "shape.\n\n")
    return head + "\n\n".join(explain(model, *shape) for shape in WORKED_SHAPES) + "\n"


def number(x):
    """A value as the page's tables print it: a whole number with thousands' commas, else up to
    four decimals."""
    if float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.4f}".rstrip("0").rstrip(".")


def copy_share_of_peak():
    """by_shape's DRAM rate as a share of the peak the driver reports (tile_model.cpp)."""
    with open(TILE_MODEL) as f:
        found = re.search(r"kCopyShareOfPeak = ([0-9.]+);", f.read())
    if found is None:
        raise SystemExit(f"stream_k_model.py: {os.path.relpath(TILE_MODEL, REPO)}: no "
                         "kCopyShareOfPeak")
    return float(found.group(1))


def symbols_table(model):
    """MODEL.md's 'model symbols': every symbol, its value on the H200's counts, what it is."""
    gpu, (rho, split, stream, launch) = model.gpu, model.params[-4:]
    rows = [
        ("SMs", f"{gpu.sms}", "streaming multiprocessors, from the driver"),
        ("c", "1 or 2", "blocks a cluster; a pair loads B's slice once for both"),
        ("R", f"{gpu.sms} (c = 1), {gpu.sms // 2} (c = 2)", "clusters at once: SMs, or pairs"),
        ("BM x BN", "128 x 256, 192, 128 or 64; 64 x 256 or 128", "a block's tile of C"),
        ("T", "ceil(ceil(M / BM) / c) x ceil(N / BN)", "cluster tiles"),
        ("L", f"ceil(K / {SLICE_K})", f"slices a tile, {SLICE_K} values of K each"),
        ("s", f"min(floor(R / (T mod R)), {MAX_SPLIT}, L)", "split-K's ranges a tile"),
        ("S, P, Q", "section D's list; Q below", "the slowest cluster's slices, tiles started, "
         "partial tiles"),
        ("KB", "(BM + BN / c) x 128 / 1024", "KB a block reads a slice: BM rows of A, BN / c of B "
         f"(a pair multicasts B), each row {SLICE_K} values x 2 bytes = 128"),
        ("active, busy", "divided: R x c; whole: min(ceil(M / BM) x ceil(N / BN), R x c); "
         "busy = active / SMs", "SMs at work (a dividing launch's idle ones too; c is 1 for a "
         "pair over one tile row), and their share"),
        ("clock", f"{FIT_CLOCK_MHZ} MHz", "the fit's SM clock; compute scales by "
         f"{FIT_CLOCK_MHZ} / the GPU's"),
        ("tau, phi", "per tiling, below", "a slice's time; a tile's fixed cost"),
        ("gamma", f"{model.gamma():.6f} us", "a slice's extra per KB read, every SM busy"),
        ("tau_divided", f"{model.tau_divided():.6f} us", "a divided kernel's extra a slice"
         + ("" if model.tau_divided() else ": not in this fit (stage 22's has one)")),
        ("rho", f"{rho:.6f} us", "a 128 x 256 partial tile saved or read"),
        ("sigma_split, sigma_stream", f"{split:.6f}, {stream:.6f} us",
         "a split-K launch's extra; a Stream-K launch's"),
        ("lambda", f"{launch:.6f} us", "the launch"),
        ("beta", f"{number(model.beta)} bytes/us", "one busy SM's draw from DRAM: the best of "
         f"those the fit tried, {BETAS[0]} to {BETAS[-1]} GB/s"),
        ("alpha", f"{model.alpha}", "the shorter side's share that the longer does not hide; "
         f"fitted with beta, from {ALPHAS[0]} to {ALPHAS[-1]}"),
        ("BW", f"{number(gpu.bytes_per_us)} bytes/us", "cudaMemcpy's rate in the record, the "
         f"fit's; by_shape on a GPU takes {100 * copy_share_of_peak():.1f}% of the driver's DRAM "
         "peak"),
        ("L2", f"{number(gpu.l2_bytes)} bytes", "the L2 cache's size"),
        ("a cluster's bytes a slice", f"(BM x c + BN) x {SLICE_K} x 2",
         "c blocks' rows of A, B's rows once"),
        ("H", "L2 / (R x a cluster's bytes a slice)", "slice-times the L2 holds a slice"),
    ]
    lines = ["| symbol | value | what it is |", "|---|---|---|"]
    lines += [f"| {symbol} | {value} | {meaning} |" for symbol, value, meaning in rows]
    return "\n".join(lines)


def tilings_table(model):
    """MODEL.md's 'model tilings': each tiling's R, fitted tau and phi, KB and (where Stream-K
    runs on it) H."""
    lines = ["| tiling | R | tau (us) | phi (us) | KB | H | variants |",
             "|---|---:|---:|---:|---:|---:|---|"]
    for i, name in enumerate(NAMES):
        schemes = [scheme for tiling, scheme in VARIANTS.values() if tiling == name]
        hold = f"{l2_hold(model.gpu, name):.1f}" if "stream" in schemes else "-"
        lines.append(f"| {name} | {model.gpu.resident(name)} | {model.params[2 * i]:.6f} | "
                     f"{model.params[2 * i + 1]:.6f} | {number(read_kb(name))} | {hold} | "
                     f"{', '.join('_' + scheme for scheme in schemes)} |")
    return "\n".join(lines)


def chain_table():
    """MODEL.md's 'model chain': tree_transfers for every number of ranges up to MAX_SPLIT, runs of
    equal values together, each run's h and its value by the closed form."""
    runs = []
    for ways in range(2, MAX_SPLIT + 1):
        q = tree_transfers(ways)
        if q != tree_chain(ways):
            raise SystemExit(f"stream_k_model.py: tree_chain({ways}) is not tree_transfers ({q})")
        if runs and runs[-1][2] == q:
            runs[-1][1] = ways
        else:
            runs.append([ways, ways, q])
    cells = [(f"{a}" if a == b else f"{a}-{b}", tree_levels(b), q) for a, b, q in runs]
    return "\n".join([
        "| s | " + " | ".join(ways for ways, _, _ in cells) + " |",
        "|---|" + "---:|" * len(cells),
        "| h | " + " | ".join(f"{h}" for _, h, _ in cells) + " |",
        "| Q | " + " | ".join(f"{q}" for _, _, q in cells) + " |"])


def by_hand(model, name, m, n, k):
    """MODEL.md's worked shape: one variant's every factor, its formula with the shape's
    numbers, and its value, as predict() takes them; raises if the sum is not predict()'s."""
    tiling, scheme = VARIANTS[name]
    bm, bn, c = TILINGS[tiling]
    gpu, i = model.gpu, NAMES.index(tiling)
    r, rows, cols = gpu.resident(tiling), cdiv(cdiv(m, bm), c), cdiv(n, bn)
    t, slices = rows * cols, cdiv(k, SLICE_K)
    (s, p, q), divided = work(gpu, tiling, scheme, m, n, k, model.most)
    lines = ["| factor | formula, with this shape's numbers | value |", "|---|---|---:|"]

    def row(factor, formula, value):
        lines.append(f"| {factor} | {formula} | {value} |")

    row("T", f"ceil(ceil({m} / {bm}) / {c}) x ceil({n} / {bn}) = {rows} x {cols}", t)
    row("L", f"ceil({k} / {SLICE_K})", slices)
    if divided and scheme == "split":
        ways = split_ways(t, r, slices, model.most)
        h = tree_levels(ways)
        row("s", f"min(floor({r} / ({t} mod {r})), {model.most}, {slices})", ways)
        row("S", f"floor({t} / {r}) x {slices} + ceil({slices} / {ways})", s)
        row("P", f"floor({t} / {r}) + 1", p)
        row("Q", f"4h + ceil(s / 4^h) - 1 = 4 x {h} + ceil({ways} / {4 ** h}) - 1", q)
    elif divided:
        before, run, extra = stream_division(t, r, slices)
        share = run + (extra > 0)
        row("W, tiles whole", f"max(0, floor({t} / {r}) - 1) x {r}", before)
        row("share, the longest run", f"ceil(({t} - {before}) x {slices} / {r})", share)
        row("S", f"{before} / {r} x {slices} + {share}", s)
        row("P", f"{before} / {r} + ceil({share} / {slices}) + 1", p)
        row("Q", f"ceil(({slices} - 1) / floor(({t} - {before}) x {slices} / {r}))", q)
    else:
        row("S", f"ceil({t} / {r}) x {slices}", s)
        row("P", f"ceil({t} / {r})", p)
        row("Q", "nothing divided", q)
    kb = read_kb(tiling)
    row("KB", f"({bm} + {bn} / {c}) x 128 / 1024", number(kb))
    active = model.active_sms(tiling, divided, m, n)
    per = 1 if (c == 2 and cdiv(m, bm) == 1) else c
    if divided:
        row("active", f"every block: {r} x {per}", active)
    else:
        row("active", f"min({cdiv(m, bm)} x {cols} tiles, {r} x {per})", active)
    busy = active / gpu.sms
    busy_text = "1" if active == gpu.sms else f"{active} / {gpu.sms}"
    tau, phi = model.params[2 * i], model.params[2 * i + 1]
    extra = model.tau_divided() if divided else 0.0
    slice_us = tau + extra + model.gamma() * kb * busy
    row("a slice", f"tau {tau:.6f} + "
        + (f"tau_divided {extra:.6f} + " if extra else "")
        + f"gamma {model.gamma():.6f} x {number(kb)} x {busy_text}",
        f"{slice_us:.6f} us")
    rho, sigma_split, sigma_stream, launch = model.params[-4:]
    sigma = 0.0 if not divided else sigma_split if scheme == "split" else sigma_stream
    terms = [slice_us * s, phi * p, rho * q * bm * bn / (128 * 256), sigma]
    row("slices", f"{slice_us:.6f} x S {s}", f"{terms[0]:.3f}")
    row("tiles", f"phi {phi:.6f} x P {p}", f"{terms[1]:.3f}")
    if q:  # whole tiles read no partial tile and pay no sigma: their rows would be 0
        row("partial tiles", f"rho {rho:.6f} x Q {q} x {bm} x {bn} / (128 x 256)",
            f"{terms[2]:.3f}")
    if divided:
        row("extra", f"sigma_{scheme} {sigma:.6f}", f"{terms[3]:.3f}")
    compute = math.fsum(terms)
    shown = terms[:2] + ([terms[2]] if q else []) + ([terms[3]] if divided else [])
    row("**compute**", "(" + " + ".join(f"{term:.3f}" for term in shown) + ") x 1",
        f"**{compute:.3f} us**")
    least = 2 * (m * k + k * n)
    reads = stream_reads(gpu, tiling, m, n, k) if divided and scheme == "stream" else None
    row("least reads", f"2 (MK + KN) = 2 x ({m} x {k} + {k} x {n})", f"{least:,}")
    if reads is None:
        reads = least
    else:
        row("H",
            f"{number(gpu.l2_bytes)} / ({r} x ({bm} x {c} + {bn}) x {SLICE_K} x 2)",
            f"{l2_hold(gpu, tiling):.1f}")
        row("reads", f"`stream_reads`' walk: {reads / least:.2f} x the least", f"{reads:,.0f}")
    row("C", f"4 MN = 4 x {m} x {n}", f"{4 * m * n:,}")
    draw = min(gpu.bytes_per_us, active * model.beta)
    row("rate (bytes/us)",
        f"min(BW {number(gpu.bytes_per_us)}, {active} x beta {number(model.beta)})", number(draw))
    memory = (reads + 4 * m * n) / draw
    row("**memory**", f"({reads:,.0f} + {4 * m * n:,}) / {number(draw)}",
        f"**{memory:.3f} us**")
    predicted = max(compute, memory) + model.alpha * min(compute, memory) + launch
    if not math.isclose(predicted, model.predict(tiling, scheme, m, n, k), rel_tol=1e-12):
        raise SystemExit(f"stream_k_model.py: {name} on {m} x {n} x {k} worked by hand gives "
                         f"{predicted}, not predict()'s {model.predict(tiling, scheme, m, n, k)}")
    row("**predicted**", f"max({compute:.3f}, {memory:.3f}) + alpha {model.alpha} x "
        f"min({compute:.3f}, {memory:.3f}) + lambda {launch:.3f}", f"**{predicted:.1f} us**")
    us, gpu_name, path = measured(name, m, n, k)
    row("measured", f"median, {gpu_name}, `{os.path.relpath(path, REPO)}`", f"{us:.1f} us")
    return "\n".join(lines)


def measured(name, m, n, k):
    """A variant's median on one shape in the first of the committed runs (MEASURED_LISTS) that
    holds it, in microseconds, with the GPU the run names and the run's path."""
    problem = f"A {m}x{k} * B {k}x{n}"
    for listed in MEASURED_LISTS:
        path = os.path.join(RESULTS, listed)
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r["problem"] == problem and r["variant"].split(",")[0] == name:
                    return float(r["median_ms"]) * 1e3, r["device"].split(" (")[0], path
    raise SystemExit(f"stream_k_model.py: no committed run times {name} on {m} x {n} x {k}")


def page_sections(model):
    """{name: text} of MODEL.md's generated sections."""
    out = {"model symbols": symbols_table(model), "model tilings": tilings_table(model),
           "model chain": chain_table()}
    for name, m, n, k in BY_HAND:
        out[f"model by hand {m}x{n}x{k}"] = by_hand(model, name, m, n, k)
    return out


def page_text(path, wanted):
    """The page at `path` with each generated section holding wanted[NAME] (figures.py's
    markers and filling, in the page's own line endings); exits where the page lacks a
    section's markers or has markers of another."""
    where = os.path.relpath(path, REPO)
    if not os.path.exists(path):
        raise SystemExit(f"stream_k_model.py: no {where}")
    with open(path, newline="") as f:
        old = f.read()
    try:
        return filled(old, wanted, where)
    except ladder.MissingInput as missing:
        raise SystemExit(f"stream_k_model.py: {missing}") from None


def write_or_check(files, write, script):
    """Writes each (path, text), or with write False checks that each file holds its text:
    False, with the stale files named on stderr, where one does not."""
    stale = []
    for path, text in files:
        if write:
            with open(path, "w", newline="") as f:
                f.write(text)
        elif not os.path.exists(path) or open(path, newline="").read() != text:
            stale.append(os.path.relpath(path, REPO))
    if stale:
        print(f"{script}: {', '.join(stale)} differ from the fit; run --write", file=sys.stderr)
    return not stale


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fit", nargs="+", default=[os.path.join(FIT_RUNS, f) for f in FIT_LISTS],
                        help="runs to fit on (default: results/21_gpu_stream_k/model_fit/)")
    parser.add_argument("--check", nargs="+",
                        default=[os.path.join(RESULTS, f) for f in CHECK_LISTS
                                 if os.path.exists(os.path.join(RESULTS, f))],
                        help="runs to check on (default: every list's latest run)")
    parser.add_argument("--write", action="store_true",
                        help="write model_constants.hpp and model_picks.csv")
    parser.add_argument("--check-written", action="store_true",
                        help="exit 1 if a file --write writes differs")
    parser.add_argument("--without-gamma", action="store_true",
                        help="the ablation: fit and check the model without gamma (no --write)")
    parser.add_argument("--without-stream-reads", action="store_true",
                        help="the ablation: Stream-K's operands priced as the least a product "
                             "reads (no --write)")
    parser.add_argument("--without-alpha", action="store_true",
                        help="the ablation: alpha 0, the time the longer of compute and memory "
                             "(no --write)")
    parser.add_argument("--cross-validate", action="store_true",
                        help="fit on all fit lists but one, check on that one, each in turn")
    parser.add_argument("--explain", nargs=3, type=int, metavar=("M", "N", "K"),
                        help="print every candidate's counts and predicted time for one shape")
    options = parser.parse_args()
    gpu = record_gpu()
    runs = {path: read_run(path) for path in options.fit + options.check}
    if options.cross_validate:
        print(cross_validate(gpu, {os.path.basename(p): runs[p] for p in options.fit},
                             {os.path.basename(p): runs[p] for p in options.check}))
        return 0
    ablation = options.without_gamma or options.without_stream_reads or options.without_alpha
    if ablation and (options.write or options.check_written):
        parser.error("an ablation fits a model the stage does not run: no --write")
    model, samples = fitted(gpu, [runs[p] for p in options.fit], MAX_SPLIT,
                            busy_reads=not options.without_gamma,
                            stream_reuse=not options.without_stream_reads,
                            alphas=(0.0,) if options.without_alpha else ALPHAS)
    model.params = [round(p, 6) for p in model.params]  # as the header writes them
    if options.write or options.check_written:
        files = ((HEADER, header_text(model)), (PICKS, picks_text(model)),
                 (STREAM_READS, stream_reads_text(model.gpu)),
                 (WORKED, worked_text(model)),
                 (MODEL_PAGE, page_text(MODEL_PAGE, page_sections(model))))
        if not write_or_check(files, options.write, "stream_k_model.py"):
            return 1
    if options.explain:
        print(explain(model, *options.explain))
        return 0
    print(f"GPU: {gpu.sms} SMs, B = {gpu.bytes_per_us / 1e3:.0f} GB/s (cudaMemcpy, "
          f"{os.path.relpath(RECORD, REPO)}); beta = {model.beta / 1e3:.0f} GB/s per SM, "
          f"alpha = {model.alpha}")
    print(f"Fitted on {len(samples)} rows; rms log error {model.error(samples):.3f}")
    for i, name in enumerate(NAMES):
        print(f"  {name}: tau {model.params[2 * i]:.3f} us a slice, phi "
              f"{model.params[2 * i + 1]:.2f} us a tile")
    print(f"  gamma {model.gamma():.5f} us a slice per KB read, every SM busy; tau_divided "
          f"{model.tau_divided():.4f} us a divided kernel's slice")
    rho, split, stream, launch = model.params[-4:]
    print(f"  rho {rho:.2f} us a partial tile, sigma {split:.2f} us (split-K), {stream:.2f} us "
          f"(Stream-K), lambda {launch:.2f} us")
    for path in options.check:
        print(f"Checked on {os.path.basename(path)}: rms log error "
              f"{model.error(samples_of(gpu, [runs[path]])):.3f}")
    for path in options.check:
        print(check(model, runs[path], os.path.basename(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
