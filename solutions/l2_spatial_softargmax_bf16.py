import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def spatial_softargmax_kernel(heatmap):
    """(E[x], E[y]) under softmax over the H * W pixels of bfloat16 heatmap [B, K, H, W], B * K <= 128.

    One heatmap per partition, its pixels along the free axis.  After a max-shifted
    exponential (float32), the pixel weights are summed over rows and over columns (the
    flattened tile indexed as [H, W]); the marginals are dotted with the linspace(-1, 1)
    grids built from iota, and divided by the total weight.
    """
    B, K, H, W = heatmap.shape
    R = B * K
    HW = H * W
    out = nl.ndarray((B, K, 2), dtype=heatmap.dtype, buffer=nl.shared_hbm)
    hv = heatmap.reshape((R, HW))
    ov = out.reshape((R, 2))
    i_p = nl.arange(R)[:, None, None]
    i_h = nl.arange(H)[None, :, None]
    i_w = nl.arange(W)[None, None, :]

    x = nl.load(hv, dtype=nl.float32)                                  # [R, HW]
    mx = nisa.tensor_reduce(np.max, data=x, axis=(1,), dtype=nl.float32)
    e = nisa.activation(op=nl.exp, data=x, bias=nl.multiply(mx, -1.0), dtype=nl.float32)
    tot = nl.sum(e, axis=[1], keepdims=True)
    e3 = e[i_p, i_h * W + i_w]                                         # [R, H, W]
    col = nl.sum(e3, axis=[1])                                         # [R, W]: weight per column
    row = nl.sum(e3, axis=[2])                                         # [R, H]: weight per row
    xs = nl.add(nl.multiply(nisa.iota(nl.arange(W)[None, :], dtype=nl.float32), 2.0 / (W - 1)), -1.0)
    ys = nl.add(nl.multiply(nisa.iota(nl.arange(H)[None, :], dtype=nl.float32), 2.0 / (H - 1)), -1.0)
    ex = nl.sum(nl.multiply(col, nl.broadcast_to(xs, shape=(R, W))), axis=[1], keepdims=True)
    ey = nl.sum(nl.multiply(row, nl.broadcast_to(ys, shape=(R, H))), axis=[1], keepdims=True)
    inv = nisa.reciprocal(tot)
    res = nl.ndarray((R, 2), dtype=heatmap.dtype, buffer=nl.sbuf)
    res[:, 0:1] = nl.multiply(ex, inv, dtype=heatmap.dtype)
    res[:, 1:2] = nl.multiply(ey, inv, dtype=heatmap.dtype)
    nl.store(ov, value=res)
    return out
