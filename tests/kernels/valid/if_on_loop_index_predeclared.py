# nki-case: args=128x64:float32,128x64:float32
# The if/else fills a tile declared BEFORE the branch (t[...] = ...), so the tile can be
# used after the branch.
# expect-output: np.concatenate([np.exp(in0), np.exp(in1)])
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def pick_then_exp(a, b):
    out = nl.ndarray((256, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(2):
        src = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.sbuf)
        if i < 1:
            src[...] = nl.load(a)
        else:
            src[...] = nl.load(b)
        nl.store(out[i * 128:(i + 1) * 128, :], value=nl.exp(src))
    return out
