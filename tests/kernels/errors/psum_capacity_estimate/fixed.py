# nki-case: args=256x128:float32,256x4608:float32
# out = a.T @ b with N = 4608 = 9 PSUM tiles of 512 fp32 (warn.py: all nine accumulators live
# at once are estimated at 18 KiB per PSUM partition, 16 KiB available).
# Fix: one output tile at a time. Its accumulator is created inside the loop over N, so only one
# 2 KiB PSUM tile is live (the compiler may still double-buffer it): no warning.
# expect-output: in0.T @ in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def wide_matmul(a, b):
    K, M = a.shape
    _, N = b.shape
    out = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    for n in nl.affine_range(N // 512):
        acc = nl.zeros((M, 512), dtype=nl.float32, buffer=nl.psum)
        for k in nl.affine_range(K // 128):
            a_t = nl.load(a[k * 128:(k + 1) * 128, :])
            b_t = nl.load(b[k * 128:(k + 1) * 128, n * 512:(n + 1) * 512])
            acc += nisa.nc_matmul(a_t, b_t)
        nl.store(out[:, n * 512:(n + 1) * 512], value=nl.copy(acc))
    return out
