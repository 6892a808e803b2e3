import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def ema_scan_kernel(x, decay):
    """y[b, c, t] = a_c * y[b, c, t-1] + (1 - a_c) * x[b, c, t], y[..., -1] = 0, a = sigmoid(decay).

    x [B, C, T] with C <= 128: channels on partitions, time along the free dim, and the
    whole recurrence is one tensor_tensor_scan per batch element.
    """
    B, C, T = x.shape
    out = nl.ndarray((B, C, T), dtype=x.dtype, buffer=nl.shared_hbm)

    d_sb = nl.load(decay.reshape((C, 1)))
    a = nl.sigmoid(d_sb, dtype=nl.float32)                               # [C, 1]
    one_minus_a = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar(one_minus_a, data=a, op0=nl.multiply, operand0=-1.0, op1=nl.add, operand1=1.0)
    a_b = nl.broadcast_to(a, shape=(C, T))

    for b in nl.affine_range(B):
        x_sb = nl.load(x[b, 0:C, 0:T])
        u = nl.ndarray(x_sb.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(u, data=x_sb, op0=nl.multiply, operand0=one_minus_a)
        y = nl.ndarray(a_b.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.tensor_tensor_scan(y, a_b, u, initial=0.0, op0=nl.multiply, op1=nl.add)
        nl.store(out[b, 0:C, 0:T], value=y)
    return out
