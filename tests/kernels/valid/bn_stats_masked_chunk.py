# nki-case: args=128x1000:float32 init0=rand(-2,3)
# Mean/variance of 1000-column rows with bn_stats over 512-column chunks; the ragged last chunk
# is masked, and masked-out elements take no part in its statistics (the SDK 2.24 layernorm
# tutorial, nki_layernorm_kernel_v2, relies on this).
# expect-output: (in0.mean(axis=1, keepdims=True), in0.var(axis=1, keepdims=True))
# expect-tol: rtol=1e-4 atol=1e-4
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def row_moments(x):
    P, F = x.shape
    mean_out = nl.ndarray((P, 1), dtype=nl.float32, buffer=nl.shared_hbm)
    var_out = nl.ndarray((P, 1), dtype=nl.float32, buffer=nl.shared_hbm)
    xt = nl.load(x)
    i_p = nl.arange(P)[:, None]
    i_f = nl.arange(512)[None, :]
    i_s = nl.arange(6)[None, :]
    n_chunks = (F + 511) // 512
    stats = nl.ndarray((P, 6 * n_chunks), dtype=nl.float32)
    for j in nl.affine_range(n_chunks):
        stats[i_p, j * 6 + i_s] = nisa.bn_stats(xt[i_p, j * 512 + i_f], mask=(j * 512 + i_f < F),
                                                dtype=nl.float32)
    mv = nisa.bn_aggr(stats, dtype=nl.float32)
    nl.store(mean_out, value=mv[:, 0:1])
    nl.store(var_out, value=mv[:, 1:2])
    return mean_out, var_out
