# nki-case: args=128x1024:float32
# Per-row mean/variance with a single bn_stats over 1024 elements.
# Fix: run bn_stats on two 512-wide halves and aggregate the six-value groups with bn_aggr.
# expect-output: np.stack([in0.mean(axis=1), in0.var(axis=1)], axis=1)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def row_moments(x):
    res = nl.ndarray((128, 2), dtype=nl.float32, buffer=nl.shared_hbm)
    xt = nl.load(x)
    stats = nl.ndarray((128, 12), dtype=nl.float32, buffer=nl.sbuf)
    for h in nl.affine_range(2):
        stats[:, h * 6:(h + 1) * 6] = nisa.bn_stats(xt[:, h * 512:(h + 1) * 512], dtype=nl.float32)
    moments = nisa.bn_aggr(stats, dtype=nl.float32)
    nl.store(res, value=moments)
    return res
