# nki-case: args=1024x256:float32
# Subscript form of nl.loop_reduce: `acc[:, 0:256] = nl.loop_reduce(x, op, ...)` reduces into
# that slice (acc[:, 0:256] = op(acc[:, 0:256], x)) across the affine loop.
# expect-output: in0.reshape(8, 128, 256).sum(axis=0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def block_sum_into_slice(x):
    out = nl.ndarray((128, 256), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.sbuf)
    for i in nl.affine_range(8):
        tile = nl.load(x[i * 128:(i + 1) * 128, :])
        acc[:, 0:256] = nl.loop_reduce(tile, op=np.add, loop_indices=[i])
    nl.store(out, value=acc[:, 0:256])
    return out
