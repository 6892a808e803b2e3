import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def gated_scan_state_kernel(x, g, h0):
    """h_t = a_t h_{t-1} + (1 - a_t) x_t with a = sigmoid(g), h_{-1} = h0; returns (h, h_T).

    x, g [B, C, T] with C <= 128: channels on partitions, time on the free axis.  The whole
    recurrence is one tensor_tensor_scan per batch element whose initial value is the
    per-partition column h0[b] (a [C, 1] operand); the final state is the last column.
    """
    B, C, T = x.shape
    h_seq = nl.ndarray((B, C, T), dtype=x.dtype, buffer=nl.shared_hbm)
    h_fin = nl.ndarray((B, C), dtype=x.dtype, buffer=nl.shared_hbm)

    for b in nl.affine_range(B):
        a = nl.sigmoid(nl.load(g[b, 0:C, 0:T]), dtype=nl.float32)
        one_minus_a = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(one_minus_a, data=a, op0=nl.multiply, operand0=-1.0, op1=nl.add, operand1=1.0)
        u = nl.multiply(one_minus_a, nl.load(x[b, 0:C, 0:T]))
        init = nl.load_transpose2d(h0[b:b + 1, 0:C])                    # [C, 1]
        h = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_tensor_scan(h, a, u, initial=init, op0=nl.multiply, op1=nl.add)
        nl.store(h_seq[b, 0:C, 0:T], value=h)
        nc_transpose_out = nl.ndarray((h[:, T - 1:T].shape[1], h[:, T - 1:T].shape[0]), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_transpose(nc_transpose_out, h[:, T - 1:T])
        nl.store(h_fin[b:b + 1, 0:C], value=nc_transpose_out)
    return h_seq, h_fin
