import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def moe_dispatch_scale_kernel(x, idx, gate):
    """out[i] = x[idx[i]] * gate[i] for bfloat16 tokens x [T, D], int32 idx [S], bfloat16 gate [S].

    128 slots at a time (ragged last block): their indices are a [rows, 1] tile that drives an
    indirect DMA of the token rows; the per-row gate is a per-partition scalar applied in
    float32 before the single rounding to bfloat16.
    """
    T, D = x.shape
    S = idx.shape[0]
    P = nl.tile_size.pmax
    out = nl.ndarray((S, D), dtype=x.dtype, buffer=nl.shared_hbm)
    idx_col = idx.reshape((S, 1))
    gate_col = gate.reshape((S, 1))
    for r0 in nl.static_range(0, S, P):
        rows = min(P, S - r0)
        sel = nl.load(idx_col[r0:r0 + rows, 0:1])
        g = nl.load(gate_col[r0:r0 + rows, 0:1], dtype=nl.float32)
        tok = nl.load(x.ap([[x.strides[0], rows], [x.strides[1], D]], vector_offset=sel[0:rows, 0:1], indirect_dim=0), dtype=nl.float32)
        res = nl.ndarray(tok.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(res, data=tok, op0=nl.multiply, operand0=g)
        nl.store(out[r0:r0 + rows, 0:D], value=res)
    return out
