# nki-case: args=128x128:float32,128x1:float32,128x1:float32 target=trn2 init1=randint(0,64) init2=randint(64,128)
# nisa.range_select over two 64-column blocks in an affine loop with range_start = i * 64 (a
# loop-index expression, as in the 2.24 doc test): column c of row p is kept where
# lo[p] <= c < hi[p], else it becomes the float32 minimum.
# expect-output: np.where((np.arange(128)[None, :] >= in1) & (np.arange(128)[None, :] < in2), in0, np.float32(np.finfo(np.float32).min))
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def band_select(x, lo, hi):
    out = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.shared_hbm)
    lo_t = nl.load(lo)
    hi_t = nl.load(hi)
    for i in nl.affine_range(2):
        blk = nl.load(x[:, i * 64:(i + 1) * 64])
        sel = nisa.range_select(on_true_tile=blk, comp_op0=nl.greater_equal, comp_op1=nl.less,
                                bound0=lo_t, bound1=hi_t, range_start=i * 64)
        nl.store(out[:, i * 64:(i + 1) * 64], value=sel)
    return out
