# nki-case: args=100x64:float32
# masks combined with & on nl.load and nl.store (ragged rows and a column window).
# expect-output: np.where((np.arange(100)[:, None] < 90) & (np.arange(64)[None, :] >= 8), in0, 0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

@nki.jit
def k(x):
    out = nl.ndarray((100, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    z = nl.zeros((100, 64), dtype=nl.float32)
    nl.store(out, z)
    i_p, i_f = nl.mgrid[0:100, 0:64]
    a = nl.load(x[i_p, i_f], mask=(i_p < 90) & (i_f >= 8))
    nl.store(out[i_p, i_f], a, mask=(i_p < 90) & (i_f >= 8))
    return out
