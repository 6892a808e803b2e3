import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

TOP_K = 6


@nki.jit
def moe_router_topk_load_kernel(x, gate_weight):
    """Top-6 of softmax(x @ W^T) over E experts (8 <= E <= 512) plus each expert's share of tokens.

    fp32 x [T, D] (T, D multiples of 128).  Per 128-token tile: logits accumulate over the
    D/128 transposed x blocks against W^T [128, E] blocks; softmax along the free axis;
    max8 gives the 8 largest probabilities in descending order and nc_find_index8 their
    expert ids (the first 6 are kept).  A token is routed to expert e iff its probability
    is >= its 6th largest; that 0/1 mask is summed over tokens (the partition axis) by a
    matmul with a ones column, accumulated in PSUM over the token tiles.
    """
    T, D = x.shape
    E = gate_weight.shape[0]
    P = nl.tile_size.pmax
    n_d = D // P
    w_out = nl.ndarray((T, TOP_K), dtype=x.dtype, buffer=nl.shared_hbm)
    i_out = nl.ndarray((T, TOP_K), dtype=nl.int32, buffer=nl.shared_hbm)
    load = nl.ndarray((E,), dtype=x.dtype, buffer=nl.shared_hbm)

    g_t = nl.ndarray((P, n_d, E), dtype=gate_weight.dtype, buffer=nl.sbuf)
    for kd in nl.affine_range(n_d):
        g_t[:, kd, :] = nl.load_transpose2d(gate_weight[0:E, kd * P:(kd + 1) * P])
    ones = nl.ones((P, 1), dtype=nl.float32, buffer=nl.sbuf)
    cnt = nl.zeros((1, E), nl.float32, buffer=nl.psum)
    for t in nl.affine_range(T // P):
        acc = nl.zeros((P, E), nl.float32, buffer=nl.psum)
        for kd in nl.affine_range(n_d):
            x_t = nl.load_transpose2d(x[t * P:(t + 1) * P, kd * P:(kd + 1) * P])
            nisa.nc_matmul(acc, x_t, g_t[:, kd, :], accumulate=True)
        mx = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_reduce(mx, nl.maximum, data=acc, axis=(1,))
        e = nl.ndarray(acc.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(e, op=nl.exp, data=acc, bias=nl.multiply(mx, -1.0))
        probs = nl.multiply(e, nl.reciprocal(nl.sum(e, axis=[1])))
        top = nl.ndarray((128, 8), dtype=nl.float32, buffer=nl.sbuf)
        nisa.max8(top, src=probs)
        idx = nl.ndarray((128, 8), dtype=nl.uint32, buffer=nl.sbuf)
        nisa.nc_find_index8(idx, data=probs, vals=top)
        nl.store(w_out[t * P:(t + 1) * P, 0:TOP_K], value=nl.copy(top[:, 0:TOP_K]))
        nl.store(i_out[t * P:(t + 1) * P, 0:TOP_K], value=nl.copy(idx[:, 0:TOP_K], dtype=nl.int32))
        routed = nl.ndarray(probs.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(routed, data=probs, op0=nl.greater_equal, operand0=top[:, TOP_K - 1:TOP_K])
        nisa.nc_matmul(cnt, ones, routed, accumulate=True)
    nl.store(load.reshape((1, E)), value=nl.multiply(cnt, 1.0 / T))
    return w_out, i_out, load
