import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def vanilla_rnn_kernel(x, h0, i2h_weight, i2h_bias, h2o_weight, h2o_bias):
    """Elman RNN over x [T, B, I] with h0 [B, H]: h = tanh(W [x_t; h] + b), y_t = h @ Wo.T + bo.

    The state is kept transposed, h^T [H, B] with H <= 128 on partitions, so each step is
    two accumulating matmuls into one PSUM tile (W_x^T as stationary against x_t^T, W_h^T
    against h^T) and a tanh with a per-partition bias; y_t [B, O] comes from h^T as the
    stationary operand.  The time loop is unrolled (static_range) because every step
    depends on the previous one.
    """
    T, B, I = x.shape
    H = h0.shape[1]
    O = h2o_weight.shape[0]
    y_out = nl.ndarray((T, B, O), dtype=x.dtype, buffer=nl.shared_hbm)
    h_out = nl.ndarray((B, H), dtype=x.dtype, buffer=nl.shared_hbm)

    wx_t = nl.load_transpose2d(i2h_weight[0:H, 0:I])                         # [I, H]
    wh_t = nl.load_transpose2d(i2h_weight[0:H, I:I + H])                     # [H, H]
    wo_t = nl.load_transpose2d(h2o_weight[0:O, 0:H])                         # [H, O]
    bh = nl.load(i2h_bias.reshape((H, 1)))
    bo = nl.broadcast_to(nl.load(h2o_bias.reshape((1, O))), shape=(B, O))

    h_t = nl.load_transpose2d(h0[0:B, 0:H])                                  # [H, B]
    for t in nl.static_range(T):
        x_t = nl.load_transpose2d(x[t, 0:B, 0:I])                             # [I, B]
        ps = nl.zeros((H, B), nl.float32, buffer=nl.psum)
        nisa.nc_matmul(ps, wx_t, x_t, accumulate=True)
        nisa.nc_matmul(ps, wh_t, h_t, accumulate=True)
        h_t = nl.ndarray(ps.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(h_t, op=nl.tanh, data=ps, bias=bh)
        y_ps = nl.ndarray((h_t.shape[1], wo_t.shape[1]), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_matmul(y_ps, h_t, wo_t)                                       # [B, O]
        nl.store(y_out[t], value=nl.add(y_ps, bo, dtype=y_out.dtype))
    nc_transpose_out = nl.ndarray((h_t.shape[1], h_t.shape[0]), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_transpose(nc_transpose_out, h_t)
    nl.store(h_out, value=nl.copy(nc_transpose_out, dtype=h_out.dtype))
    return y_out, h_out
