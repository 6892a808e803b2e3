# nki-case: args=64x64:bfloat16,64x512:bfloat16
# A 64x64 stationary tile placed at PE position (16, 0).
# Fix: start the PE tile at row 0.
# expect-output: in0.T @ in1
# expect-tol: rtol=2e-2 atol=5e-1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def small_matmul(a, b):
    res = nl.ndarray((64, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    ps = nisa.nc_matmul(nl.load(a), nl.load(b), tile_position=(0, 0), tile_size=(64, 64))
    nl.store(res, value=nl.copy(ps))
    return res
