# nki-case: args=128x128:float32
# Causal (lower-triangular) masking with nisa.affine_select on an affine predicate of
# nl.mgrid indices; masked entries get a large negative fill value.
# expect-output: np.where(np.arange(128)[None, :] <= np.arange(128)[:, None], in0, np.float32(-30000.0))
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def causal_fill(scores):
    out = nl.ndarray(scores.shape, dtype=scores.dtype, buffer=nl.shared_hbm)
    row, col = nl.mgrid[0:128, 0:128]
    s = nl.load(scores)
    masked = nisa.affine_select(pred=(col <= row), on_true_tile=s[row, col], on_false_value=-30000.0)
    nl.store(out, value=masked)
    return out
