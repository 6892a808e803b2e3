import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


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
            lg += nisa.nc_matmul(x_t[:, kd, t0:t0 + rows], g_t[:, kd, :])
        nl.store(logits_out[t0:t0 + rows, 0:E], value=nl.copy(lg, dtype=x.dtype))
        mx = nisa.tensor_reduce(np.max, data=lg, axis=(1,), dtype=nl.float32)
        ex = nisa.activation(op=nl.exp, data=lg, bias=nl.multiply(mx, -1.0), dtype=nl.float32)
        probs = nl.multiply(ex, nl.reciprocal(nl.sum(ex, axis=[1])))
        top = nisa.max8(src=probs)
        inv = nl.reciprocal(nl.add(top[:, 0:1], top[:, 1:2]))
        mask = nisa.tensor_scalar(data=probs, op0=nl.greater_equal, operand0=top[:, 1:2])
        coeffs.append(nisa.tensor_scalar(data=nl.multiply(probs, mask), op0=nl.multiply, operand0=inv))
        accs.append(nl.zeros((rows, D), dtype=nl.float32, buffer=nl.sbuf))

    for e in nl.static_range(E):
        h_t = nl.ndarray((P, n_f, T), dtype=x.dtype, buffer=nl.sbuf)
        w2_t = nl.ndarray((P, n_f, D), dtype=w2.dtype, buffer=nl.sbuf)
        for f in nl.affine_range(n_f):
            a_ps = nl.zeros((P, T), nl.float32, buffer=nl.psum)
            b_ps = nl.zeros((P, T), nl.float32, buffer=nl.psum)
            for kd in nl.affine_range(n_d):
                a_ps += nisa.nc_matmul(nl.load_transpose2d(w1[e, f * P:(f + 1) * P, kd * P:(kd + 1) * P]),
                                       x_t[:, kd, :])
                b_ps += nisa.nc_matmul(nl.load_transpose2d(w3[e, f * P:(f + 1) * P, kd * P:(kd + 1) * P]),
                                       x_t[:, kd, :])
            h_t[:, f, :] = nl.multiply(nisa.activation(op=nl.silu, data=a_ps, dtype=nl.float32), b_ps,
                                       dtype=x.dtype)
            w2_t[:, f, :] = nl.load_transpose2d(w2[e, 0:D, f * P:(f + 1) * P])
        for ti in nl.static_range(len(tiles)):
            t0, rows = tiles[ti]
            y_ps = nl.zeros((rows, D), nl.float32, buffer=nl.psum)
            for f in nl.affine_range(n_f):
                y_ps += nisa.nc_matmul(h_t[:, f, t0:t0 + rows], w2_t[:, f, :])
            accs[ti] = nl.add(accs[ti], nisa.tensor_scalar(data=y_ps, op0=nl.multiply,
                                                           operand0=coeffs[ti][:, e:e + 1]))
    for ti in nl.static_range(len(tiles)):
        t0, rows = tiles[ti]
        nl.store(out[t0:t0 + rows, 0:D], value=nl.copy(accs[ti], dtype=out.dtype))
    return out, logits_out
