import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

LR = 0.05
BETA1 = 0.9
BETA2 = 0.999
EPS = 1e-8
WEIGHT_DECAY = 0.01
STEP = 5
BC1 = 1.0 - BETA1 ** STEP
BC2 = 1.0 - BETA2 ** STEP


@nki.jit
def adamw_step_kernel(param, grad, exp_avg, exp_avg_sq):
    """One AdamW step (decoupled weight decay, bias-corrected, step STEP) -> (param, m, v).

    Element-wise over row blocks of 128.  The bias corrections are trace-time constants:
    denom = sqrt(v) / sqrt(BC2) + EPS and param -= (LR / BC1) * m / denom.
    """
    R, F = param.shape
    P = nl.tile_size.pmax
    p_out = nl.ndarray((R, F), dtype=param.dtype, buffer=nl.shared_hbm)
    m_out = nl.ndarray((R, F), dtype=param.dtype, buffer=nl.shared_hbm)
    v_out = nl.ndarray((R, F), dtype=param.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(R // P):
        p = nl.load(param[i * P:(i + 1) * P, 0:F])
        g = nl.load(grad[i * P:(i + 1) * P, 0:F])
        m = nl.load(exp_avg[i * P:(i + 1) * P, 0:F])
        v = nl.load(exp_avg_sq[i * P:(i + 1) * P, 0:F])
        m_new = nl.ndarray(m.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.scalar_tensor_tensor(m_new, data=m, op0=nl.multiply, operand0=BETA1 / (1.0 - BETA1), op1=nl.add, operand1=g)
        m_new = nl.multiply(m_new, 1.0 - BETA1)
        g2 = nl.multiply(nl.square(g), 1.0 - BETA2)
        v_new = nl.ndarray(v.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.scalar_tensor_tensor(v_new, data=v, op0=nl.multiply, operand0=BETA2, op1=nl.add, operand1=g2)
        denom = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(denom, data=nl.sqrt(v_new), op0=nl.multiply, operand0=1.0 / float(np.sqrt(BC2)), op1=nl.add, operand1=EPS)
        reciprocal_out = nl.ndarray(denom.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.reciprocal(reciprocal_out, denom)
        step = nl.multiply(m_new, reciprocal_out)
        p_dec = nl.multiply(p, 1.0 - LR * WEIGHT_DECAY)
        p_new = nl.ndarray(step.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.scalar_tensor_tensor(p_new, data=step, op0=nl.multiply, operand0=-LR / BC1, op1=nl.add, operand1=p_dec)
        nl.store(p_out[i * P:(i + 1) * P, 0:F], value=p_new)
        nl.store(m_out[i * P:(i + 1) * P, 0:F], value=m_new)
        nl.store(v_out[i * P:(i + 1) * P, 0:F], value=v_new)
    return p_out, m_out, v_out
