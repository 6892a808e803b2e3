# nki-case: args=128:float32,128x32:float32
# nisa.dma_copy between views of different shapes with the same element count. The 2.24
# docstring (general/nki/api/nki/isa/__init__.py, dma_copy) states no same-shape rule, so the
# elements are copied in row-major order: a 1-D [128] HBM vector into a [128, 1] SBUF column and
# back into a [128] output, and a [128, 32] HBM block into a [128, 4, 8] tile, twice, the second
# time accumulating with dst_rmw_op=np.add.
# expect-output: (in0 * 3.0, (in1 + in1).reshape(128, 4, 8))
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def reshaping_copies(v, x):
    out_v = nl.ndarray((128,), dtype=v.dtype, buffer=nl.shared_hbm)
    out_x = nl.ndarray((128, 4, 8), dtype=x.dtype, buffer=nl.shared_hbm)
    col = nl.ndarray((128, 1), dtype=v.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=col, src=v)
    tripled = nl.multiply(col, 3.0)
    nisa.dma_copy(dst=out_v, src=tripled)
    blk = nl.ndarray((128, 4, 8), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=blk, src=x)
    nisa.dma_copy(dst=blk, src=x, dst_rmw_op=np.add)
    nisa.dma_copy(dst=out_x, src=blk)
    return out_v, out_x
