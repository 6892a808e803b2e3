import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def moe_router_top2_kernel(x, gate_weight):
    """Top-2 MoE routing for float32 x [T, D] and gate_weight [E, D], 8 <= E <= 512.

    logits = x @ gate_weight.T (tokens on partitions, static ragged last block), softmax
    over the experts, then max8 gives the 8 largest probabilities in descending order and
    nc_find_index8 their expert indices; the first two are kept and the weights
    renormalised to sum to one.
    """
    T, D = x.shape
    E = gate_weight.shape[0]
    P = nl.tile_size.pmax
    w_out = nl.ndarray((T, 2), dtype=x.dtype, buffer=nl.shared_hbm)
    i_out = nl.ndarray((T, 2), dtype=nl.int32, buffer=nl.shared_hbm)

    g_t = []
    for k0 in nl.static_range(0, D, P):
        g_t.append(nl.load_transpose2d(gate_weight[0:E, k0:k0 + P]))         # [128, E]
    for t0 in nl.static_range(0, T, P):
        rows = min(P, T - t0)
        acc = nl.zeros((rows, E), nl.float32, buffer=nl.psum)
        for kb in nl.static_range(D // P):
            x_t = nl.load_transpose2d(x[t0:t0 + rows, kb * P:(kb + 1) * P])  # [128, rows]
            nisa.nc_matmul(acc, x_t, g_t[kb], accumulate=True)
        mx = nl.ndarray((acc.shape[0], 1), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_reduce(mx, nl.maximum, data=acc, axis=(1,))
        e = nl.ndarray(acc.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(e, op=nl.exp, data=acc, bias=nl.multiply(mx, -1.0))
        probs = nl.multiply(e, nl.reciprocal(nl.sum(e, axis=[1])))
        top = nl.ndarray((probs.shape[0], 8), dtype=nl.float32, buffer=nl.sbuf)
        nisa.max8(top, src=probs)                                            # [rows, 8], descending
        idx = nl.ndarray((probs.shape[0], 8), dtype=nl.uint32, buffer=nl.sbuf)
        nisa.nc_find_index8(idx, data=probs, vals=top)                       # [rows, 8] uint32
        reciprocal_data = nl.add(top[:, 0:1], top[:, 1:2])
        inv = nl.ndarray(reciprocal_data.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.reciprocal(inv, reciprocal_data)
        tensor_scalar_out = nl.ndarray(top[:, 0:2].shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(tensor_scalar_out, data=top[:, 0:2], op0=nl.multiply, operand0=inv)
        nl.store(w_out[t0:t0 + rows, 0:2], value=tensor_scalar_out)
        nl.store(i_out[t0:t0 + rows, 0:2], value=nl.copy(idx[:, 0:2], dtype=nl.int32))
    return w_out, i_out
