# nki-case: args=32x64:float32
# static_range with a negative step (unrolled, Python range semantics).
# expect-output: np.stack([in0[:, 62 - 2 * j] for j in range(31)], 1)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

@nki.jit
def k(x):
    out = nl.ndarray((32, 31), dtype=nl.float32, buffer=nl.shared_hbm)
    a = nl.load(x)
    for j in nl.static_range(62, 0, -2):
        nl.store(out[:, (62 - j) // 2], a[:, j])
    return out
