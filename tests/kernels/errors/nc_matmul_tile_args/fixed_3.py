# nki-case: args=128x64:bfloat16,128x512:bfloat16
# A [128, 64] stationary tile run in a 64x64 PE tile.
# Fix: a (128, 64) PE tile.
# expect-output: in0.T @ in1
# expect-tol: rtol=2e-2 atol=5e-1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def half_width_matmul(a, b):
    res = nl.ndarray((64, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    ps = nisa.nc_matmul(nl.load(a), nl.load(b), tile_position=(0, 0), tile_size=(128, 64))
    nl.store(res, value=nl.copy(ps))
    return res
