import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


SCALE = 0.5
LO = -2.0
HI = 2.0


@nki.jit
def gemm_scaling_hardtanh_gelu_kernel(x, linear_weight, linear_bias):
    """gelu(hardtanh((x @ W.T + b) * SCALE, LO, HI)) for bfloat16 x [B, S, K], W [N, K].

    The leading axes are flattened to B * S rows (ragged last block of 128); K a multiple of
    128, N <= 512.  Bias, scale and clamp are float32 Vector-engine steps on the PSUM
    accumulator, the exact GELU runs on the Scalar engine and rounds to bfloat16 once.
    """
    B, S, K = x.shape
    N = linear_weight.shape[0]
    M = B * S
    P = nl.tile_size.pmax
    n_k = K // P
    out = nl.ndarray((B, S, N), dtype=x.dtype, buffer=nl.shared_hbm)
    xv = x.reshape((M, K))
    ov = out.reshape((M, N))
    w_t = nl.ndarray((P, n_k, N), dtype=linear_weight.dtype, buffer=nl.sbuf)
    for k in nl.affine_range(n_k):
        w_t[:, k, :] = nl.load_transpose2d(linear_weight[0:N, k * P:(k + 1) * P])
    bias_b = nl.broadcast_to(nl.load(linear_bias.reshape((1, N)), dtype=nl.float32), shape=(P, N))
    for m0 in nl.static_range(0, M, P):
        rows = min(P, M - m0)
        acc = nl.zeros((rows, N), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(n_k):
            x_t = nl.load_transpose2d(xv[m0:m0 + rows, k * P:(k + 1) * P])
            nisa.nc_matmul(acc, x_t, w_t[:, k, :], accumulate=True)
        y = nl.add(acc, bias_b[0:rows, 0:N])
        tensor_scalar_out = nl.ndarray(y.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(tensor_scalar_out, data=y, op0=nl.multiply, operand0=SCALE, op1=nl.maximum, operand1=LO)
        y = tensor_scalar_out
        y = nl.minimum(y, HI)
        activation_out = nl.ndarray(y.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.activation(activation_out, op=nl.gelu, data=y)
        nl.store(ov[m0:m0 + rows, 0:N], value=activation_out)
    return out
