# nki-case: args=128x64:float32
# A while_loop whose condition register never changes compiles (its trip count is a run-time
# value), and would spin forever on hardware: the simulator stops it with its work budget.
# expect-runtime-error: sim_budget
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def spin(x):
    t = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    out = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=t)
    reg = nisa.register_alloc(1)

    def body(r):
        return r

    nl.while_loop(reg, body)  # expect-runtime-error: sim_budget
    return out
