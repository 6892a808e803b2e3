# nki-case: args=128x128:float32,128x128:float32
# Causal masking of a matmul result straight from PSUM with nisa.affine_select, as the official
# nki-samples flash attention kernel does (accepted by the 2.24 compiler although affine_select
# runs on GpSimd).
# expect-output: np.where(np.arange(128)[None, :] <= np.arange(128)[:, None], in0.T @ in1, np.float32(-30000.0))
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def masked_scores(q_t, k):
    out = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.shared_hbm)
    row, col = nl.mgrid[0:128, 0:128]
    qk = nisa.nc_matmul(nl.load(q_t), nl.load(k))
    masked = nisa.affine_select(pred=(col <= row), on_true_tile=qk, on_false_value=-30000.0,
                                dtype=nl.float32)
    nl.store(out, value=masked)
    return out
