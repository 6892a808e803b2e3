# nki-case: args=384x128:float32
# A plain Python `range` inside a kernel is traced like nl.sequential_range (symbolic index,
# body traced once). Using the index in slices is fine.
# expect-output: np.maximum(in0, 0.0) * 0.5
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def half_relu_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for r in range(x.shape[0] // 128):
        t = nl.load(x[r * 128:(r + 1) * 128, :])
        nl.store(out[r * 128:(r + 1) * 128, :], value=nl.multiply(nl.relu(t), 0.5))
    return out
