# nki-case: args=128x1024:float32
# Per-row mean/variance with a single bn_stats over 1024 elements.
# bn_stats accepts at most 512 free elements (nl.tile_size.bn_stats_fmax).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def row_moments(x):
    res = nl.ndarray((128, 2), dtype=nl.float32, buffer=nl.shared_hbm)
    xt = nl.load(x)
    stats = nisa.bn_stats(xt, dtype=nl.float32)  # expect-error: bn_stats_fmax  # expect-col: 13
    moments = nisa.bn_aggr(stats, dtype=nl.float32)
    nl.store(res, value=moments)
    return res
