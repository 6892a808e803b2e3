# nki-case: args=128x64:float32,128x64:float32
# expect-output: np.where(in0 > 0, in1, in0)
# expect-note: current dialect; nisa.tensor_copy_predicated keeps dst where the predicate is 0
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def copy_where_positive(x, y):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    a = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    b = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=a, src=x)
    nisa.dma_copy(dst=b, src=y)
    pred = nl.ndarray(x.shape, dtype=nl.uint8, buffer=nl.sbuf)
    nisa.tensor_scalar(dst=pred, data=a, op0=nl.greater, operand0=0.0)
    nisa.tensor_copy_predicated(dst=a, src=b, predicate=pred)
    nisa.dma_copy(dst=out, src=a)
    return out
