# nki-case: args=128x128:float32,128x128:float32
# Causal attention scores: masks q.T @ k with affine_select directly on the PSUM scores.
# Error: affine_select runs on the GpSimd Engine, which cannot access PSUM.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def causal_scores(q, k):
    res = nl.ndarray((128, 128), dtype=q.dtype, buffer=nl.shared_hbm)
    ps = nisa.nc_matmul(nl.load(q), nl.load(k))
    i, j = nl.mgrid[0:128, 0:128]
    masked = nisa.affine_select(j <= i, ps, -9984.0)  # expect-error: err_unsupported_memory  # expect-col: 14
    nl.store(res, value=masked)
    return res
