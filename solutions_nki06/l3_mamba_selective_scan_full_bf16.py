import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def mamba_selective_scan_full_kernel(u, delta, B, C, z, A_log, D, dt_bias):
    """Mamba selective scan with softplus(delta + dt_bias), D skip and silu(z) gate; bf16 [Bt, Ch, L].

    Channels on partitions (128 per tile), time on the free axis, all statistics in fp32.
    dt = softplus(delta + dt_bias) is one activation with a per-partition bias; for each
    state n, exp(dt * A[:, n]) is one activation whose scale is the per-partition column
    A[:, n] = -exp(A_log[:, n]); the recurrence h_t = dA_t h_{t-1} + dt_t u_t B_t[n] is one
    tensor_tensor_scan over [128, L], with the B and C rows of state n broadcast across
    the partitions; y accumulates C[n] * h over the (unrolled) state loop.
    """
    Bt, Ch, L = u.shape
    S = A_log.shape[1]
    P = nl.tile_size.pmax
    out = nl.ndarray((Bt, Ch, L), dtype=u.dtype, buffer=nl.shared_hbm)
    d_col = D.reshape((Ch, 1))
    db_col = dt_bias.reshape((Ch, 1))

    for ct in nl.affine_range(Ch // P):
        c0 = ct * P
        a_sb = nl.multiply(nl.exp(nl.load(A_log[c0:c0 + P, 0:S], dtype=nl.float32)), -1.0)   # [128, S]
        d_sb = nl.load(d_col[c0:c0 + P, 0:1], dtype=nl.float32)
        db_sb = nl.load(db_col[c0:c0 + P, 0:1], dtype=nl.float32)
        for b in nl.affine_range(Bt):
            u_sb = nl.load(u[b, c0:c0 + P, 0:L], dtype=nl.float32)
            dt = nl.ndarray((128, 1024), dtype=nl.float32, buffer=nl.sbuf)
            nisa.activation(dt, op=nl.softplus, data=nl.load(delta[b, c0:c0 + P, 0:L], dtype=nl.float32), bias=db_sb)
            du = nl.multiply(dt, u_sb)
            y = nl.ndarray(u_sb.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(y, data=u_sb, op0=nl.multiply, operand0=d_sb)               # D * u
            for s in nl.static_range(S):
                dA = nl.ndarray(dt.shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.activation(dA, op=nl.exp, data=dt, scale=a_sb[:, s:s + 1])
                b_row = nl.broadcast_to(nl.load(B[b, s:s + 1, 0:L], dtype=nl.float32), shape=(P, L))
                c_row = nl.broadcast_to(nl.load(C[b, s:s + 1, 0:L], dtype=nl.float32), shape=(P, L))
                h = nl.ndarray(dA.shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.tensor_tensor_scan(h, dA, nl.multiply(du, b_row), initial=0.0, op0=nl.multiply, op1=nl.add)
                y = nl.add(y, nl.multiply(h, c_row))
            gate = nl.ndarray((128, 1024), dtype=nl.float32, buffer=nl.sbuf)
            nisa.activation(gate, op=nl.silu, data=nl.load(z[b, c0:c0 + P, 0:L], dtype=nl.float32))
            nl.store(out[b, c0:c0 + P, 0:L], value=nl.multiply(y, gate, dtype=out.dtype))
    return out
