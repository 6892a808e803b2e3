import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def small_dma_quiet(x):
    """The same small DMAs in a kernel bound by ScalarE (a chain of 24 exps per tile): merging
    them would not shorten it, so perf_small_dma stays silent."""
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(32):
        t = nl.load(x[:, i * 64:(i + 1) * 64])
        for r in nl.static_range(24):
            t = nl.exp(t)
        nl.store(out[:, i * 64:(i + 1) * 64], value=t)
    return out
