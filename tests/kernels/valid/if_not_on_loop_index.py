# nki-case: args=512x64:float32
# `not` of one comparison on a loop index is the opposite comparison: `if not (i < 3):` is
# traced as a branch on i >= 3, evaluated per iteration.
# expect-output: np.concatenate([in0[:384], -in0[384:]])
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def negate_last_tile(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(4):
        t = nl.load(x[i * 128:(i + 1) * 128, :])
        if not (i < 3):
            nl.store(out[i * 128:(i + 1) * 128, :], value=nl.negative(t))
        else:
            nl.store(out[i * 128:(i + 1) * 128, :], value=t)
    return out
