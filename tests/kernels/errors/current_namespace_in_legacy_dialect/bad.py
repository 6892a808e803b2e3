# nki-case: args=128x64:float32 nki=2.24
import nki  # expect-error: current_namespace_in_legacy_dialect  # expect-col: 1
import nki.language as nl


@nki.jit
def copy_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(x))
    return out
