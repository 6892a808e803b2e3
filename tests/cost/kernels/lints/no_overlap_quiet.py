import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def no_overlap_quiet(x):
    """No loop: every load has its own tile and nothing waits to reuse a buffer, so
    perf_no_overlap stays silent."""
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    a = nl.load(x[:, 0:2048])
    b = nl.load(x[:, 2048:4096])
    c = nl.load(x[:, 4096:6144])
    d = nl.load(x[:, 6144:8192])
    nl.store(out[:, 0:2048], value=nl.exp(a))
    nl.store(out[:, 2048:4096], value=nl.exp(b))
    nl.store(out[:, 4096:6144], value=nl.exp(c))
    nl.store(out[:, 6144:8192], value=nl.exp(d))
    return out
