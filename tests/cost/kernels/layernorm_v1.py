# Calibration kernel (ranking only): the structure of version 1 of the SDK 2.24 LayerNorm tutorial
# as its text describes it (general/nki/tutorials/layernorm.rst at 86051b85): per 128-row tile,
# mean over the free dim, variance from a square on ScalarE plus a reduction and a subtract on
# VectorE, rsqrt(var + eps), then shift and scale as two N-wide instructions, then gamma/beta.
# Measured p50 2311 us on trn1 at [300, 1000] fp32 (v2: 1969 us).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def layernorm_v1(x, gamma, beta):
    R, N = x.shape
    out = nl.ndarray((R, N), dtype=x.dtype, buffer=nl.shared_hbm)
    ip = nl.arange(128)[:, None]
    iN = nl.arange(N)[None, :]
    g = nl.load(gamma.reshape((1, N))[nl.arange(1)[:, None], iN]).broadcast_to((128, N))
    b = nl.load(beta.reshape((1, N))[nl.arange(1)[:, None], iN]).broadcast_to((128, N))
    for t in nl.affine_range((R + 127) // 128):
        rows = t * 128 + ip
        xt = nl.load(x[rows, iN], mask=(rows < R))
        mean = nl.mean(xt, axis=1, keepdims=True)
        centred = nl.subtract(xt, mean)
        var = nl.mean(nl.square(centred), axis=1, keepdims=True)
        inv = nl.rsqrt(nl.add(var, 1e-5))
        normed = nl.multiply(centred, inv)
        y = nl.add(nl.multiply(normed, g), b)
        nl.store(out[rows, iN], value=y, mask=(rows < R))
    return out
