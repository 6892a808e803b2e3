# nki-case: args=64x64:bfloat16,64x256:bfloat16
# PE-array tiling with tile_position but no tile_size.
# Fix: also pass tile_size (multiples of 32, at least the stationary tile size).
# expect-output: in0.astype(np.float32).T @ in1.astype(np.float32)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def pe_tiled(a, b):
    res = nl.ndarray((64, 256), dtype=nl.float32, buffer=nl.shared_hbm)
    a_sb = nl.load(a)
    b_sb = nl.load(b)
    ps = nisa.nc_matmul(a_sb, b_sb, tile_position=(0, 0), tile_size=(64, 64))
    nl.store(res, value=nl.copy(ps))
    return res
