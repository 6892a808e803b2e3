# nki-case: args=512x64:float32
# Running (prefix) sum over four row blocks. The accumulator carries a value from one
# iteration to the next, which needs nl.sequential_range.
# expect-output: np.cumsum(in0.reshape(4, 128, 64), axis=0).reshape(512, 64)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def block_prefix_sum(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    running = nl.zeros((128, 64), dtype=nl.float32, buffer=nl.sbuf)
    for k in nl.sequential_range(4):
        blk = nl.load(x[k * 128:(k + 1) * 128, :])
        running[...] = nl.add(running, blk)
        nl.store(out[k * 128:(k + 1) * 128, :], value=running)
    return out
