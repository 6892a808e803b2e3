# Calibration kernel: structure of version 4 ("fully optimized": M blocks of 16 tiles, N blocks
# of 2 tiles, K blocks of 8 tiles, wide DMAs, SBUF accumulation over K blocks) of the SDK 2.24
# matmul tutorial, measured 6.97 ms on trn1 (trainium-perf.md §3.9-1).
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def mm_blocked(lhsT, rhs):
    K, M = lhsT.shape
    _, N = rhs.shape
    TM, TN, TK = 16, 2, 8
    BM, BN, BK = 128 * TM, 512 * TN, 128 * TK
    NBM, NBN, NBK = M // BM, N // BN, K // BK
    out = nl.ndarray((M, N), dtype=lhsT.dtype, buffer=nl.shared_hbm)
    for n in nl.affine_range(NBN):
        res = nl.zeros((NBM, TM, TN, nl.par_dim(128), 512), dtype=lhsT.dtype, buffer=nl.sbuf)
        for kb in nl.sequential_range(NBK):
            b_blk = nl.ndarray((TK, nl.par_dim(128), BN), dtype=rhs.dtype, buffer=nl.sbuf)
            for bk in nl.affine_range(TK):
                r0 = (kb * TK + bk) * 128
                b_blk[bk] = nl.load(rhs[r0:r0 + 128, n * BN:(n + 1) * BN])
            for m in nl.affine_range(NBM):
                a_blk = nl.ndarray((TK, nl.par_dim(128), BM), dtype=lhsT.dtype, buffer=nl.sbuf)
                for bk in nl.affine_range(TK):
                    r0 = (kb * TK + bk) * 128
                    a_blk[bk] = nl.load(lhsT[r0:r0 + 128, m * BM:(m + 1) * BM])
                for bn in nl.affine_range(TN):
                    for bm in nl.affine_range(TM):
                        acc = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.psum)
                        for bk in nl.affine_range(TK):
                            acc[...] += nisa.nc_matmul(a_blk[bk, :, bm * 128:(bm + 1) * 128],
                                                       b_blk[bk, :, bn * 512:(bn + 1) * 512])
                        res[m, bm, bn] += acc
        for m in nl.affine_range(NBM):
            for bm in nl.affine_range(TM):
                packed = nl.ndarray((nl.par_dim(128), BN), dtype=res.dtype, buffer=nl.sbuf)
                for bn in nl.affine_range(TN):
                    packed[:, bn * 512:(bn + 1) * 512] = nl.copy(res[m, bm, bn])
                r0 = (m * TM + bm) * 128
                nl.store(out[r0:r0 + 128, n * BN:(n + 1) * BN], value=packed)
    return out
