# nki-case: args=256x20480:float32,128x20480:float32,128x20480:float32
# y = x * scale + shift, row tile by row tile (warn.py: scale, shift and a row tile live at
# once are estimated at 240 KiB per partition).
# Fix: tile the free dimension too. Each column chunk of scale/shift is loaded once and reused
# by every row tile, and all tiles are 20 KiB per partition: no warning.
# expect-output: in0 * np.tile(in1, (2, 1)) + np.tile(in2, (2, 1))
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def scale_shift(x, scale, shift):
    R, F = x.shape
    C = 5120
    y = nl.ndarray((R, F), dtype=x.dtype, buffer=nl.shared_hbm)
    for c in nl.affine_range(F // C):
        sc = nl.load(scale[:, c * C:(c + 1) * C])
        sh = nl.load(shift[:, c * C:(c + 1) * C])
        for r in nl.affine_range(R // 128):
            t = nl.load(x[r * 128:(r + 1) * 128, c * C:(c + 1) * C])
            nl.store(y[r * 128:(r + 1) * 128, c * C:(c + 1) * C], value=nl.add(nl.multiply(t, sc), sh))
    return y
