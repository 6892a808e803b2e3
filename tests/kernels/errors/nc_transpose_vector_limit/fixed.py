# nki-case: args=64x64:float32
# Transposes a 64x64 tile on the Vector Engine, which handles at most 32x32 per instruction.
# Fix: let the Tensor Engine do it (up to 128x128; the result lands in PSUM).
# expect-output: in0.T
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def vec_transpose(x):
    res = nl.ndarray((64, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    yt = nisa.nc_transpose(xt, engine=nisa.tensor_engine)
    nl.store(res, value=nl.copy(yt))
    return res
