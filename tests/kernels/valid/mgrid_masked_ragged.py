# nki-case: args=300x200:float32
# 300x200 processed in 128x128 tiles: the last row tile and the last column tile are ragged.
# Index expressions from nl.mgrid / nl.arange plus masks on load, compute and store keep
# every access in bounds; masked-out destination elements are not written.
# expect-output: 3.0 * in0 - 1.0
import math
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def affine_ragged(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    R, C = x.shape
    for r in nl.affine_range(math.ceil(R / 128)):
        for c in nl.affine_range(math.ceil(C / 128)):
            g = nl.mgrid[0:128, 0:128]
            rows = r * 128 + g.p
            cols = c * 128 + g.x
            inside = (rows < R) & (cols < C)
            t = nl.load(x[rows, cols], mask=inside)
            y = nl.subtract(nl.multiply(t, 3.0, mask=inside), 1.0, mask=inside)
            nl.store(out[rows, cols], value=y, mask=inside)
    return out
