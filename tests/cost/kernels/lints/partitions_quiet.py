import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def partitions_quiet(x):
    """32-row DMAs, but many of them in flight: together they keep all 16 DMA engines busy, so
    perf_partitions stays silent (taller tiles would not move data faster)."""
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(x.shape[0] // 32):
        t = nl.load(x[i * 32:(i + 1) * 32, :])
        nl.store(out[i * 32:(i + 1) * 32, :], value=nl.exp(t))
    return out
