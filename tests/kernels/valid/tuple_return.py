# nki-case: args=128x256:float32,128x256:float32
# A kernel returning several outputs as a tuple; a helper also returns a tuple that is unpacked.
# expect-output: (in0 + in1, in0 - in1, np.maximum(in0, in1).max(axis=1, keepdims=True))
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


def sum_and_diff(p, q):
    return nl.add(p, q), nl.subtract(p, q)


@nki.jit
def three_outputs(a, b):
    s_out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    d_out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    m_out = nl.ndarray((128, 1), dtype=a.dtype, buffer=nl.shared_hbm)
    ta = nl.load(a)
    tb = nl.load(b)
    s, d = sum_and_diff(ta, tb)
    nl.store(s_out, value=s)
    nl.store(d_out, value=d)
    nl.store(m_out, value=nl.max(nl.maximum(ta, tb), axis=1, keepdims=True))
    return s_out, d_out, m_out
