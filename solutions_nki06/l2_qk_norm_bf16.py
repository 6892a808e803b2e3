import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


EPS = 1e-6


@nki.jit
def qk_norm_kernel(q, k, q_norm_weight, k_norm_weight):
    """Per-head RMSNorm over the last axis of bfloat16 q [B, S, Hq, D] and k [B, S, Hk, D].

    Every (token, head) pair is one row of D values: q and k are viewed as [rows, D] and
    normalised 128 rows at a time (rows on partitions, D along the free axis, statistics in
    float32, the gain row broadcast across partitions).
    """
    D = q.shape[3]
    P = nl.tile_size.pmax
    q_out = nl.ndarray(q.shape, dtype=q.dtype, buffer=nl.shared_hbm)
    k_out = nl.ndarray(k.shape, dtype=k.dtype, buffer=nl.shared_hbm)
    for src, dst, wt in ((q, q_out, q_norm_weight), (k, k_out, k_norm_weight)):
        rows = src.shape[0] * src.shape[1] * src.shape[2]
        sv = src.reshape((rows, D))
        dv = dst.reshape((rows, D))
        g = nl.broadcast_to(nl.load(wt.reshape((1, D)), dtype=nl.float32), shape=(P, D))
        for i in nl.affine_range(rows // P):
            t = nl.load(sv[i * P:(i + 1) * P, 0:D], dtype=nl.float32)
            ms = nl.multiply(nl.sum(nl.square(t), axis=[1], keepdims=True), 1.0 / D)
            rstd = nl.rsqrt(nl.add(ms, EPS))
            y = nl.ndarray(t.shape, dtype=dst.dtype, buffer=nl.sbuf)
            nisa.scalar_tensor_tensor(y, data=t, op0=nl.multiply, operand0=rstd, op1=nl.multiply, operand1=g)
            nl.store(dv[i * P:(i + 1) * P, 0:D], value=y)
    return q_out, k_out
