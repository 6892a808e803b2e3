# nki-case: args=128x64:float32,128x64:float32
# expect-output: np.where(in0 > 0, in0, in1)
# expect-note: current dialect; nisa.select_reduce(dst, predicate, on_true, on_false) picks on_true where the predicate is non-zero
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def select_positive(x, y):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    a = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    b = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=a, src=x)
    nisa.dma_copy(dst=b, src=y)
    pred = nl.ndarray(x.shape, dtype=nl.uint8, buffer=nl.sbuf)
    nisa.tensor_scalar(dst=pred, data=a, op0=nl.greater, operand0=0.0)
    r = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    nisa.select_reduce(dst=r, predicate=pred, on_true=a, on_false=b)
    nisa.dma_copy(dst=out, src=r)
    return out
