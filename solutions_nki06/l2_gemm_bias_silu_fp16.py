# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def gemm_bias_silu_kernel(x, weight, bias):
    """silu(x @ weight.T + bias) for x [M, K] with M not a multiple of 128.

    Row tile m covers rows m * P .. m * P + rows, rows = min(P, M - m * P), so the last tile
    is short. 0.6 has no masks: every tile of that row tile (the load, the transposed
    blocks, the PSUM accumulator, the bias rows, the result) is allocated with `rows`
    partitions, so no row beyond M is read or stored. Each 128-column block of the row
    tile is transposed on the Tensor Engine to form the stationary operand; the first
    matmul of a block overwrites the PSUM accumulator and the others add to it. K is a
    multiple of 128 and N <= 512.
    """
    M, K = x.shape
    N = weight.shape[0]
    P = nl.tile_size.pmax
    n_m = (M + P - 1) // P
    n_k = K // P
    out = nl.ndarray((M, N), dtype=x.dtype, buffer=nl.shared_hbm)

    w_t = nl.ndarray((P, n_k, N), dtype=weight.dtype, buffer=nl.sbuf)
    for k in range(n_k):
        w_t[0:P, k, 0:N] = nl.load_transpose2d(weight[0:N, k * P:(k + 1) * P])
    bias_row = nl.load(bias.reshape((1, N)), dtype=nl.float32)

    for m in range(n_m):
        r0 = m * P
        rows = min(P, M - r0)
        x_sb = nl.ndarray((rows, K), dtype=x.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=x_sb, src=x[r0:r0 + rows, 0:K])
        acc = nl.ndarray((rows, N), dtype=nl.float32, buffer=nl.psum)
        for k in range(n_k):
            xt_ps = nl.ndarray((P, rows), dtype=x.dtype, buffer=nl.psum)
            nisa.nc_transpose(dst=xt_ps, data=x_sb[0:rows, k * P:(k + 1) * P])
            x_t = nl.ndarray((P, rows), dtype=x.dtype, buffer=nl.sbuf)
            nisa.tensor_copy(dst=x_t, src=xt_ps)
            nisa.nc_matmul(dst=acc, stationary=x_t, moving=w_t[0:P, k, 0:N], accumulate=(k > 0))
        pre = nl.add(acc, nl.broadcast_to(bias_row, shape=(rows, N)), dtype=nl.float32)
        res = nl.ndarray((rows, N), dtype=out.dtype, buffer=nl.sbuf)
        nisa.activation(dst=res, op=nl.silu, data=pre)
        nl.store(out[r0:r0 + rows, 0:N], value=res)
    return out
