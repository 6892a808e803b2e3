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
    # each branch stores its own tile: a tile bound inside an if/else block is local to it
    if activation == "relu":
        nl.store(out, value=nl.relu(t, dtype=out_dtype))
    elif activation == "tanh":
        nl.store(out, value=nl.tanh(t, dtype=out_dtype))
    else:
        nl.store(out, value=nl.copy(t, dtype=out_dtype))
    return out
