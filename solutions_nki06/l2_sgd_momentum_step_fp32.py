import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

LR = 0.1
MOMENTUM = 0.9
WEIGHT_DECAY = 0.01


@nki.jit
def sgd_momentum_step_kernel(param, grad, momentum_buf):
    """buf' = MOMENTUM * buf + (grad + WEIGHT_DECAY * param); param' = param - LR * buf'.

    Purely element-wise: rows on partitions in blocks of 128, both results from one pass;
    each update is one fused two-operator Vector instruction.
    """
    R, F = param.shape
    P = nl.tile_size.pmax
    p_out = nl.ndarray((R, F), dtype=param.dtype, buffer=nl.shared_hbm)
    b_out = nl.ndarray((R, F), dtype=param.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(R // P):
        p = nl.load(param[i * P:(i + 1) * P, 0:F])
        g = nl.load(grad[i * P:(i + 1) * P, 0:F])
        m = nl.load(momentum_buf[i * P:(i + 1) * P, 0:F])
        d = nl.ndarray(p.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.scalar_tensor_tensor(d, data=p, op0=nl.multiply, operand0=WEIGHT_DECAY, op1=nl.add, operand1=g)
        buf = nl.ndarray(m.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.scalar_tensor_tensor(buf, data=m, op0=nl.multiply, operand0=MOMENTUM, op1=nl.add, operand1=d)
        newp = nl.ndarray(buf.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.scalar_tensor_tensor(newp, data=buf, op0=nl.multiply, operand0=-LR, op1=nl.add, operand1=p)
        nl.store(b_out[i * P:(i + 1) * P, 0:F], value=buf)
        nl.store(p_out[i * P:(i + 1) * P, 0:F], value=newp)
    return p_out, b_out
