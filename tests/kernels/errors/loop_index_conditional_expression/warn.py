# nki-case: args=512x64:float32
# A decaying running sum over four row tiles: prev is the accumulator after the first iteration
# and 0.0 in the first one, chosen with a conditional expression on the sequential_range index.
# SDK 2.24 documents `if` statements on loop indices, not conditional expressions: the checker
# warns and simulates the expression per iteration (the chosen operand is copied at that line).
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
        prev = acc if i > 0 else 0.0  # expect-warning: loop_index_conditional_expression
        acc[...] = nl.add(nl.multiply(prev, 0.5), tile)
        nl.store(out[i * 128:(i + 1) * 128, :], value=acc)
    return out
