import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def reverse_cumsum_kernel(x):
    """Suffix sums along the last dim of float32 x [R, L], R a multiple of 128.

    One forward scan per row block (tensor_tensor_scan: c_t = 1 * c_{t-1} + x_t) gives the
    prefix sums c; the suffix sum is total - c_t + x_t with total = c_{L-1}.
    """
    R, L = x.shape
    P = nl.tile_size.pmax
    out = nl.ndarray((R, L), dtype=x.dtype, buffer=nl.shared_hbm)
    ones = nl.ones((P, L), dtype=nl.float32, buffer=nl.sbuf)
    for i in nl.affine_range(R // P):
        t = nl.load(x[i * P:(i + 1) * P, 0:L])
        c = nl.ndarray(ones.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_tensor_scan(c, ones, t, initial=0.0, op0=nl.multiply, op1=nl.add)
        d = nl.subtract(t, c)
        res = nl.ndarray(d.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(res, data=d, op0=nl.add, operand0=c[:, L - 1:L])
        nl.store(out[i * P:(i + 1) * P, 0:L], value=res)
    return out
