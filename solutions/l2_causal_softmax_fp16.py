import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

MASK_VALUE = -9984.0


@nki.jit
def causal_softmax_kernel(scores):
    """Causal softmax over the last dim of fp16 scores [B, S, S]: column j > row i is excluded.

    Each 128-row tile gets the causal mask from affine_select with a predicate on the
    global row index, then a row softmax in fp32.
    """
    B, S, S2 = scores.shape
    P = nl.tile_size.pmax
    n_r = S // P
    out = nl.ndarray((B, S, S2), dtype=scores.dtype, buffer=nl.shared_hbm)

    i_p = nl.arange(P)[:, None]
    i_f = nl.arange(S2)[None, :]
    for b in nl.affine_range(B):
        for r in nl.affine_range(n_r):
            s_sb = nl.load(scores[b, r * P:(r + 1) * P, 0:S2], dtype=nl.float32)
            masked = nisa.affine_select(pred=(r * P + i_p - i_f >= 0),
                                        on_true_tile=s_sb[i_p, i_f],
                                        on_false_value=MASK_VALUE)
            row_max = nl.max(masked, axis=[1])
            neg_max = nl.multiply(row_max, -1.0)
            e = nisa.activation(op=nl.exp, data=masked, bias=neg_max)
            inv = nl.reciprocal(nl.sum(e, axis=[1]))
            res = nisa.tensor_scalar(data=e, op0=nl.multiply, operand0=inv, dtype=out.dtype)
            nl.store(out[b, r * P:(r + 1) * P, 0:S2], value=res)
    return out
