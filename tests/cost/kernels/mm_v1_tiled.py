# Calibration kernel (docs/cost-model.md): the structure of version 1 ("tiled") of the SDK 2.24
# matrix-multiplication tutorial, measured at 51.80 ms on trn1 for [4096,8192] @ [8192,8192] bf16
# (shared/docs/trainium-perf.md §3.9-1). Both operands are loaded again for every matmul.
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def mm_tiled(lhsT, rhs):
    K, M = lhsT.shape
    _, N = rhs.shape
    out = nl.ndarray((M, N), dtype=lhsT.dtype, buffer=nl.shared_hbm)
    for m in nl.affine_range(M // 128):
        for n in nl.affine_range(N // 512):
            acc = nl.zeros((128, 512), nl.float32, buffer=nl.psum)
            for k in nl.affine_range(K // 128):
                a = nl.load(lhsT[k * 128:(k + 1) * 128, m * 128:(m + 1) * 128])
                b = nl.load(rhs[k * 128:(k + 1) * 128, n * 512:(n + 1) * 512])
                acc += nl.matmul(a, b, transpose_x=True)
            nl.store(out[m * 128:(m + 1) * 128, n * 512:(n + 1) * 512], value=nl.copy(acc, dtype=out.dtype))
    return out
