# nki-case: args=512x128:bfloat16,512x512:bfloat16
# Two fp32 PSUM accumulators kept in a Python list, one per 256-column half of the output, each
# accumulated with `accs[j] += nisa.nc_matmul(...)` over four K tiles. Python runs the element's
# in-place `+=` (as for a plain name), so this is the same accumulation as `acc += ...`; it once
# built a fresh loop-local tile instead and returned wrong numbers without a diagnostic.
# expect-output: in0.astype(np.float32).T @ in1.astype(np.float32)
# expect-tol: rtol=1e-3 atol=1e-3
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def at_b_two_accumulators(a, b):
    K, M = a.shape
    _, N = b.shape
    out = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    accs = [nl.zeros((M, 256), dtype=nl.float32, buffer=nl.psum) for _ in range(2)]
    for k in nl.affine_range(K // 128):
        a_t = nl.load(a[k * 128:(k + 1) * 128, :])
        for j in nl.static_range(2):
            b_t = nl.load(b[k * 128:(k + 1) * 128, j * 256:(j + 1) * 256])
            accs[j] += nisa.nc_matmul(a_t, b_t)
    for j in nl.static_range(2):
        nl.store(out[:, j * 256:(j + 1) * 256], value=nl.copy(accs[j]))
    return out
