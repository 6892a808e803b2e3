# nki-case: args=32x64:float32,32x2:float32,32x1:float32 target=trn2 init1=const(8.0) init2=const(20.0)
# Fix of bad_4.py: take one bound column. Columns 9..19 are kept (greater, less_equal).
# expect-output: np.where((np.arange(64) > 8) & (np.arange(64) <= 20), in0, np.float32(-3.4028234663852886e38))
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def window(x, b0, b1):
    t = nl.load(x)
    l0 = nl.load(b0[:, 0:1])
    l1 = nl.load(b1)
    r = nisa.range_select(on_true_tile=t, comp_op0=nl.greater, comp_op1=nl.less_equal, bound0=l0, bound1=l1)
    out = nl.ndarray((32, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
