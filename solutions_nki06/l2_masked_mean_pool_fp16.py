import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def masked_mean_pool_kernel(x, mask):
    """sum_s(x[b, s] * mask[b, s]) / max(sum_s mask[b, s], 1) for fp16 x [B, S, D], int32 mask [B, S].

    The reduction runs over the sequence, which is the partition axis of a [S, D] tile, so it
    is a matmul: the mask column (0/1, exact in fp16) is the stationary operand, the token
    block the moving one, and 128-token blocks (plus a static ragged block) accumulate in
    PSUM; a second matmul with a ones column counts the unmasked tokens.
    """
    B, S, D = x.shape
    P = nl.tile_size.pmax
    out = nl.ndarray((B, D), dtype=x.dtype, buffer=nl.shared_hbm)
    m_col = mask.reshape((B, S, 1))
    ones = nl.ones((P, 1), dtype=x.dtype, buffer=nl.sbuf)

    for b in nl.affine_range(B):
        acc = nl.zeros((1, D), nl.float32, buffer=nl.psum)
        cnt = nl.zeros((1, 1), nl.float32, buffer=nl.psum)
        for s0 in nl.static_range(0, S, P):
            rows = min(P, S - s0)
            m = nl.load(m_col[b, s0:s0 + rows, 0:1], dtype=x.dtype)
            xb = nl.load(x[b, s0:s0 + rows, 0:D])
            nisa.nc_matmul(acc, m, xb, accumulate=True)
            nisa.nc_matmul(cnt, m, ones[0:rows, 0:1], accumulate=True)
        inv = nl.reciprocal(nl.maximum(cnt, 1.0))
        res = nl.ndarray(acc.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(res, data=acc, op0=nl.multiply, operand0=inv)
        nl.store(out[b:b + 1, 0:D], value=res)
    return out
