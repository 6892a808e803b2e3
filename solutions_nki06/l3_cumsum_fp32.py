import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def cumsum_lastdim_kernel(x):
    """Inclusive prefix sum over the last dim of fp32 x [R, F], R a multiple of 128.

    Rows sit on partitions and the scan runs along the free dim with tensor_tensor_scan:
    r[:, j] = (1 * r[:, j-1]) + x[:, j].  The row is processed in equal chunks of at most
    512 columns (F divisible by the chunk count); each chunk starts from the last column
    of the previous one, so the chunk loop is a sequential_range.
    """
    R, F = x.shape
    P = nl.tile_size.pmax
    n_r = R // P
    n_ch = (F + 511) // 512
    ch = F // n_ch
    out = nl.ndarray((R, F), dtype=x.dtype, buffer=nl.shared_hbm)

    ones = nl.ones((P, ch), dtype=nl.float32, buffer=nl.sbuf)
    for i in nl.affine_range(n_r):
        x_sb = nl.load(x[i * P:(i + 1) * P, 0:F])
        res = nl.ndarray((P, F), dtype=nl.float32, buffer=nl.sbuf)
        carry = nl.zeros((P, 1), dtype=nl.float32, buffer=nl.sbuf)
        for c in nl.sequential_range(n_ch):
            nisa.tensor_tensor_scan(res[:, c * ch:(c + 1) * ch], ones, x_sb[:, c * ch:(c + 1) * ch], initial=carry, op0=nl.multiply, op1=nl.add)
            carry[:, :] = res[:, (c + 1) * ch - 1:(c + 1) * ch]
        nl.store(out[i * P:(i + 1) * P, 0:F], value=nl.copy(res, dtype=out.dtype))
    return out
