# nki-case: args=128x256:float32,128x256:float32
# An nt.mutable_tensor parameter updated in place (accumulate x into it) and returned,
# together with a fresh output.
# expect-output: (in0 + in1, in1 * 2.0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt


@nki.jit
def accumulate_into(acc: nt.mutable_tensor, x):
    doubled = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    nl.store(acc, value=nl.add(nl.load(acc), xt))
    nl.store(doubled, value=nl.multiply(xt, 2.0))
    return acc, doubled
