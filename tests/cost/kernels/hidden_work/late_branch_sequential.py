import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

SKIP = 1000


@nki.jit
def add(a, b):
    """Attack: as late_branch.py, in a sequential_range loop and with the test written the other
    way round (`if SKIP <= t`)."""
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    for t in nl.sequential_range(rows // 128 + SKIP):
        if SKIP <= t:
            x = nl.load(a[(t - SKIP) * 128:(t - SKIP + 1) * 128, :])
            y = nl.load(b[(t - SKIP) * 128:(t - SKIP + 1) * 128, :])
            nl.store(out[(t - SKIP) * 128:(t - SKIP + 1) * 128, :], value=nl.add(x, y))
    return out
