# nki-case: args=128x64:float32
# Non-tensor kernel parameters are compile-time constants with Python defaults
# (`nkiagent run --const NAME=...` can override them; the expectation uses the defaults).
# expect-output: np.maximum(in0 * 3.0, 0.0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def scaled_activation(x, scale=3.0, activation="relu", out_dtype=nl.float32):
    out = nl.ndarray(x.shape, dtype=out_dtype, buffer=nl.shared_hbm)
    t = nl.multiply(nl.load(x), scale)
    if activation == "relu":
        y = nl.relu(t, dtype=out_dtype)
    elif activation == "tanh":
        y = nl.tanh(t, dtype=out_dtype)
    else:
        y = nl.copy(t, dtype=out_dtype)
    nl.store(out, value=y)
    return out
