# nki-case: args=200x64:float32
# nl.arange column/row vectors (lifted with [:, None] / [None, :]) and a row mask for a
# ragged second tile of 72 rows.
# expect-output: np.exp(in0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def exp_ragged_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    n = x.shape[0]
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(64)[None, :]
    for t_idx in nl.affine_range((n + 127) // 128):
        rows = t_idx * 128 + i_p
        t = nl.load(x[rows, i_f], mask=(rows < n))
        nl.store(out[rows, i_f], value=nl.exp(t), mask=(rows < n))
    return out
