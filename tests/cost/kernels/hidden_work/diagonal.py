import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def add(a, b):
    """Attack: an outer loop of 2N trips whose first N do nothing, and an inner loop of N trips
    that does tile j only when j == i - N: the outcome depends on both indices."""
    rows, cols = a.shape
    n = rows // 128
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    for i in nl.sequential_range(2 * n):
        for j in nl.affine_range(n):
            if j == i - n:
                x = nl.load(a[j * 128:(j + 1) * 128, :])
                y = nl.load(b[j * 128:(j + 1) * 128, :])
                nl.store(out[j * 128:(j + 1) * 128, :], value=nl.add(x, y))
    return out
