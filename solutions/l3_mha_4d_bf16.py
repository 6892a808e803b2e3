import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def mha_4d_kernel(q, k, v):
    """Multi-head attention softmax(q @ k^T / sqrt(D)) @ v on bf16 [B, H, S, D] tensors.

    Each (batch, head) pair is an independent single-head problem (S a multiple of 128,
    S <= 512, D <= 128); bf16 matmul operands, fp32 PSUM accumulation and fp32 softmax.
    """
    B, H, S, D = q.shape
    P = nl.tile_size.pmax
    n_q = S // P
    n_kb = S // P
    scale = 1.0 / float(np.sqrt(D))
    out = nl.ndarray((B, H, S, D), dtype=q.dtype, buffer=nl.shared_hbm)

    for b in nl.affine_range(B):
        for h in nl.affine_range(H):
            k_t = nl.load_transpose2d(k[b, h, 0:S, 0:D])       # [D, S]
            v_sb = nl.ndarray((P, n_kb, D), dtype=v.dtype, buffer=nl.sbuf)
            for j in nl.affine_range(n_kb):
                v_sb[:, j, :] = nl.load(v[b, h, j * P:(j + 1) * P, 0:D])
            for i in nl.affine_range(n_q):
                q_t = nl.load_transpose2d(q[b, h, i * P:(i + 1) * P, 0:D])   # [D, 128]
                s_ps = nisa.nc_matmul(q_t, k_t)                               # [128, S]
                row_max = nisa.tensor_reduce(np.max, data=s_ps, axis=(1,), dtype=nl.float32)
                neg_max = nl.multiply(row_max, -scale)
                p = nisa.activation(op=nl.exp, data=s_ps, bias=neg_max, scale=scale, dtype=nl.float32)
                inv_sum = nl.reciprocal(nl.sum(p, axis=[1]))

                o_ps = nl.zeros((P, D), nl.float32, buffer=nl.psum)
                for j in nl.affine_range(n_kb):
                    p_t = nl.copy(nisa.nc_transpose(p[:, j * P:(j + 1) * P]), dtype=v.dtype)
                    o_ps += nisa.nc_matmul(p_t, v_sb[:, j, :])
                o = nisa.tensor_scalar(data=o_ps, op0=nl.multiply, operand0=inv_sum, dtype=out.dtype)
                nl.store(out[b, h, i * P:(i + 1) * P, 0:D], value=o)
    return out
