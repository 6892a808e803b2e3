# nki-case: args=256x128:float32,256x512:float32
# expect-output: in0.T @ in1
# expect-note: current dialect; nc_matmul(accumulate=None) overwrites the PSUM tile on the first
# k step and accumulates on the second (nki/api/nki/isa/__init__.py, nc_matmul)
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def matmul_k2(lhs_t, rhs):
    K, M = lhs_t.shape
    _, N = rhs.shape
    out = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.psum)
    for k in range(K // 128):
        a = nl.ndarray((128, M), dtype=lhs_t.dtype, buffer=nl.sbuf)
        b = nl.ndarray((128, N), dtype=rhs.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=a, src=lhs_t[k * 128:(k + 1) * 128, :])
        nisa.dma_copy(dst=b, src=rhs[k * 128:(k + 1) * 128, :])
        nisa.nc_matmul(acc, a, b)
    res = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=res, src=acc)
    nisa.dma_copy(dst=out, src=res)
    return out
