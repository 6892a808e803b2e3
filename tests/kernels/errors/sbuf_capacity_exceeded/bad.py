# nki-case: args=256x20480:float32,128x20480:float32,128x20480:float32
# y = x * scale + shift, row tile by row tile. The per-column scale and shift are loaded whole
# before the loop (80 KiB per partition each) and stay live in every iteration, so the first row
# tile (another 80 KiB) needs 240 KiB per partition: more than the 224 KiB of a trn2 SBUF
# partition, in any order the instructions could be scheduled in.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def scale_shift(x, scale, shift):
    R, F = x.shape
    y = nl.ndarray((R, F), dtype=x.dtype, buffer=nl.shared_hbm)
    sc = nl.load(scale)
    sh = nl.load(shift)
    for r in nl.affine_range(R // 128):
        t = nl.load(x[r * 128:(r + 1) * 128, :])  # expect-error: sbuf_capacity_exceeded  # expect-col: 13
        nl.store(y[r * 128:(r + 1) * 128, :], value=nl.add(nl.multiply(t, sc), sh))
    return y
