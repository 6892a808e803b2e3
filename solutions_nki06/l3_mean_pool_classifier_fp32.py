import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def mean_pool_classifier_kernel(x, weight, bias):
    """(pooled @ W^T + b, pooled) with pooled = x.mean(dim=1), x [B, T, D]; T a multiple of
    128, D <= 128, B <= 128, classes <= 512.

    The sequence reduction runs on TensorE: with a 128-step time block on partitions as the
    stationary operand and a column of 1/T as the moving one, nc_matmul sums over the
    partition (time) axis and yields pooled^T[:, b] as a [D, 1] column, accumulated in PSUM
    over the time blocks.  pooled^T [D, B] is then directly the stationary operand of the
    head matmul (contraction over D), and a PE transpose gives pooled [B, D] for the store.
    """
    B, T, D = x.shape
    NC = weight.shape[0]
    P = nl.tile_size.pmax
    n_t = T // P
    logits = nl.ndarray((B, NC), dtype=x.dtype, buffer=nl.shared_hbm)
    pooled = nl.ndarray((B, D), dtype=x.dtype, buffer=nl.shared_hbm)

    inv_t = nl.full((P, 1), 1.0 / T, dtype=nl.float32, buffer=nl.sbuf)
    pooled_t = nl.ndarray((D, B), dtype=nl.float32, buffer=nl.sbuf)
    for b in nl.affine_range(B):
        acc = nl.zeros((D, 1), nl.float32, buffer=nl.psum)
        for j in nl.affine_range(n_t):
            x_blk = nl.load(x[b, j * P:(j + 1) * P, 0:D])               # [128 steps, D]
            nisa.nc_matmul(acc, x_blk, inv_t, accumulate=True)
        pooled_t[:, b:b + 1] = nl.copy(acc)

    w_t = nl.load_transpose2d(weight[0:NC, 0:D])                        # [D, NC]
    bias_b = nl.broadcast_to(nl.load(bias.reshape((1, NC))), shape=(B, NC))
    lg = nl.ndarray((pooled_t.shape[1], w_t.shape[1]), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_matmul(lg, pooled_t, w_t)                                  # [B, NC]
    nl.store(logits, value=nl.add(lg, bias_b, dtype=logits.dtype))
    nc_transpose_out = nl.ndarray((pooled_t.shape[1], pooled_t.shape[0]), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_transpose(nc_transpose_out, pooled_t)
    nl.store(pooled, value=nl.copy(nc_transpose_out, dtype=pooled.dtype))
    return logits, pooled
