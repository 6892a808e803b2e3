import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def bidirectional_ema_kernel(x, decay_fwd, decay_bwd):
    """cat([EMA over t, EMA over reversed t], dim=1) for x [B, C, T]; C <= 128, T a
    multiple of 128.

    Channels on partitions, time on the free axis; each direction is one forward
    tensor_tensor_scan.  Time is reversed on TensorE: for a 128-step block, with the block
    transposed (time on partitions) as the stationary operand and the 128x128 anti-identity
    J as the moving one, nc_matmul yields the block with its columns reversed; block j lands
    at position n_t - 1 - j.  J is built from two affine_select bounds (i_p + i_f == 127).
    """
    B, C, T = x.shape
    P = nl.tile_size.pmax
    n_t = T // P
    out = nl.ndarray((B, 2 * C, T), dtype=x.dtype, buffer=nl.shared_hbm)

    i_p = nl.arange(P)[:, None]
    i_f = nl.arange(P)[None, :]
    ones = nl.ones((P, P), dtype=nl.float32, buffer=nl.sbuf)
    j_lo = nisa.affine_select(pred=(i_p + i_f - (P - 1) >= 0), on_true_tile=ones[i_p, i_f],
                              on_false_value=0.0)
    anti = nisa.affine_select(pred=((P - 1) - i_p - i_f >= 0), on_true_tile=j_lo[i_p, i_f],
                              on_false_value=0.0)

    coefs = []
    for d in (decay_fwd, decay_bwd):
        a = nl.sigmoid(nl.load(d.reshape((C, 1))), dtype=nl.float32)      # [C, 1]
        one_minus_a = nisa.tensor_scalar(data=a, op0=nl.multiply, operand0=-1.0,
                                         op1=nl.add, operand1=1.0)
        coefs.append((nl.broadcast_to(a, shape=(C, T)), one_minus_a))

    for b in nl.affine_range(B):
        a_f, w_f = coefs[0]
        u = nisa.tensor_scalar(data=nl.load(x[b, 0:C, 0:T]), op0=nl.multiply, operand0=w_f)
        y = nisa.tensor_tensor_scan(a_f, u, initial=0.0, op0=nl.multiply, op1=nl.add,
                                    dtype=nl.float32)
        nl.store(out[b, 0:C, 0:T], value=nl.copy(y, dtype=out.dtype))

        xr = nl.ndarray((C, T), dtype=nl.float32, buffer=nl.sbuf)          # x with time reversed
        for j in nl.affine_range(n_t):
            x_t = nl.load_transpose2d(x[b, 0:C, j * P:(j + 1) * P])         # [128 steps, C]
            k = n_t - 1 - j
            xr[:, k * P:(k + 1) * P] = nl.copy(nisa.nc_matmul(x_t, anti))
        a_b, w_b = coefs[1]
        ur = nisa.tensor_scalar(data=xr, op0=nl.multiply, operand0=w_b)
        yr = nisa.tensor_tensor_scan(a_b, ur, initial=0.0, op0=nl.multiply, op1=nl.add,
                                     dtype=nl.float32)
        for k in nl.affine_range(n_t):
            yr_t = nl.copy(nisa.nc_transpose(yr[:, k * P:(k + 1) * P]))    # [128 steps, C]
            j = n_t - 1 - k
            nl.store(out[b, C:2 * C, j * P:(j + 1) * P],
                     value=nl.copy(nisa.nc_matmul(yr_t, anti), dtype=out.dtype))
    return out
