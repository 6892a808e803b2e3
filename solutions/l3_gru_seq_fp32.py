import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


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
        ps_r += nisa.nc_matmul(wih_t[:, 0:H], x_t)
        ps_r += nisa.nc_matmul(whh_t[:, 0:H], h_t)
        r = nisa.activation(op=nl.sigmoid, data=ps_r, bias=b_r, dtype=nl.float32)
        ps_z = nl.zeros((H, B), nl.float32, buffer=nl.psum)
        ps_z += nisa.nc_matmul(wih_t[:, H:2 * H], x_t)
        ps_z += nisa.nc_matmul(whh_t[:, H:2 * H], h_t)
        z = nisa.activation(op=nl.sigmoid, data=ps_z, bias=b_z, dtype=nl.float32)
        xn = nisa.activation(op=nl.copy, data=nisa.nc_matmul(wih_t[:, 2 * H:3 * H], x_t),
                             bias=b_in, dtype=nl.float32)
        hn = nisa.activation(op=nl.copy, data=nisa.nc_matmul(whh_t[:, 2 * H:3 * H], h_t),
                             bias=b_hn, dtype=nl.float32)
        n = nl.tanh(nl.add(xn, nl.multiply(r, hn)))
        h_t = nl.add(n, nl.multiply(z, nl.subtract(h_t, n)))
        nl.store(out[0:B, t, 0:H], value=nl.copy(nisa.nc_transpose(h_t), dtype=out.dtype))
    nl.store(h_out[0], value=nl.copy(nisa.nc_transpose(h_t), dtype=h_out.dtype))
    return out, h_out
