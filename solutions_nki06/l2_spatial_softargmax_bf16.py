# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def spatial_softargmax_kernel(heatmap):
    """(E[x], E[y]) under softmax over the H * W pixels of bfloat16 heatmap [B, K, H, W], B * K <= 128.

    One heatmap per partition, its pixels along the free axis. After a max-shifted
    exponential (float32), the pixel weights are summed over rows and over columns (the
    tile viewed as [R, H, W]); the marginals are dotted with the linspace(-1, 1) grids built
    from iota, and divided by the total weight.
    """
    B, K, H, W = heatmap.shape
    R = B * K
    HW = H * W
    out = nl.ndarray((B, K, 2), dtype=heatmap.dtype, buffer=nl.shared_hbm)
    hv = heatmap.reshape((R, HW))
    ov = out.reshape((R, 2))

    x = nl.load(hv[0:R, 0:HW], dtype=nl.float32)                        # [R, HW]
    mx = nl.ndarray((R, 1), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_reduce(dst=mx, op=nl.maximum, data=x, axis=1)
    e = nl.ndarray((R, HW), dtype=nl.float32, buffer=nl.sbuf)
    nisa.activation(dst=e, op=nl.exp, data=x, bias=nl.multiply(mx, -1.0))
    tot = nl.sum(e, axis=1, keepdims=True)
    e3 = e.reshape((R, H, W))
    col = nl.sum(e3, axis=1)                                            # [R, W]: weight per column
    row = nl.sum(e3, axis=2)                                            # [R, H]: weight per row
    xi = nl.ndarray((R, W), dtype=nl.float32, buffer=nl.sbuf)
    nisa.iota(xi, [[1, W]], offset=0, channel_multiplier=0)
    yi = nl.ndarray((R, H), dtype=nl.float32, buffer=nl.sbuf)
    nisa.iota(yi, [[1, H]], offset=0, channel_multiplier=0)
    xs = nl.add(nl.multiply(xi, 2.0 / (W - 1)), -1.0)
    ys = nl.add(nl.multiply(yi, 2.0 / (H - 1)), -1.0)
    ex = nl.sum(nl.multiply(col, xs), axis=1, keepdims=True)
    ey = nl.sum(nl.multiply(row, ys), axis=1, keepdims=True)
    inv = nl.ndarray((R, 1), dtype=nl.float32, buffer=nl.sbuf)
    nisa.reciprocal(dst=inv, data=tot)
    res = nl.ndarray((R, 2), dtype=heatmap.dtype, buffer=nl.sbuf)
    nisa.tensor_tensor(dst=res[0:R, 0:1], data1=ex, data2=inv, op=nl.multiply)
    nisa.tensor_tensor(dst=res[0:R, 1:2], data1=ey, data2=inv, op=nl.multiply)
    nl.store(ov[0:R, 0:2], value=res)
    return out
