# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def moe_dispatch_scale_kernel(x, idx, gate):
    """out[i] = x[idx[i]] * gate[i] for bfloat16 tokens x [T, D], int32 idx [S], bfloat16 gate [S].

    128 slots at a time (ragged last block): their indices are a [rows, 1] column, the vector
    offset of an indirect DMA of the token rows; the per-row gate is a per-partition scalar
    applied in float32 before the single rounding to bfloat16.
    """
    T, D = x.shape
    S = idx.shape[0]
    P = nl.tile_size.pmax
    out = nl.ndarray((S, D), dtype=x.dtype, buffer=nl.shared_hbm)
    idx_col = idx.reshape((S, 1))
    gate_col = gate.reshape((S, 1))
    for r0 in nl.static_range(0, S, P):
        rows = min(P, S - r0)
        sel = nl.ndarray((rows, 1), dtype=nl.int32, buffer=nl.sbuf)
        nisa.dma_copy(dst=sel, src=idx_col[r0:r0 + rows, 0:1])
        g = nl.load(gate_col[r0:r0 + rows, 0:1], dtype=nl.float32)
        tok = nl.ndarray((rows, D), dtype=x.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=tok, src=x.ap([[D, rows], [1, D]], offset=0, vector_offset=sel, indirect_dim=0))
        res = nl.ndarray((rows, D), dtype=out.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=res, data=tok, op0=nl.multiply, operand0=g)
        nisa.dma_copy(dst=out[r0:r0 + rows, 0:D], src=res)
    return out
