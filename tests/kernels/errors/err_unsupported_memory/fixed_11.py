# nki-case: args=128x128:float32,128x128:float32
# Causal attention scores: masks q.T @ k with affine_select directly on the PSUM scores.
# Fix: copy the scores to SBUF, then apply the mask.
# expect-output: np.where(np.tril(np.ones((128, 128))) > 0, in0.T @ in1, -9984.0)
# expect-tol: rtol=1e-3 atol=1e-3
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def causal_scores(q, k):
    res = nl.ndarray((128, 128), dtype=q.dtype, buffer=nl.shared_hbm)
    ps = nisa.nc_matmul(nl.load(q), nl.load(k))
    i, j = nl.mgrid[0:128, 0:128]
    masked = nisa.affine_select(j <= i, nl.copy(ps), -9984.0)
    nl.store(res, value=masked)
    return res
