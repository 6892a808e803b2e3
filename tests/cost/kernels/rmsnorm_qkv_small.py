# Calibration kernel (upper bound): RMSNorm of a [128, 512] activation followed by its projection
# with a [512, 512] weight, the problem of the nki-samples rmsnorm_qkv perf test ([1,128,512] x
# [512,512] fp16, nc_latency threshold 25 us on trn1; trainium-perf.md §2.7, §3.9-8 [SMP-t]).
# Written for this project: sum of squares on ScalarE (activation with accumulate), rsqrt,
# scale, four PE transposes to put the hidden dim on the partitions, four accumulating matmuls.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def rmsnorm_qkv_small(x, w):
    T, H = x.shape
    _, O = w.shape
    out = nl.ndarray((T, O), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    sq = nl.sum(nl.square(xt, dtype=nl.float32), axis=1, keepdims=True)
    inv = nl.rsqrt(nl.add(nl.multiply(sq, 1.0 / H), 1e-6))
    xn = nl.multiply(xt, inv, dtype=x.dtype)
    acc = nl.zeros((T, O), nl.float32, buffer=nl.psum)
    for k in nl.affine_range(H // 128):
        w_sb = nl.load(w[k * 128:(k + 1) * 128, :])
        xn_t = nisa.tensor_copy(nisa.nc_transpose(xn[:, k * 128:(k + 1) * 128]), dtype=x.dtype)
        acc += nisa.nc_matmul(xn_t, w_sb)
    nl.store(out, value=nl.copy(acc, dtype=out.dtype))
    return out
