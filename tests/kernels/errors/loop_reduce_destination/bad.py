# nki-case: args=512x128:float32
# nl.loop_reduce assigned to a fresh name: its destination is the tile the variable already
# names (the reduction input is also its rhs), so there is nothing to reduce into.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def block_sum(x):
    out = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.zeros((128, 128), dtype=nl.float32, buffer=nl.sbuf)
    for i in nl.affine_range(4):
        tile = nl.load(x[i * 128:(i + 1) * 128, :])
        total = nl.loop_reduce(tile, op=np.add, loop_indices=[i])  # expect-error: loop_reduce_destination
    nl.store(out, value=acc)
    return out
