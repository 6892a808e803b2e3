# nki-case: args=512x64:float32
# Compile-time Python data: a list comprehension of scale factors, a dict comprehension,
# zip/enumerate over Python lists and tuple unpacking, all consumed by a static_range loop.
# expect-output: in0 * np.repeat(np.array([0.5, 1.0, 1.5, 2.0], dtype=np.float32), 128)[:, None] - np.repeat(np.array([0.0, 1.0, 4.0, 9.0], dtype=np.float32), 128)[:, None]
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def scaled_blocks(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    scales = [0.5 * (k + 1) for k in range(4)]
    shifts = {k: float(k * k) for k in range(4)}
    plan = [(k, s, shifts[k]) for k, s in enumerate(scales)]
    bounds = [(k * 128, (k + 1) * 128) for k in range(4)]
    for j in nl.static_range(len(plan)):
        k, s, sh = plan[j]
        lo, hi = bounds[k]
        t = nl.load(x[lo:hi, :])
        nl.store(out[lo:hi, :], value=nl.subtract(nl.multiply(t, s), sh))
    return out
