# Calibration kernel: structure of mamba_v3 of the SDK 2.24 fused-mamba tutorial (mamba_v2 plus
# a seq_len tiling loop of 512 inside the state loop; the scan carries its last column from one
# seq tile to the next). Measured on trn1 at [batch 1, channels 4096, state 16]: 1.6 / 3.3 / 6.6 /
# 13.3 / 27.8 ms at seq_len 512 / 1024 / 2048 / 4096 / 8192 (general/nki/tutorials/fused_mamba.rst,
# scaling table; trainium-perf.md §3.9-2).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def mamba_seq_tiled(delta, u, A, B, C):
    batch, channels, seq = delta.shape
    _, states = A.shape
    out = nl.ndarray((batch, channels, seq), dtype=delta.dtype, buffer=nl.shared_hbm)
    F = 512
    for b in nl.affine_range(batch):
        for t in nl.affine_range(channels // 128):
            c0 = t * 128
            acc = nl.zeros((nl.par_dim(128), seq), dtype=delta.dtype)
            d = nl.load(delta[b, c0:c0 + 128, 0:seq])
            x = nl.load(u[b, c0:c0 + 128, 0:seq])
            for s in nl.affine_range(states):
                a = nl.load(A[c0:c0 + 128, s])
                carry = nl.zeros((128, 1), dtype=delta.dtype)
                for j in nl.static_range(seq // F):
                    f0 = j * F
                    dA = nisa.activation(op=nl.exp, data=d[0:128, f0:f0 + F], scale=a)
                    bs = nl.load(B[b, s:s + 1, f0:f0 + F])
                    du = nisa.tensor_tensor(d[0:128, f0:f0 + F], x[0:128, f0:f0 + F], op=nl.multiply)
                    dbu = nisa.tensor_tensor(du, bs.broadcast_to((128, F)), op=nl.multiply)
                    h = nisa.tensor_tensor_scan(dA, dbu, initial=carry, op0=np.multiply, op1=np.add)
                    carry[...] = h[0:128, F - 1]
                    cs = nl.load(C[b, s:s + 1, f0:f0 + F])
                    y = nisa.tensor_tensor(h, cs.broadcast_to((128, F)), op=nl.multiply)
                    acc[0:128, f0:f0 + F] += y
            nl.store(out[b, c0:c0 + 128, 0:seq], acc[0:128, 0:seq])
    return out
