# nki-case: args=512x64:float32
# An `if` on a (symbolic) loop index selects a different computation per iteration.
# Each branch stores its own result, so no tensor escapes its branch scope.
# expect-output: np.concatenate([in0[:256] * 2.0, -in0[256:]])
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def split_treatment(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in range(4):
        t = nl.load(x[i * 128:(i + 1) * 128, :])
        if i < 2:
            nl.store(out[i * 128:(i + 1) * 128, :], value=nl.multiply(t, 2.0))
        else:
            nl.store(out[i * 128:(i + 1) * 128, :], value=nl.negative(t))
    return out
