# nki-case: args=128x64:float32
# Trace-time NumPy index tables, as the nki-samples adaptive_avg_pool2d kernel builds its pooling
# windows: integer arrays combined with //, +, - and reduced with .max() on the host.
# expect-output: in0.reshape(128, 4, 16).sum(axis=2) / 16.0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def window_means(x):
    P, W = x.shape
    OW = 4
    starts = (np.arange(OW, dtype=np.int32) * W) // OW
    ends = (np.arange(1, OW + 1, dtype=np.int32) * W + OW - 1) // OW
    spans = ends - starts
    widest = int(spans.max())
    out = nl.ndarray((P, OW), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    res = nl.ndarray((P, OW), dtype=nl.float32, buffer=nl.sbuf)
    for j in nl.static_range(OW):
        s = nl.sum(xt[:, starts[j]:starts[j] + widest], axis=1, keepdims=True)
        res[:, j:j + 1] = nl.multiply(s, 1.0 / spans[j])
    nl.store(out, value=res)
    return out
