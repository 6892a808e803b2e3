# nki-case: args=300x64:float32
# `return` indented as the last statement of an affine_range body: the legacy tracer runs the
# body once, so the kernel returns after the whole loop is recorded (the SDK 2.24 examples
# layout-dynamic-loop.py and prof-kernel.py are written this way).
# expect-output: np.exp(in0)
# expect-tol: rtol=1e-5 atol=1e-6
import math
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def exp_rows(x):
    P, F = x.shape
    out = nl.ndarray((P, F), dtype=x.dtype, buffer=nl.shared_hbm)
    i_f = nl.arange(F)[None, :]
    for p in nl.affine_range(math.ceil(P / 128)):
        i_p = p * 128 + nl.arange(128)[:, None]
        t = nl.load(x[i_p, i_f], mask=(i_p < P))
        nl.store(out[i_p, i_f], value=nl.exp(t), mask=(i_p < P))
        return out
