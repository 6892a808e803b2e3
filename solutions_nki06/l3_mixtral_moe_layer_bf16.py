import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def mixtral_moe_layer_kernel(x, w1, w3, w2, gate_weight):
    """Top-2 of 8 SwiGLU experts: returns (sum_k w_k Expert_k(x), router logits); bf16 x [T, D], T <= 512.

    Router per 128-token tile: logits from transposed x blocks and W_gate^T, softmax in
    fp32, max8 sorts all 8 probabilities, the two largest give the renormalised weights,
    and probs >= second largest marks the chosen experts; coeff = probs * mask / (p1 + p2).
    Each expert runs over all tokens at once (silu(W1 x) * (W3 x))^T [F, T] with its
    transposed weight blocks as stationary operand, rounded to bf16, then W2 per token tile
    in PSUM, scaled per token by coeff[:, e] and accumulated in fp32.
    """
    T, D = x.shape
    E, F = w1.shape[0], w1.shape[1]
    P = nl.tile_size.pmax
    n_d = D // P
    n_f = F // P
    out = nl.ndarray((T, D), dtype=x.dtype, buffer=nl.shared_hbm)
    logits_out = nl.ndarray((T, E), dtype=x.dtype, buffer=nl.shared_hbm)
    tiles = [(t0, min(P, T - t0)) for t0 in range(0, T, P)]

    g_t = nl.ndarray((P, n_d, E), dtype=gate_weight.dtype, buffer=nl.sbuf)
    for kd in nl.affine_range(n_d):
        g_t[:, kd, :] = nl.load_transpose2d(gate_weight[0:E, kd * P:(kd + 1) * P])
    x_t = nl.ndarray((P, n_d, T), dtype=x.dtype, buffer=nl.sbuf)
    coeffs = []
    accs = []
    for (t0, rows) in tiles:
        for kd in nl.affine_range(n_d):
            x_t[:, kd, t0:t0 + rows] = nl.load_transpose2d(x[t0:t0 + rows, kd * P:(kd + 1) * P])
        lg = nl.zeros((rows, E), nl.float32, buffer=nl.psum)
        for kd in nl.affine_range(n_d):
            nisa.nc_matmul(lg, x_t[:, kd, t0:t0 + rows], g_t[:, kd, :], accumulate=True)
        nl.store(logits_out[t0:t0 + rows, 0:E], value=nl.copy(lg, dtype=x.dtype))
        mx = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_reduce(mx, nl.maximum, data=lg, axis=(1,))
        ex = nl.ndarray(lg.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(ex, op=nl.exp, data=lg, bias=nl.multiply(mx, -1.0))
        probs = nl.multiply(ex, nl.reciprocal(nl.sum(ex, axis=[1])))
        top = nl.ndarray((128, 8), dtype=nl.float32, buffer=nl.sbuf)
        nisa.max8(top, src=probs)
        inv = nl.reciprocal(nl.add(top[:, 0:1], top[:, 1:2]))
        mask = nl.ndarray(probs.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(mask, data=probs, op0=nl.greater_equal, operand0=top[:, 1:2])
        tensor_scalar_out = nl.ndarray((128, 8), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(tensor_scalar_out, data=nl.multiply(probs, mask), op0=nl.multiply, operand0=inv)
        coeffs.append(tensor_scalar_out)
        accs.append(nl.zeros((rows, D), dtype=nl.float32, buffer=nl.sbuf))

    for e in nl.static_range(E):
        h_t = nl.ndarray((P, n_f, T), dtype=x.dtype, buffer=nl.sbuf)
        w2_t = nl.ndarray((P, n_f, D), dtype=w2.dtype, buffer=nl.sbuf)
        for f in nl.affine_range(n_f):
            a_ps = nl.zeros((P, T), nl.float32, buffer=nl.psum)
            b_ps = nl.zeros((P, T), nl.float32, buffer=nl.psum)
            for kd in nl.affine_range(n_d):
                nisa.nc_matmul(a_ps, nl.load_transpose2d(w1[e, f * P:(f + 1) * P, kd * P:(kd + 1) * P]), x_t[:, kd, :], accumulate=True)
                nisa.nc_matmul(b_ps, nl.load_transpose2d(w3[e, f * P:(f + 1) * P, kd * P:(kd + 1) * P]), x_t[:, kd, :], accumulate=True)
            activation_out = nl.ndarray(a_ps.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.activation(activation_out, op=nl.silu, data=a_ps)
            h_t[:, f, :] = nl.multiply(activation_out, b_ps,
                                       dtype=x.dtype)
            w2_t[:, f, :] = nl.load_transpose2d(w2[e, 0:D, f * P:(f + 1) * P])
        for ti in nl.static_range(len(tiles)):
            t0, rows = tiles[ti]
            y_ps = nl.zeros((rows, D), nl.float32, buffer=nl.psum)
            for f in nl.affine_range(n_f):
                nisa.nc_matmul(y_ps, h_t[:, f, t0:t0 + rows], w2_t[:, f, :], accumulate=True)
            tensor_scalar_out2 = nl.ndarray(y_ps.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(tensor_scalar_out2, data=y_ps, op0=nl.multiply, operand0=coeffs[ti][:, e:e + 1])
            accs[ti] = nl.add(accs[ti], tensor_scalar_out2)
    for ti in nl.static_range(len(tiles)):
        t0, rows = tiles[ti]
        nl.store(out[t0:t0 + rows, 0:D], value=nl.copy(accs[ti], dtype=out.dtype))
    return out, logits_out
