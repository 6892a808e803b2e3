# nki-case: args=256x128:float32,256x4608:float32
# out = a.T @ b with N = 4608 = 9 PSUM tiles of 512 fp32. All nine accumulators are created
# before the loop over the contraction dimension and stay live through it: 9 x 2 KiB = 18 KiB
# per partition in program order, more than the 16 KiB (8 banks of 2 KiB) of a PSUM partition.
# Each matmul needs one bank only, and the compiler may reorder the loops or spill, so this is an
# estimate: the kernel compiles with a warning.
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
    accs = [nl.zeros((M, 512), dtype=nl.float32, buffer=nl.psum) for n in range(N // 512)]  # expect-warning: psum_capacity_estimate
    for k in nl.affine_range(K // 128):
        a_t = nl.load(a[k * 128:(k + 1) * 128, :])
        for n in nl.static_range(N // 512):
            b_t = nl.load(b[k * 128:(k + 1) * 128, n * 512:(n + 1) * 512])
            accs[n][...] += nisa.nc_matmul(a_t, b_t)
    for n in nl.static_range(N // 512):
        nl.store(out[:, n * 512:(n + 1) * 512], value=nl.copy(accs[n]))
    return out
