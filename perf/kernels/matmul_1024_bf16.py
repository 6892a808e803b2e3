# Benchmark kernel (perf/toolchain_bench): C = lhsT.T @ rhs for lhsT [K, M] and rhs [K, N] in
# bfloat16, here 1024 x 1024 x 1024. Tiled the legacy-NKI way: K tiles of 128 (partitions), M tiles
# of 128 (stationary free size), N tiles of 512 (moving free size); one zeroed PSUM accumulator
# per output tile, `+=` nisa.nc_matmul over the K tiles, nl.copy to SBUF (cast to bf16), nl.store.
#
# nki-case: args=1024x1024:bfloat16,1024x1024:bfloat16
# expect-output: in0.T @ in1
# expect-tol: rtol=2e-2 atol=2e-1
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def matmul_tiled(lhsT, rhs):
    K, M = lhsT.shape
    K2, N = rhs.shape
    TK = 128   # contraction tile (partition dim)
    TM = 128   # stationary free size
    TN = 512   # moving free size
    assert K == K2 and K % TK == 0 and M % TM == 0 and N % TN == 0
    result = nl.ndarray((M, N), dtype=lhsT.dtype, buffer=nl.shared_hbm)
    for m in nl.affine_range(M // TM):
        for n in nl.affine_range(N // TN):
            acc = nl.zeros((TM, TN), dtype=nl.float32, buffer=nl.psum)
            for k in nl.affine_range(K // TK):
                lhsT_tile = nl.load(lhsT[k * TK:(k + 1) * TK, m * TM:(m + 1) * TM])
                rhs_tile = nl.load(rhs[k * TK:(k + 1) * TK, n * TN:(n + 1) * TN])
                acc += nisa.nc_matmul(lhsT_tile, rhs_tile)
            res = nl.copy(acc, dtype=result.dtype)
            nl.store(result[m * TM:(m + 1) * TM, n * TN:(n + 1) * TN], value=res)
    return result
