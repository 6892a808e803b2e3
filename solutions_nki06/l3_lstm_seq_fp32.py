import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def lstm_seq_kernel(x, weight_ih, weight_hh, bias_ih, bias_hh):
    """One-layer LSTM (PyTorch gate order i, f, g, o) over float32 x [B, T, I] from zero state.

    The state is kept transposed (h^T, c^T [H, B] with H <= 128 on partitions), so every gate
    of a step is two accumulating matmuls into a [H, B] PSUM tile (W_ih^T and W_hh^T gate
    slices as stationary operands) followed by one activation whose per-partition bias is
    b_ih + b_hh.  The time loop is unrolled (each step needs the previous state); h_t is
    PE-transposed back to [B, H] for the output sequence.
    """
    B, T, I = x.shape
    H4 = weight_ih.shape[0]
    H = H4 // 4
    out = nl.ndarray((B, T, H), dtype=x.dtype, buffer=nl.shared_hbm)
    c_out = nl.ndarray((1, B, H), dtype=x.dtype, buffer=nl.shared_hbm)

    wih_t = nl.load_transpose2d(weight_ih[0:H4, 0:I])                       # [I, 4H]
    whh_t = nl.load_transpose2d(weight_hh[0:H4, 0:H])                       # [H, 4H]
    bih = bias_ih.reshape((H4, 1))
    bhh = bias_hh.reshape((H4, 1))
    bias = []
    for g in nl.static_range(4):
        bias.append(nl.add(nl.load(bih[g * H:(g + 1) * H, 0:1]), nl.load(bhh[g * H:(g + 1) * H, 0:1])))
    acts = [nl.sigmoid, nl.sigmoid, nl.tanh, nl.sigmoid]

    h_t = nl.zeros((H, B), dtype=nl.float32, buffer=nl.sbuf)
    c_t = nl.zeros((H, B), dtype=nl.float32, buffer=nl.sbuf)
    for t in nl.static_range(T):
        x_t = nl.load_transpose2d(x[0:B, t, 0:I])                            # [I, B]
        gates = []
        for g in nl.static_range(4):
            ps = nl.zeros((H, B), nl.float32, buffer=nl.psum)
            nisa.nc_matmul(ps, wih_t[:, g * H:(g + 1) * H], x_t, accumulate=True)
            nisa.nc_matmul(ps, whh_t[:, g * H:(g + 1) * H], h_t, accumulate=True)
            activation_out = nl.ndarray(ps.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.activation(activation_out, op=acts[g], data=ps, bias=bias[g])
            gates.append(activation_out)
        c_t = nl.add(nl.multiply(gates[1], c_t), nl.multiply(gates[0], gates[2]))
        h_t = nl.multiply(gates[3], nl.tanh(c_t))
        nc_transpose_out = nl.ndarray((h_t.shape[1], h_t.shape[0]), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_transpose(nc_transpose_out, h_t)
        nl.store(out[0:B, t, 0:H], value=nl.copy(nc_transpose_out, dtype=out.dtype))
    nc_transpose_out2 = nl.ndarray((c_t.shape[1], c_t.shape[0]), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_transpose(nc_transpose_out2, c_t)
    nl.store(c_out[0], value=nl.copy(nc_transpose_out2, dtype=c_out.dtype))
    return out, c_out
