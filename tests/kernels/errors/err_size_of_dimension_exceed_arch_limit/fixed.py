# nki-case: args=128x256:float32
# Transposes a [128, 256] tile with one nl.transpose call.
# Fix: transpose two 128x128 chunks.
# expect-output: in0.T
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def transpose_128x256(x):
    res = nl.ndarray((256, 128), dtype=x.dtype, buffer=nl.shared_hbm)
    for j in nl.affine_range(2):
        xt = nl.load(x[:, j * 128:(j + 1) * 128])
        yt = nl.transpose(xt)
        nl.store(res[j * 128:(j + 1) * 128, :], value=nl.copy(yt))
    return res
