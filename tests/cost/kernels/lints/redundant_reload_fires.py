import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def redundant_reload_fires(x, w):
    """perf_redundant_reload: the same [128, 512] block of w is loaded in every iteration."""
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(x.shape[1] // 512):
        a = nl.load(x[:, i * 512:(i + 1) * 512])
        b = nl.load(w)
        nl.store(out[:, i * 512:(i + 1) * 512], value=nl.multiply(a, b))
    return out
