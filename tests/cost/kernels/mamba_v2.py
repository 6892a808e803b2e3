# Calibration kernel: structure of mamba_v2 of the SDK 2.24 fused-mamba tutorial (channel tile
# outside, delta and u loaded once per channel tile and reused by every state). Measured on
# trn1: 1.61 ms at [batch 1, channels 4096, seq 512, state 16] (trainium-perf.md §3.9-2).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def mamba_channels_outer(delta, u, A, B, C):
    batch, channels, seq = delta.shape
    _, states = A.shape
    out = nl.ndarray((batch, channels, seq), dtype=delta.dtype, buffer=nl.shared_hbm)
    for b in nl.affine_range(batch):
        for t in nl.affine_range(channels // 128):
            c0 = t * 128
            acc = nl.zeros((nl.par_dim(128), seq), dtype=delta.dtype)
            d = nl.load(delta[b, c0:c0 + 128, 0:seq])
            x = nl.load(u[b, c0:c0 + 128, 0:seq])
            for s in nl.affine_range(states):
                a = nl.load(A[c0:c0 + 128, s])
                dA = nisa.activation(op=nl.exp, data=d, scale=a)
                bs = nl.load(B[b, s:s + 1, 0:seq])
                du = nisa.tensor_tensor(d, x, op=nl.multiply)
                dbu = nisa.tensor_tensor(du, bs.broadcast_to((128, seq)), op=nl.multiply)
                h = nisa.tensor_tensor_scan(dA, dbu, initial=0, op0=np.multiply, op1=np.add)
                cs = nl.load(C[b, s:s + 1, 0:seq])
                y = nisa.tensor_tensor(h, cs.broadcast_to((128, seq)), op=nl.multiply)
                acc[0:128, 0:seq] += y
            nl.store(out[b, c0:c0 + 128, 0:seq], acc[0:128, 0:seq])
    return out
