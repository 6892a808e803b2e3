import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


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
                s_ps = nl.ndarray((q_t.shape[1], k_t.shape[1]), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_matmul(s_ps, q_t, k_t)                               # [128, S]
                row_max = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.sbuf)
                nisa.tensor_reduce(row_max, nl.maximum, data=s_ps, axis=(1,))
                neg_max = nl.multiply(row_max, -scale)
                p = nl.ndarray(s_ps.shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.activation(p, op=nl.exp, data=s_ps, bias=neg_max, scale=scale)
                inv_sum = nl.reciprocal(nl.sum(p, axis=[1]))

                o_ps = nl.zeros((P, D), nl.float32, buffer=nl.psum)
                for j in nl.affine_range(n_kb):
                    nc_transpose_out = nl.ndarray((p[:, j * P:(j + 1) * P].shape[1], p[:, j * P:(j + 1) * P].shape[0]), dtype=nl.float32, buffer=nl.psum)
                    nisa.nc_transpose(nc_transpose_out, p[:, j * P:(j + 1) * P])
                    p_t = nl.copy(nc_transpose_out, dtype=v.dtype)
                    nisa.nc_matmul(o_ps, p_t, v_sb[:, j, :], accumulate=True)
                o = nl.ndarray(o_ps.shape, dtype=out.dtype, buffer=nl.sbuf)
                nisa.tensor_scalar(o, data=o_ps, op0=nl.multiply, operand0=inv_sum)
                nl.store(out[b, h, i * P:(i + 1) * P, 0:D], value=o)
    return out
