# nki-case: args=128x256:float32,128x4:float32
# Integer-indexing a free dim of an on-chip [P, F] tile keeps a [P, 1] tile (on-chip tiles stay
# 2-D), and a lower-rank tile lines up with the other operand on the partition dim. The
# nki-samples flash attention kernels rely on both: running max m[:, 0] combined with a row max,
# and o * alpha scaling each partition.
# expect-output: (in0 * in1[:, 1:2], np.maximum(in1[:, 0:1], in0.max(axis=1, keepdims=True)))
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def per_row_ops(x, stats):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    out_max = nl.ndarray((128, 1), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    m = nl.load(stats)
    nl.store(out, value=nl.multiply(xt, m[:, 1]))
    row_max = nisa.tensor_reduce(np.max, xt, axis=(1,), dtype=nl.float32)
    prev = nl.copy(m[:, 0])
    m[:, 0] = nl.maximum(prev, row_max)
    nl.store(out_max, value=m[:, 0])
    return out, out_max
