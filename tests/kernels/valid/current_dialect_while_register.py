# nki-case: args=128x64:float32,1x1:int32 init1=const(4)
# expect-output: in0 * 4
# expect-note: current dialect; nl.while_loop runs while the register returned by the body is
# nonzero, tested before each iteration (nki/api/nki/language/__init__.py while_loop)
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def countdown_add(x, count):
    t = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    acc = nl.zeros((128, 64), dtype=nl.float32, buffer=nl.sbuf)
    count_sb = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=count_sb, src=count)
    one_sb = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
    nisa.memset(dst=one_sb, value=1)
    reg = nisa.register_alloc()
    nisa.register_load(reg, count_sb)

    def body(r):
        nisa.tensor_tensor(dst=acc, data1=acc, data2=t, op=nl.add)
        nisa.tensor_tensor(dst=count_sb, data1=count_sb, data2=one_sb, op=nl.subtract)
        nisa.register_load(r, count_sb)
        return r

    nl.while_loop(reg, body)
    out = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=acc)
    return out
