# nki-case: args=256x20480:float32,128x20480:float32,128x20480:float32
# y = x * scale + shift, row tile by row tile. The per-column scale and shift are loaded whole
# before the loop (80 KiB per partition each) and stay live in every iteration, so the first row
# tile (another 80 KiB) brings the live SBUF tiles to 240 KiB per partition in program order:
# more than the 192 KiB of a trn1 partition. No single instruction needs more than 160 KiB at
# once, and the compiler could reload or spill scale/shift, so this is an estimate: the kernel
# compiles with a warning.
# expect-output: in0 * np.tile(in1, (2, 1)) + np.tile(in2, (2, 1))
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
        t = nl.load(x[r * 128:(r + 1) * 128, :])  # expect-warning: sbuf_capacity_estimate
        nl.store(y[r * 128:(r + 1) * 128, :], value=nl.add(nl.multiply(t, sc), sh))
    return y
