# nki-case: args=128x64:float32 nki=0.6
import neuronxcc.nki as nki  # expect-error: legacy_namespace_in_current_dialect  # expect-col: 1
import neuronxcc.nki.language as nl


@nki.jit
def copy_rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(x))
    return out
