# nki-case: args=128x64:float32
# nisa.iota materialises an affine index expression (row * 64 + col) as an int32 tile,
# which is then used as ordinary data.
# expect-output: in0 + np.arange(128 * 64, dtype=np.float32).reshape(128, 64)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def add_linear_index(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(64)[None, :]
    pos = nisa.iota(i_p * 64 + i_f, dtype=nl.int32)
    nl.store(out, value=nl.add(nl.load(x), pos, dtype=nl.float32))
    return out
