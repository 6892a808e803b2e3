# nki-case: args=128x128:float32,128x1024:float32
# One [128, 1024] fp32 PSUM accumulator: 4 KiB per partition, more than one 2 KiB PSUM bank.
# A PSUM tile may hold at most 512 fp32 elements per partition (nl.tile_size.psum_fmax).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def big_psum(a, b):
    res = nl.ndarray((128, 1024), dtype=a.dtype, buffer=nl.shared_hbm)
    a_sb = nl.load(a)
    ps = nl.zeros((128, 1024), dtype=nl.float32, buffer=nl.psum)  # expect-error: psum_fmax  # expect-col: 10
    for n in nl.affine_range(2):
        b_sb = nl.load(b[:, n * 512:(n + 1) * 512])
        ps[:, n * 512:(n + 1) * 512] += nisa.nc_matmul(a_sb, b_sb)
    nl.store(res, value=nl.copy(ps))
    return res
