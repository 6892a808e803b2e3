# nki-case: args=256x64:float32 nki=0.6
# expect-output: in0 * 2
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def scale_tiles(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)

    def body(i):
        t = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=t, src=x[nl.ds(i * 128, 128), :])
        nisa.tensor_scalar(dst=t, data=t, op0=nl.multiply, operand0=2.0)
        nisa.dma_copy(dst=out[nl.ds(i * 128, 128), :], src=t)

    nl.fori_loop(0, x.shape[0] // 128, body)
    return out
