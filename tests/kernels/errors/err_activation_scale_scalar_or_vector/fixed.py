# nki-case: args=128x256:float32
# Scaling by 2 with a scale tile laid out along the free axis ([1, 128]) instead of the partitions.
# Fix: the scale vector spans the partition dimension: shape [128, 1].
# expect-output: np.maximum(2.0 * in0, 0.0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def doubled_relu(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    two = nl.full((128, 1), 2.0, dtype=nl.float32, buffer=nl.sbuf)
    y = nisa.activation(op=nl.relu, data=xt, scale=two)
    nl.store(res, value=y)
    return res
