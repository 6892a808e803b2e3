import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


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
    i_co = nl.arange(E3)[:, None]
    i_ci = nl.arange(S)[None, :]
    w3 = nl.ndarray((S, 9, E3), dtype=expand3x3_weight.dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(9):
        w3[:, tap, :] = nl.copy(nisa.nc_transpose(w3_sb[i_co, i_ci * 9 + tap]), dtype=expand3x3_weight.dtype)
    bs = nl.load(squeeze_bias.reshape((S, 1)), dtype=nl.float32)
    b1 = nl.load(expand1x1_bias.reshape((E1, 1)), dtype=nl.float32)
    b3 = nl.load(expand3x3_bias.reshape((E3, 1)), dtype=nl.float32)

    i_s = nl.arange(S)[:, None, None]
    i_e1 = nl.arange(E1)[:, None, None]
    i_e3 = nl.arange(E3)[:, None, None]
    i_h = nl.arange(H)[None, :, None]
    i_w = nl.arange(W)[None, None, :]
    for n in nl.affine_range(N):
        x_sb = nl.load(xr[n])                                                       # [Ci, HW]
        s = nisa.activation(op=nl.relu, data=nisa.nc_matmul(ws_t, x_sb), bias=bs, dtype=x.dtype)
        sp = nl.zeros((S, L), dtype=x.dtype, buffer=nl.sbuf)
        sp[i_s, (i_h + 1) * Wp + 1 + i_w] = s[i_s, i_h * W + i_w]
        e1 = nisa.activation(op=nl.relu, data=nisa.nc_matmul(w1_t, sp[:, Wp + 1:Wp + 1 + H * Wp]), bias=b1,
                             dtype=out.dtype)
        acc = nl.zeros((E3, H * Wp), nl.float32, buffer=nl.psum)
        for kh in nl.affine_range(3):
            for kw in nl.affine_range(3):
                start = kh * Wp + kw
                acc += nisa.nc_matmul(w3[:, kh * 3 + kw, :], sp[:, start:start + H * Wp])
        e3 = nisa.activation(op=nl.relu, data=acc, bias=b3, dtype=out.dtype)
        nl.store(out[n, i_e1, i_h, i_w], value=e1[i_e1, i_h * Wp + i_w])
        nl.store(out[n, E1 + i_e3, i_h, i_w], value=e3[i_e3, i_h * Wp + i_w])
    return out
