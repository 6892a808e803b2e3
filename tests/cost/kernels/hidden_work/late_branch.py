import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

SKIP = 4096


@nki.jit
def add(a, b):
    """Attack: the loop runs SKIP empty iterations before the real ones, so the iterations a
    cost model schedules before extrapolating issue nothing (`if t >= SKIP`)."""
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    for t in nl.affine_range(rows // 128 + SKIP):
        if t >= SKIP:
            u = t - SKIP
            x = nl.load(a[u * 128:(u + 1) * 128, :])
            y = nl.load(b[u * 128:(u + 1) * 128, :])
            nl.store(out[u * 128:(u + 1) * 128, :], value=nl.add(x, y))
    return out
