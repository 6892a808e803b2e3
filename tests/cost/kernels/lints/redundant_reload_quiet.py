import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def redundant_reload_quiet(x, w):
    """Each iteration loads a different block of both inputs: nothing is loaded twice, so
    perf_redundant_reload stays silent."""
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(x.shape[1] // 512):
        a = nl.load(x[:, i * 512:(i + 1) * 512])
        b = nl.load(w[:, i * 512:(i + 1) * 512])
        nl.store(out[:, i * 512:(i + 1) * 512], value=nl.multiply(a, b))
    return out
