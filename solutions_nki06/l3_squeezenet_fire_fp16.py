import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def squeezenet_fire_kernel(x, squeeze_weight, squeeze_bias, expand1x1_weight, expand1x1_bias,
                           expand3x3_weight, expand3x3_bias):
    """cat(relu(e1x1(s)), relu(e3x3(s))), s = relu(squeeze(x)); fp16 x [N, Ci, H, W], H * (W + 2) <= 512.

    The squeeze output is written into a zero-padded, flattened [S, (H+2)*(W+2) + 2] buffer.
    The 3x3 expand is nine accumulating matmuls over contiguous windows of that buffer
    (two junk columns per row); the 1x1 expand reads the centre-tap window of the same
    buffer, so both branches share one layout and one set of valid-column picks.  The
    concatenation is just two stores into the two channel halves of the output.
    """
    N, Ci, H, W = x.shape
    S = squeeze_weight.shape[0]
    E1 = expand1x1_weight.shape[0]
    E3 = expand3x3_weight.shape[0]
    HW = H * W
    Wp = W + 2
    L = (H + 2) * Wp + 2
    out = nl.ndarray((N, E1 + E3, H, W), dtype=x.dtype, buffer=nl.shared_hbm)
    xr = x.reshape((N, Ci, HW))

    ws_t = nl.load_transpose2d(squeeze_weight.reshape((S, Ci))[0:S, 0:Ci])        # [Ci, S]
    w1_t = nl.load_transpose2d(expand1x1_weight.reshape((E1, S))[0:E1, 0:S])      # [S, E1]
    w3_sb = nl.load(expand3x3_weight.reshape((E3, S * 9)))
    w3 = nl.ndarray((S, 9, E3), dtype=expand3x3_weight.dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(9):
        nc_transpose_out = nl.ndarray((w3_sb[0:E3, tap:tap + 9 * (S - 1) + 1:9].shape[1], w3_sb[0:E3, tap:tap + 9 * (S - 1) + 1:9].shape[0]), dtype=nl.float16, buffer=nl.psum)
        nisa.nc_transpose(nc_transpose_out, w3_sb[0:E3, tap:tap + 9 * (S - 1) + 1:9])
        w3[:, tap, :] = nl.copy(nc_transpose_out, dtype=expand3x3_weight.dtype)
    bs = nl.load(squeeze_bias.reshape((S, 1)), dtype=nl.float32)
    b1 = nl.load(expand1x1_bias.reshape((E1, 1)), dtype=nl.float32)
    b3 = nl.load(expand3x3_bias.reshape((E3, 1)), dtype=nl.float32)

    for n in nl.affine_range(N):
        x_sb = nl.load(xr[n])                                                       # [Ci, HW]
        nc_matmul_out = nl.ndarray((ws_t.shape[1], x_sb.shape[1]), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_matmul(nc_matmul_out, ws_t, x_sb)
        s = nl.ndarray(nc_matmul_out.shape, dtype=x.dtype, buffer=nl.sbuf)
        nisa.activation(s, op=nl.relu, data=nc_matmul_out, bias=bs)
        sp = nl.zeros((S, L), dtype=x.dtype, buffer=nl.sbuf)
        sp.ap([[sp.strides[0], S], [Wp * sp.strides[1], H], [sp.strides[1], W]], offset=(Wp + 1) * sp.strides[1])[...] = s.ap([[s.strides[0], S], [W * s.strides[1], H], [s.strides[1], W]])
        nc_matmul_out2 = nl.ndarray((w1_t.shape[1], sp[:, Wp + 1:Wp + 1 + H * Wp].shape[1]), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_matmul(nc_matmul_out2, w1_t, sp[:, Wp + 1:Wp + 1 + H * Wp])
        e1 = nl.ndarray(nc_matmul_out2.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.activation(e1, op=nl.relu, data=nc_matmul_out2, bias=b1)
        acc = nl.zeros((E3, H * Wp), nl.float32, buffer=nl.psum)
        for kh in nl.affine_range(3):
            for kw in nl.affine_range(3):
                start = kh * Wp + kw
                nisa.nc_matmul(acc, w3[:, kh * 3 + kw, :], sp[:, start:start + H * Wp], accumulate=True)
        e3 = nl.ndarray(acc.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.activation(e3, op=nl.relu, data=acc, bias=b3)
        nl.store(out[n, 0:E1, 0:H, 0:W], value=e1.ap([[e1.strides[0], E1], [Wp * e1.strides[1], H], [e1.strides[1], W]]))
        nl.store(out[n, E1:E1 + E3, 0:H, 0:W], value=e3.ap([[e3.strides[0], E3], [Wp * e3.strides[1], H], [e3.strides[1], W]]))
    return out
