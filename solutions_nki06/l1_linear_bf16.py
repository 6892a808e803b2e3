import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def linear_kernel(x, weight, bias):
    """out = x @ weight.T + bias for bfloat16 x [256, 384], weight [320, 384], bias [320].

    Both operands need the contraction axis (in_features) on partitions, so they are read with
    transposing DMA loads: x blocks become [128 (k), 128 (m)] stationary tiles and weight blocks
    [128 (k), 320 (n)] moving tiles. The bias is added while evacuating PSUM.
    """
    M, K = x.shape
    N, _ = weight.shape
    out = nl.ndarray((M, N), dtype=x.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    bias_tile = nl.load(bias.reshape((1, N))[0:1, 0:N]).broadcast_to((P, N))
    for m in nl.affine_range(M // P):
        acc = nl.zeros((P, N), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(K // P):
            x_t = nl.load_transpose2d(x[m * P:(m + 1) * P, k * P:(k + 1) * P])
            w_t = nl.load_transpose2d(weight[0:N, k * P:(k + 1) * P])
            nisa.nc_matmul(acc, x_t, w_t, accumulate=True)
        y_tile = nl.add(acc, bias_tile, dtype=x.dtype)
        nl.store(out[m * P:(m + 1) * P, 0:N], value=y_tile)
    return out
