# nki-case: args=128x8x16:float32
# expect-output: (in0[:, 2:8:2, :].transpose(0, 2, 1)[:, :, 1] + in0[:, 3, 0:1])
# expect-note: current dialect; NkiTensor view methods (slice with step, permute, select,
# expand_dim + broadcast + squeeze_dim) are strided views over the same SBUF tile, no copies
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def views(x):
    P, A, B = x.shape
    out = nl.ndarray((P, B), dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((P, A, B), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    picked = t.slice(1, 2, 8, 2).permute((0, 2, 1)).select(2, 1)
    col = t.select(1, 3).slice(1, 0, 1)
    wide = col.expand_dim(2).broadcast(2, B).squeeze_dim(1)
    r = nl.ndarray((P, B), dtype=x.dtype, buffer=nl.sbuf)
    nisa.tensor_tensor(dst=r, data1=picked, data2=wide, op=nl.add)
    nisa.dma_copy(dst=out, src=r)
    return out
