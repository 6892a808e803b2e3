# nki-case: args=64x64:bfloat16,64x256:bfloat16
# PE-array tiling with tile_position but no tile_size.
# tile_position and tile_size must be given together.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def pe_tiled(a, b):
    res = nl.ndarray((64, 256), dtype=nl.float32, buffer=nl.shared_hbm)
    a_sb = nl.load(a)
    b_sb = nl.load(b)
    ps = nisa.nc_matmul(a_sb, b_sb, tile_position=(0, 0))  # expect-error: nc_matmul_tile_args  # expect-col: 10
    nl.store(res, value=nl.copy(ps))
    return res
