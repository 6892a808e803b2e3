# nki-case: args=1024x64:float32
# `and` between two conditions on loop indices (and with a compile-time constant) is their
# conjunction: only blocks 2..5 are doubled; the others are copied.
# expect-output: np.concatenate([in0[:256], in0[256:768] * 2.0, in0[768:]])
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def middle_blocks(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    enabled = True
    for i in nl.affine_range(8):
        t = nl.load(x[i * 128:(i + 1) * 128, :])
        inside = i >= 2
        inside = enabled and inside and (i * 128 < 768)
        if inside:
            nl.store(out[i * 128:(i + 1) * 128, :], value=nl.multiply(t, 2.0))
        else:
            nl.store(out[i * 128:(i + 1) * 128, :], value=t)
    return out
