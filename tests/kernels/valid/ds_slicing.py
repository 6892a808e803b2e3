# nki-case: args=256x1024:float32
# nl.ds(start, size) slices with loop-dependent starts on both axes.
# expect-output: in0 * in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def square_tiles(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    TP, TF = 128, 512
    for r in nl.affine_range(x.shape[0] // TP):
        for c in nl.affine_range(x.shape[1] // TF):
            t = nl.load(x[nl.ds(r * TP, TP), nl.ds(c * TF, TF)])
            nl.store(out[nl.ds(r * TP, TP), nl.ds(c * TF, TF)], value=nl.square(t))
    return out
