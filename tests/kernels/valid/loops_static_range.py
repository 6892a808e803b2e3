# nki-case: args=512x32:float32
# nl.static_range unrolls at trace time, so the induction variable is a plain Python int
# and can drive host-side arithmetic (here a per-block float scale and a Python-list lookup).
# expect-output: in0 * np.repeat(np.array([1.0, 0.5, 1.0 / 3.0, 0.25], dtype=np.float32), 128)[:, None] + np.repeat(np.array([0.0, 10.0, 20.0, 30.0], dtype=np.float32), 128)[:, None]
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def harmonic_blocks(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    offsets = [0.0, 10.0, 20.0, 30.0]
    for k in nl.static_range(4):
        inv = 1.0 / (k + 1)
        t = nl.load(x[k * 128:(k + 1) * 128, :])
        nl.store(out[k * 128:(k + 1) * 128, :], value=nl.add(nl.multiply(t, inv), offsets[k]))
    return out
