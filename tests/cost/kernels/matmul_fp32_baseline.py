# Calibration kernel: the instruction structure of the NKIBench fp32 matmul baseline
# (x [4096, 5120] given as [32, 128, 5120], w [5120, 12288] given as [40, 128, 12288]): per
# 1024-column block of w, eight [128, 1024] loads per 1024 rows of K; per 128-row block of x,
# [128, 8, 128] loads, fp32 PE transposes against an identity tile, PSUM->SBUF copies, then
# 2 x 40 accumulating fp32 matmuls into two [128, 512] PSUM tiles, copies and one store.
# Measured 35.2 ms on trn1 (trainium-perf.md §3.9-5). Tiles are allocated per iteration here
# (the baseline declares them as large multi-index buffers, which the compiler splits the same way).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def matmul_fp32(x, w):
    MT, _, K = x.shape
    KT, _, N = w.shape
    out = nl.ndarray((MT, 128, N), dtype=np.float32, buffer=nl.shared_hbm)
    ident = nl.load(nl.shared_identity_matrix(128, dtype=np.float32))
    for nb in nl.affine_range(N // 1024):
        w_blk = nl.ndarray((KT, nl.par_dim(128), 1024), dtype=np.float32, buffer=nl.sbuf)
        for kt in nl.affine_range(KT):
            w_blk[kt] = nl.load(w[kt, :, nb * 1024:(nb + 1) * 1024])
        for mt in nl.affine_range(MT):
            xT = nl.ndarray((KT, nl.par_dim(128), 128), dtype=np.float32, buffer=nl.sbuf)
            for kg in nl.affine_range(KT // 8):
                xs = nl.load(x[mt, :, kg * 1024:(kg + 1) * 1024])
                for j in nl.affine_range(8):
                    t = nisa.nc_matmul(xs[:, j * 128:(j + 1) * 128], ident)
                    xT[kg * 8 + j] = nl.copy(t, dtype=np.float32)
            res = nl.ndarray((nl.par_dim(128), 1024), dtype=np.float32, buffer=nl.sbuf)
            for h in nl.affine_range(2):
                acc = nl.zeros((128, 512), dtype=np.float32, buffer=nl.psum)
                for kt in nl.affine_range(KT):
                    acc += nisa.nc_matmul(xT[kt], w_blk[kt, :, h * 512:(h + 1) * 512])
                res[:, h * 512:(h + 1) * 512] = nl.copy(acc, dtype=np.float32)
            nl.store(out[mt, :, nb * 1024:(nb + 1) * 1024], value=res)
    return out
