import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def add(a, b):
    """Attack: work on odd iterations only (`t % 2 == 1`, tile t // 2), a condition that is not
    affine in the index."""
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    for t in nl.affine_range(2 * (rows // 128)):
        if t % 2 == 1:
            u = t // 2
            x = nl.load(a[u * 128:(u + 1) * 128, :])
            y = nl.load(b[u * 128:(u + 1) * 128, :])
            nl.store(out[u * 128:(u + 1) * 128, :], value=nl.add(x, y))
    return out
