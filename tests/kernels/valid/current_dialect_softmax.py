# nki-case: args=128x64:float32
# expect-output: np.exp(in0 - in0.max(1, keepdims=True)) / np.exp(in0 - in0.max(1, keepdims=True)).sum(1, keepdims=True)
# expect-note: current dialect; negated row max as activation bias, the row sum through the
# activation's reduce_res, then a per-partition tensor_scalar multiply
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def softmax_rows(x):
    P, F = x.shape
    out = nl.ndarray((P, F), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray((P, F), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    neg_max = nl.ndarray((P, 1), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_reduce(dst=neg_max, op=nl.maximum, data=t, axis=1, negate=True, keepdims=True)
    e = nl.ndarray((P, F), dtype=nl.float32, buffer=nl.sbuf)
    s = nl.ndarray((P, 1), dtype=nl.float32, buffer=nl.sbuf)
    nisa.activation(dst=e, op=nl.exp, data=t, bias=neg_max, reduce_op=nl.add, reduce_res=s,
                    reduce_cmd=nisa.reduce_cmd.reset_reduce)
    r = nl.ndarray((P, 1), dtype=nl.float32, buffer=nl.sbuf)
    nisa.reciprocal(dst=r, data=s)
    nisa.tensor_scalar(dst=e, data=e, op0=nl.multiply, operand0=r)
    nisa.dma_copy(dst=out, src=e)
    return out
