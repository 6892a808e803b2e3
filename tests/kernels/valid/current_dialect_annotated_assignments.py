# nki-case: args=128x512:float32
# expect-output: in0 * 2 + 1
# Annotated assignments (PEP 526) in a current-dialect kernel and helper: as in Python, local
# annotations are not evaluated (an unknown name there is no error) and `x: T` alone binds
# nothing; the current docs state no annotation check.
import nki
import nki.language as nl
import nki.isa as nisa


def double_plus_one(dst, src):
    scale: float = 2.0
    handle: SomeUndefinedType = nisa.tensor_scalar(dst=dst, data=src, op0=nl.multiply, operand0=scale,
                                                   op1=nl.add, operand1=1.0)
    return handle


@nki.jit
def annotated(x):
    out: nl.ndarray = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    rows: int
    rows = x.shape[0]
    tile: nl.ndarray = nl.ndarray((rows, 512), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=x)
    res: "nl.ndarray" = nl.ndarray((rows, 512), dtype=x.dtype, buffer=nl.sbuf)
    double_plus_one(res, tile)
    nisa.dma_copy(dst=out, src=res)
    return out
