# nki-case: args=256x64:float32,256x384:float32
# Same accumulation pattern with nl.matmul(transpose_x=True) and `psum[...] +=`.
# expect-output: in0.T @ in1
# expect-tol: rtol=1e-3 atol=1e-3
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def nl_matmul_acc(lhs_t, rhs):
    out = nl.ndarray((64, 384), dtype=lhs_t.dtype, buffer=nl.shared_hbm)
    ps = nl.zeros((64, 384), dtype=nl.float32, buffer=nl.psum)
    for k in nl.affine_range(2):
        lt = nl.load(lhs_t[k * 128:(k + 1) * 128, :])
        rt = nl.load(rhs[k * 128:(k + 1) * 128, :])
        ps[...] += nl.matmul(lt, rt, transpose_x=True)
    nl.store(out, value=nl.copy(ps, dtype=lhs_t.dtype))
    return out
