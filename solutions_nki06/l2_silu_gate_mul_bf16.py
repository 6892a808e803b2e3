import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def silu_gate_mul_kernel(x, y):
    """x * sigmoid(x) * y on bf16 [R, F]: SiLU on the Scalar Engine, product on the Vector Engine."""
    R, F = x.shape
    P = nl.tile_size.pmax
    n_r = R // P
    out = nl.ndarray((R, F), dtype=x.dtype, buffer=nl.shared_hbm)

    for i in nl.affine_range(n_r):
        x_sb = nl.load(x[i * P:(i + 1) * P, 0:F])
        y_sb = nl.load(y[i * P:(i + 1) * P, 0:F])
        act = nl.ndarray(x_sb.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(act, op=nl.silu, data=x_sb)
        res = nl.multiply(act, y_sb, dtype=out.dtype)
        nl.store(out[i * P:(i + 1) * P, 0:F], value=res)
    return out
