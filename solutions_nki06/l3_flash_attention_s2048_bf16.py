import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def flash_attention_long_kernel(q, k, v):
    """softmax(q k^T / sqrt(D)) v for bf16 [B, H, S, D], S a multiple of 512, D <= 128.

    Per (batch, head): k^T [D, S] (transposing DMA) and v as [128, S/128, D] key blocks
    stay in SBUF (4 KiB + 4 KiB per partition at S = 2048).  Each 128-query tile builds its
    full [128, S] fp32 score row block from 512-column matmuls, takes the row max, one
    exp activation with the max as bias, and accumulates P @ V over the key blocks in one
    PSUM tile from PE-transposed probability blocks; 1/rowsum is applied once at the end.
    """
    B, H, S, D = q.shape
    P = nl.tile_size.pmax
    NB = 512
    n_q = S // P
    scale = 1.0 / float(np.sqrt(D))
    out = nl.ndarray((B, H, S, D), dtype=q.dtype, buffer=nl.shared_hbm)

    for b in nl.affine_range(B):
        for h in nl.affine_range(H):
            k_t = nl.load_transpose2d(k[b, h, 0:S, 0:D])                       # [D, S]
            v_sb = nl.ndarray((P, n_q, D), dtype=v.dtype, buffer=nl.sbuf)
            for j in nl.affine_range(n_q):
                v_sb[:, j, :] = nl.load(v[b, h, j * P:(j + 1) * P, 0:D])
            for i in nl.affine_range(n_q):
                q_t = nl.load_transpose2d(q[b, h, i * P:(i + 1) * P, 0:D])     # [D, 128]
                s_sb = nl.ndarray((P, S), dtype=nl.float32, buffer=nl.sbuf)
                for c in nl.affine_range(S // NB):
                    nc_matmul_out = nl.ndarray((q_t.shape[1], k_t[:, c * NB:(c + 1) * NB].shape[1]), dtype=nl.float32, buffer=nl.psum)
                    nisa.nc_matmul(nc_matmul_out, q_t, k_t[:, c * NB:(c + 1) * NB])
                    s_sb[:, c * NB:(c + 1) * NB] = nl.multiply(nc_matmul_out, scale)
                mx = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.sbuf)
                nisa.tensor_reduce(mx, nl.maximum, data=s_sb, axis=(1,))
                p = nl.ndarray(s_sb.shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.activation(p, op=nl.exp, data=s_sb, bias=nl.multiply(mx, -1.0))
                inv = nl.reciprocal(nl.sum(p, axis=[1]))
                o_ps = nl.zeros((P, D), nl.float32, buffer=nl.psum)
                for j in nl.affine_range(n_q):
                    nc_transpose_out = nl.ndarray((p[:, j * P:(j + 1) * P].shape[1], p[:, j * P:(j + 1) * P].shape[0]), dtype=nl.float32, buffer=nl.psum)
                    nisa.nc_transpose(nc_transpose_out, p[:, j * P:(j + 1) * P])
                    p_t = nl.copy(nc_transpose_out, dtype=v.dtype)
                    nisa.nc_matmul(o_ps, p_t, v_sb[:, j, :], accumulate=True)
                o = nl.ndarray(o_ps.shape, dtype=out.dtype, buffer=nl.sbuf)
                nisa.tensor_scalar(o, data=o_ps, op0=nl.multiply, operand0=inv)
                nl.store(out[b, h, i * P:(i + 1) * P, 0:D], value=o)
    return out
