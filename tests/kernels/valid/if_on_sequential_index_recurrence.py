# nki-case: args=512x64:float32
# A decaying running sum over four row tiles written with an `if` STATEMENT on a
# sequential_range index: the first iteration initialises the accumulator, the others update it.
# (The statement form of errors/loop_index_conditional_expression/warn.py; no warning.)
# expect-output: np.einsum('ij,jpf->ipf', np.tril(0.5 ** np.clip(np.arange(4)[:, None] - np.arange(4)[None, :], 0, None)), in0.reshape(4, 128, 64)).reshape(512, 64)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def decayed_sum(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    acc = nl.zeros((128, 64), dtype=nl.float32, buffer=nl.sbuf)
    for i in nl.sequential_range(4):
        tile = nl.load(x[i * 128:(i + 1) * 128, :])
        if i > 0:
            acc[...] = nl.add(nl.multiply(acc, 0.5), tile)
        else:
            acc[...] = tile
        nl.store(out[i * 128:(i + 1) * 128, :], value=acc)
    return out
