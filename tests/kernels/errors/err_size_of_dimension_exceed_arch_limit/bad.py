# nki-case: args=128x256:float32
# Transposes a [128, 256] tile with one nl.transpose call.
# nl.transpose handles at most 128 elements in each dimension.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def transpose_128x256(x):
    res = nl.ndarray((256, 128), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    yt = nl.transpose(xt)  # expect-error: err_size_of_dimension_exceed_arch_limit  # expect-col: 10
    nl.store(res, value=nl.copy(yt))
    return res
