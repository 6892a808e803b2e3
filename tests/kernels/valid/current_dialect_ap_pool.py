# nki-case: args=4x8x6:float32
# expect-output: in0.reshape(4, 4, 2, 3, 2).sum(axis=(2, 4)) * 0.25
# expect-note: current dialect; a 2x2 sum pool through a raw .ap() access pattern over the SBUF
# storage ([stride, count] pairs outer to inner, partition first)
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def pool2(x):
    C, H, W = x.shape
    out = nl.ndarray((C, H // 2, W // 2), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((C, H, W), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    windows = t.ap([[H * W, C], [2 * W, H // 2], [2, W // 2], [W, 2], [1, 2]])
    s = nl.sum(windows, axis=[3, 4])
    q = nl.ndarray(s.shape, dtype=s.dtype, buffer=nl.sbuf)
    nisa.tensor_scalar(dst=q, data=s, op0=nl.multiply, operand0=0.25)
    nisa.dma_copy(dst=out, src=q)
    return out
