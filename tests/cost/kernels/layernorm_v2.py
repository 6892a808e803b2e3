# Calibration kernel (ranking only): version 2 of the SDK 2.24 LayerNorm tutorial as its text
# describes it (general/nki/tutorials/layernorm.rst at 86051b85): mean and variance from
# bn_stats + bn_aggr (~N VectorE cycles), then shift and scale in one tensor_scalar, then
# gamma/beta. Measured p50 1969 us on trn1 at [300, 1000] fp32 (v1: 2311 us).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def layernorm_v2(x, gamma, beta):
    R, N = x.shape
    out = nl.ndarray((R, N), dtype=x.dtype, buffer=nl.shared_hbm)
    ip = nl.arange(128)[:, None]
    iN = nl.arange(N)[None, :]
    g = nl.load(gamma.reshape((1, N))[nl.arange(1)[:, None], iN]).broadcast_to((128, N))
    b = nl.load(beta.reshape((1, N))[nl.arange(1)[:, None], iN]).broadcast_to((128, N))
    chunk = 500  # bn_stats reads at most 512 elements per partition (TP §2.3)
    for t in nl.affine_range((R + 127) // 128):
        rows = t * 128 + ip
        xt = nl.load(x[rows, iN], mask=(rows < R))
        stats = nl.ndarray((nl.par_dim(128), 6 * (N // chunk)), dtype=np.float32, buffer=nl.sbuf)
        for c in nl.affine_range(N // chunk):
            stats[:, c * 6:(c + 1) * 6] = nisa.bn_stats(xt[:, c * chunk:(c + 1) * chunk])
        mv = nisa.bn_aggr(stats)
        inv = nl.rsqrt(nl.add(mv[:, 1:2], 1e-5))
        normed = nisa.tensor_scalar(xt, np.subtract, mv[:, 0:1], op1=np.multiply, operand1=inv)
        y = nl.add(nl.multiply(normed, g), b)
        nl.store(out[rows, iN], value=y, mask=(rows < R))
    return out
