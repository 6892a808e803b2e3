import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

SKIP = 256


@nki.jit
def add(a, b):
    """Attack: launched on a grid of rows // 128 + SKIP instances, of which only the last
    rows // 128 work (`if pid >= SKIP`)."""
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    pid = nl.program_id(0)
    if pid >= SKIP:
        x = nl.load(a[(pid - SKIP) * 128:(pid - SKIP + 1) * 128, :])
        y = nl.load(b[(pid - SKIP) * 128:(pid - SKIP + 1) * 128, :])
        nl.store(out[(pid - SKIP) * 128:(pid - SKIP + 1) * 128, :], value=nl.add(x, y))
    return out
