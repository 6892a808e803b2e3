import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def add(a, b):
    """The honest rewrite the hidden-work kernels are compared with: out = a + b, one
    [128, 512] tile per iteration."""
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    for t in nl.affine_range(rows // 128):
        x = nl.load(a[t * 128:(t + 1) * 128, :])
        y = nl.load(b[t * 128:(t + 1) * 128, :])
        nl.store(out[t * 128:(t + 1) * 128, :], value=nl.add(x, y))
    return out
