# Calibration kernel: structure of version 2 ("hoist load") of the SDK 2.24 matmul tutorial,
# measured 42.96 ms on trn1 (trainium-perf.md §3.9-1). A column of lhsT tiles is loaded once per
# output row block; the rhs column is loaded once per output tile.
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def mm_hoisted(lhsT, rhs):
    K, M = lhsT.shape
    _, N = rhs.shape
    KT = K // 128
    out = nl.ndarray((M, N), dtype=lhsT.dtype, buffer=nl.shared_hbm)
    for m in nl.affine_range(M // 128):
        # Declared 512 wide as in the tutorial (only 128 columns are used): 64 KiB per partition,
        # which leaves SBUF room for one rhs block only (no double buffering of b_col).
        a_col = nl.ndarray((KT, nl.par_dim(128), 512), dtype=lhsT.dtype, buffer=nl.sbuf)
        for k in nl.affine_range(KT):
            a_col[k, :, 0:128] = nl.load(lhsT[k * 128:(k + 1) * 128, m * 128:(m + 1) * 128])
        for n in nl.affine_range(N // 512):
            b_col = nl.ndarray((KT, nl.par_dim(128), 512), dtype=rhs.dtype, buffer=nl.sbuf)
            for k in nl.affine_range(KT):
                b_col[k] = nl.load(rhs[k * 128:(k + 1) * 128, n * 512:(n + 1) * 512])
            acc = nl.zeros((128, 512), nl.float32, buffer=nl.psum)
            for k in nl.affine_range(KT):
                acc += nl.matmul(a_col[k, :, 0:128], b_col[k], transpose_x=True)
            nl.store(out[m * 128:(m + 1) * 128, n * 512:(n + 1) * 512], value=nl.copy(acc, dtype=out.dtype))
    return out
