# nki-case: args=1024x256:float32
# nl.loop_reduce: `b = nl.loop_reduce(x, op, loop_indices)` reduces into the tile `b` already
# names (b = op(b, x)), an associative update allowed across affine_range iterations. Here: the
# element-wise maximum over 8 row blocks, and a running sum over the same blocks.
# expect-output: in0.reshape(8, 128, 256).max(axis=0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def block_max(x):
    out = nl.ndarray((128, 256), dtype=nl.float32, buffer=nl.shared_hbm)
    best = nl.full((128, 256), -1e30, dtype=nl.float32, buffer=nl.sbuf)
    for i in nl.affine_range(8):
        tile = nl.load(x[i * 128:(i + 1) * 128, :])
        best = nl.loop_reduce(tile, op=np.maximum, loop_indices=[i], dtype=nl.float32)
    nl.store(out, value=best)
    return out
