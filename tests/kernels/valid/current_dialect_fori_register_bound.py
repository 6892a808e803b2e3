# nki-case: args=128x64:float32,1x1:int32 init1=const(3)
# expect-output: (in0 * 3, np.full((1, 1), 2, dtype=np.int32))
# expect-note: current dialect; nl.fori_loop with a VirtualRegister upper bound loaded from memory
# (nisa.register_load) is traced once and runs on the simulated sequencer; the body's index
# register is stored with nisa.register_store (nki/api/nki/language/__init__.py fori_loop)
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def repeat_add(x, n):
    n_sb = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=n_sb, src=n)
    ub = nisa.register_alloc()
    nisa.register_load(ub, n_sb)
    t = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    acc = nl.zeros((128, 64), dtype=nl.float32, buffer=nl.sbuf)
    last = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)

    def body(i):
        nisa.tensor_tensor(dst=acc, data1=acc, data2=t, op=nl.add)
        nisa.register_store(last, i)

    nl.fori_loop(0, ub, body)
    out = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=acc)
    last_out = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=last_out, src=last)
    return out, last_out
