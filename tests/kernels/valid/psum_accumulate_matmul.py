# nki-case: args=512x128:bfloat16,512x256:bfloat16
# K = 512 contraction split into four 128-row tiles accumulated in one fp32 PSUM tile with
# `+=` inside affine_range (the documented associative-reduction exception), then
# evacuated to SBUF with nl.copy before the store.
# expect-output: in0.astype(np.float32).T @ in1.astype(np.float32)
# expect-tol: rtol=1e-3 atol=1e-3
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def at_b_accumulate(a, b):
    K, M = a.shape
    _, N = b.shape
    out = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.zeros((M, N), dtype=nl.float32, buffer=nl.psum)
    for k in nl.affine_range(K // 128):
        a_t = nl.load(a[k * 128:(k + 1) * 128, :])
        b_t = nl.load(b[k * 128:(k + 1) * 128, :])
        acc += nisa.nc_matmul(a_t, b_t)
    nl.store(out, value=nl.copy(acc, dtype=nl.float32))
    return out
