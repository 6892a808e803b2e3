import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def max_argmax_dim1_kernel(x):
    """(max, argmax) over dim 1 of float32 x [B, S, D], 8 <= S, D a multiple of 128.

    Features go on partitions and the reduced sequence axis on the free axis (transposed
    DMA loads of 128-row pieces, ragged last piece).  max8 returns the largest values of
    each partition in descending order and nc_find_index8 their first positions; the
    first of the eight is the answer (inputs are continuous, so ties do not occur).
    """
    B, S, D = x.shape
    P = nl.tile_size.pmax
    v_out = nl.ndarray((B, D), dtype=x.dtype, buffer=nl.shared_hbm)
    i_out = nl.ndarray((B, D), dtype=nl.int32, buffer=nl.shared_hbm)
    v_col = v_out.reshape((B, D, 1))
    i_col = i_out.reshape((B, D, 1))
    for b in nl.affine_range(B):
        for d in nl.affine_range(D // P):
            xt = nl.ndarray((P, S), dtype=x.dtype, buffer=nl.sbuf)
            for s0 in nl.static_range(0, S, P):
                rows = min(P, S - s0)
                xt[:, s0:s0 + rows] = nl.load_transpose2d(x[b, s0:s0 + rows, d * P:(d + 1) * P])
            top = nl.ndarray((128, 8), dtype=nl.float32, buffer=nl.sbuf)
            nisa.max8(top, src=xt)                                          # [P, 8], descending
            idx = nl.ndarray((128, 8), dtype=nl.uint32, buffer=nl.sbuf)
            nisa.nc_find_index8(idx, data=xt, vals=top)                     # [P, 8] uint32
            nl.store(v_col[b, d * P:(d + 1) * P, 0:1], value=top[:, 0:1])
            nl.store(i_col[b, d * P:(d + 1) * P, 0:1], value=nl.copy(idx[:, 0:1], dtype=nl.int32))
    return v_out, i_out
