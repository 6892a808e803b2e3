import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

SKIP = 512


@nki.jit
def add(a, b):
    """Attack: the work sits in the else arm of a test that holds for the first SKIP
    iterations, whose then arm does one cheap copy."""
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    for t in nl.affine_range(rows // 128 + SKIP):
        if t < SKIP:
            z = nl.zeros((128, 1), dtype=nl.float32)
        else:
            x = nl.load(a[(t - SKIP) * 128:(t - SKIP + 1) * 128, :])
            y = nl.load(b[(t - SKIP) * 128:(t - SKIP + 1) * 128, :])
            nl.store(out[(t - SKIP) * 128:(t - SKIP + 1) * 128, :], value=nl.add(x, y))
    return out
