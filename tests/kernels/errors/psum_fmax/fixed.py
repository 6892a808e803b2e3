# nki-case: args=128x128:float32,128x1024:float32
# One [128, 1024] fp32 PSUM accumulator: 4 KiB per partition, more than one 2 KiB PSUM bank.
# Fix: use one 512-wide PSUM tile per output chunk.
# expect-output: in0.T @ in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def big_psum(a, b):
    res = nl.ndarray((128, 1024), dtype=a.dtype, buffer=nl.shared_hbm)
    a_sb = nl.load(a)
    for n in nl.affine_range(2):
        b_sb = nl.load(b[:, n * 512:(n + 1) * 512])
        ps = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.psum)
        ps[...] += nisa.nc_matmul(a_sb, b_sb)
        nl.store(res[:, n * 512:(n + 1) * 512], value=nl.copy(ps))
    return res
