# nki-case: args=128x64:float32 nki=0.6
# expect-output: in0
import nki
import nki.language as nl


@nki.jit
def copy_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(x))
    return out
