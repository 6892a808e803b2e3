# Calibration kernel: structure of version 3 ("block free dimensions", 2 x 2 tiles per block) of
# the SDK 2.24 matmul tutorial, measured 22.07 ms on trn1 (trainium-perf.md §3.9-1).
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def mm_block_free(lhsT, rhs):
    K, M = lhsT.shape
    _, N = rhs.shape
    KT = K // 128
    BM, BN = 2, 2
    out = nl.ndarray((M, N), dtype=lhsT.dtype, buffer=nl.shared_hbm)
    for m in nl.affine_range(M // (128 * BM)):
        a_blk = nl.ndarray((BM, KT, nl.par_dim(128), 128), dtype=lhsT.dtype, buffer=nl.sbuf)
        for bm in nl.affine_range(BM):
            for k in nl.affine_range(KT):
                c0 = (m * BM + bm) * 128
                a_blk[bm, k] = nl.load(lhsT[k * 128:(k + 1) * 128, c0:c0 + 128])
        for n in nl.affine_range(N // (512 * BN)):
            b_blk = nl.ndarray((BN, KT, nl.par_dim(128), 512), dtype=rhs.dtype, buffer=nl.sbuf)
            for bn in nl.affine_range(BN):
                for k in nl.affine_range(KT):
                    c0 = (n * BN + bn) * 512
                    b_blk[bn, k] = nl.load(rhs[k * 128:(k + 1) * 128, c0:c0 + 512])
            for bm in nl.affine_range(BM):
                for bn in nl.affine_range(BN):
                    acc = nl.zeros((128, 512), nl.float32, buffer=nl.psum)
                    for k in nl.affine_range(KT):
                        acc += nl.matmul(a_blk[bm, k], b_blk[bn, k], transpose_x=True)
                    r0 = (m * BM + bm) * 128
                    c0 = (n * BN + bn) * 512
                    nl.store(out[r0:r0 + 128, c0:c0 + 512], value=nl.copy(acc, dtype=out.dtype))
    return out
