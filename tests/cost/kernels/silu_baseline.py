# Calibration kernel: the instruction structure of the NKIBench SiLU baseline (fp32 [4096, 7168],
# loads of [128, 1024], per [128, 512] half: exp(-x) on ScalarE, +1, reciprocal, multiply; one
# store per load). Measured 1.333 ms on trn1 (trainium-perf.md §3.9-4, AccelOpt profile_results).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def silu_tiles(x):
    M, N = x.shape
    out = nl.ndarray((M, N), dtype=x.dtype, buffer=nl.shared_hbm)
    zero = nisa.memset(shape=(128, 1), value=0.0, dtype=np.float32)
    for r in nl.affine_range(M // 128):
        for c in nl.affine_range(N // 1024):
            xt = nl.load(x[r * 128:(r + 1) * 128, c * 1024:(c + 1) * 1024])
            yt = nl.ndarray((nl.par_dim(128), 1024), dtype=x.dtype, buffer=nl.sbuf)
            for h in nl.affine_range(2):
                e = nisa.activation(op=nl.exp, data=xt[:, h * 512:(h + 1) * 512], bias=zero, scale=-1.0)
                p = nisa.tensor_scalar(e, np.add, 1.0)
                q = nisa.reciprocal(p)
                yt[:, h * 512:(h + 1) * 512] = nl.multiply(xt[:, h * 512:(h + 1) * 512], q)
            nl.store(out[r * 128:(r + 1) * 128, c * 1024:(c + 1) * 1024], value=yt)
    return out
