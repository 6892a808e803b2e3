import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

EPS = 1e-5


@nki.jit
def densenet_dense_block_kernel(x,
                                layers_0_0_weight, layers_0_0_bias, layers_0_2_weight, layers_1_0_weight,
                                layers_1_0_bias, layers_1_2_weight, layers_2_0_weight, layers_2_0_bias,
                                layers_2_2_weight, layers_3_0_weight, layers_3_0_bias, layers_3_2_weight,
                                layers_0_0_running_mean, layers_0_0_running_var, layers_1_0_running_mean,
                                layers_1_0_running_var, layers_2_0_running_mean, layers_2_0_running_var,
                                layers_3_0_running_mean, layers_3_0_running_var):
    """Four BN-ReLU-conv3x3 layers with dense concatenation, fp32 x [N, C0, H, W], H * (W + 2) / 2 <= 512.

    The concatenated features are kept as a list of channel chunks (the input, then one
    32-channel chunk per layer), so no layer needs a >128-partition tile.  For layer i, each
    chunk gets layer i's BatchNorm slice and ReLU as one activation with per-partition
    scale/shift, written into a zero-padded flattened buffer; the 3x3 conv then
    accumulates, for each chunk and tap, a matmul whose stationary operand is the tap's
    transposed weight slice [chunk channels, growth] (PE transposes of strided weight
    columns) into PSUM, in two halves of H/2 rows (one bank each).  Every chunk is stored at
    its channel offset of the output.
    """
    layers = [
        (layers_0_0_weight, layers_0_0_bias, layers_0_2_weight, layers_0_0_running_mean, layers_0_0_running_var),
        (layers_1_0_weight, layers_1_0_bias, layers_1_2_weight, layers_1_0_running_mean, layers_1_0_running_var),
        (layers_2_0_weight, layers_2_0_bias, layers_2_2_weight, layers_2_0_running_mean, layers_2_0_running_var),
        (layers_3_0_weight, layers_3_0_bias, layers_3_2_weight, layers_3_0_running_mean, layers_3_0_running_var),
    ]
    Nb, C0, H, W = x.shape
    G = layers[0][2].shape[0]
    HW = H * W
    Wp = W + 2
    Lp = (H + 2) * Wp + 2
    hh = H // 2
    Ctot = C0 + G * len(layers)
    out = nl.ndarray((Nb, Ctot, H, W), dtype=x.dtype, buffer=nl.shared_hbm)
    xr = x.reshape((Nb, C0, HW))
    outr = out.reshape((Nb, Ctot, HW))

    for n in nl.affine_range(Nb):
        chunks = [(0, C0, nl.load(xr[n]))]
        nl.store(outr[n, 0:C0, 0:HW], value=chunks[0][2])
        for li in nl.static_range(len(layers)):
            bw, bb, cw_, bm, bv = layers[li]
            cin = C0 + G * li
            w_sb = nl.load(cw_.reshape((G, cin * 9)))
            acc = [nl.zeros((G, hh * Wp), nl.float32, buffer=nl.psum) for _ in range(2)]
            for (c0, cn, feat) in chunks:
                gam = nl.load(bw.reshape((cin, 1))[c0:c0 + cn, 0:1])
                bet = nl.load(bb.reshape((cin, 1))[c0:c0 + cn, 0:1])
                mu = nl.load(bm.reshape((cin, 1))[c0:c0 + cn, 0:1])
                var = nl.load(bv.reshape((cin, 1))[c0:c0 + cn, 0:1])
                sc = nl.multiply(gam, nl.rsqrt(nl.add(var, EPS)))
                sh = nl.subtract(bet, nl.multiply(mu, sc))
                hp = nl.zeros((cn, Lp), dtype=nl.float32, buffer=nl.sbuf)
                act = nl.ndarray(feat.shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.activation(act, op=nl.relu, data=feat, scale=sc, bias=sh)
                hp.ap([[hp.strides[0], cn], [Wp * hp.strides[1], H], [hp.strides[1], W]], offset=(Wp + 1) * hp.strides[1])[...] = act.ap([[act.strides[0], cn], [W * act.strides[1], H], [act.strides[1], W]])
                for tap in nl.static_range(9):
                    nc_transpose_out = nl.ndarray((w_sb[0:G, 9 * c0 + tap:9 * c0 + tap + 9 * (cn - 1) + 1:9].shape[1], w_sb[0:G, 9 * c0 + tap:9 * c0 + tap + 9 * (cn - 1) + 1:9].shape[0]), dtype=nl.float32, buffer=nl.psum)
                    nisa.nc_transpose(nc_transpose_out, w_sb[0:G, 9 * c0 + tap:9 * c0 + tap + 9 * (cn - 1) + 1:9])
                    wt = nl.copy(nc_transpose_out)      # [cn, G]
                    for half in nl.static_range(2):
                        start = (half * hh + tap // 3) * Wp + tap % 3
                        nisa.nc_matmul(acc[half][...], wt, hp[:, start:start + hh * Wp], accumulate=True)
            new = nl.ndarray((G, HW), dtype=nl.float32, buffer=nl.sbuf)
            for half in nl.static_range(2):
                copy_tile = nl.copy(acc[half])
                new.ap([[new.strides[0], G], [W * new.strides[1], hh], [new.strides[1], W]], offset=W * half * hh * new.strides[1])[...] = copy_tile.ap([[copy_tile.strides[0], G], [Wp * copy_tile.strides[1], hh], [copy_tile.strides[1], W]])
            nl.store(outr[n, cin:cin + G, 0:HW], value=new)
            chunks.append((cin, G, new))
    return out
