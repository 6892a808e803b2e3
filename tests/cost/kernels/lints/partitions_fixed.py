import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def partitions_fixed(x):
    """partitions_fires with the hint applied: the same bytes viewed as [128, 4096] (the op is
    element-wise), so each DMA spreads over all 16 engines."""
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x.reshape((128, 4096)))
    nl.store(out.reshape((128, 4096)), value=nl.exp(t))
    return out
