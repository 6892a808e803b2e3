import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

EPS = 1e-5


@nki.jit
def preln_attention_block_kernel(x, ln_w, ln_b, wq, wk, wv, wo):
    """x + wo(attention(LN(x))) for one head with S = D = 128 (one tile of every operand).

    h = LN(x) (bn_stats/bn_aggr); hT by a TensorE transpose; qT = wq @ hT and kT = wk @ hT
    come out with features on partitions, v = h @ wv.T with tokens on partitions; scores
    = q @ k.T, softmax with the 1/sqrt(D) scale in the exponent, o = P @ v, then
    y = o @ wo.T + x.
    """
    S, D = x.shape
    scale = 1.0 / float(np.sqrt(D))
    out = nl.ndarray((S, D), dtype=x.dtype, buffer=nl.shared_hbm)

    x_sb = nl.load(x[0:S, 0:D])
    g_b = nl.broadcast_to(nl.load(ln_w.reshape((1, D))), shape=(S, D))
    b_b = nl.broadcast_to(nl.load(ln_b.reshape((1, D))), shape=(S, D))
    # weights transposed to [in, out] so they can serve as matmul operands
    wq_t = nl.load_transpose2d(wq[0:D, 0:D])
    wk_t = nl.load_transpose2d(wk[0:D, 0:D])
    wv_t = nl.load_transpose2d(wv[0:D, 0:D])
    wo_t = nl.load_transpose2d(wo[0:D, 0:D])

    # LayerNorm
    stats = nisa.bn_stats(x_sb, dtype=nl.float32)
    mv = nisa.bn_aggr(stats, dtype=nl.float32)
    rstd = nl.rsqrt(nl.add(mv[:, 1:2], EPS))
    xn = nisa.tensor_scalar(data=x_sb, op0=nl.subtract, operand0=mv[:, 0:1],
                            op1=nl.multiply, operand1=rstd)
    h = nl.add(nl.multiply(xn, g_b), b_b, dtype=x.dtype)
    h_t = nl.copy(nisa.nc_transpose(h), dtype=x.dtype)                 # [D, S]

    # projections
    q_t = nl.copy(nisa.nc_matmul(wq_t, h_t), dtype=x.dtype)           # q.T [D, S]
    k_t = nl.copy(nisa.nc_matmul(wk_t, h_t), dtype=x.dtype)           # k.T [D, S]
    v_sb = nl.copy(nisa.nc_matmul(h_t, wv_t), dtype=x.dtype)          # v   [S, D]

    # attention
    s_ps = nisa.nc_matmul(q_t, k_t)                                    # [S, S]
    row_max = nisa.tensor_reduce(np.max, data=s_ps, axis=(1,), dtype=nl.float32)
    neg_max = nl.multiply(row_max, -scale)
    p = nisa.activation(op=nl.exp, data=s_ps, bias=neg_max, scale=scale, dtype=nl.float32)
    inv_sum = nl.reciprocal(nl.sum(p, axis=[1]))
    p_t = nl.copy(nisa.nc_transpose(p), dtype=x.dtype)                 # [S_k, S_q]
    o_ps = nisa.nc_matmul(p_t, v_sb)                                   # [S, D] unnormalised
    o = nisa.tensor_scalar(data=o_ps, op0=nl.multiply, operand0=inv_sum, dtype=x.dtype)

    # output projection + residual
    o_t = nl.copy(nisa.nc_transpose(o), dtype=x.dtype)                 # [D, S]
    y_ps = nisa.nc_matmul(o_t, wo_t)                                   # [S, D]
    res = nl.add(y_ps, x_sb, dtype=out.dtype)
    nl.store(out[0:S, 0:D], value=res)
    return out
