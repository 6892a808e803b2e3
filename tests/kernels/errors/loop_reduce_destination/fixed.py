# nki-case: args=512x128:float32
# Fix of bad.py: assign the loop_reduce result to the accumulator created before the loop.
# expect-output: in0.reshape(4, 128, 128).sum(axis=0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def block_sum(x):
    out = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.zeros((128, 128), dtype=nl.float32, buffer=nl.sbuf)
    for i in nl.affine_range(4):
        tile = nl.load(x[i * 128:(i + 1) * 128, :])
        acc = nl.loop_reduce(tile, op=np.add, loop_indices=[i])
    nl.store(out, value=acc)
    return out
