import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def psum_banks_quiet(x, w):
    """Five [128, 512] fp32 PSUM tiles live at once, but no loop: five of the eight banks, and
    no tile wants a second buffer, so perf_psum_banks stays silent."""
    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    b = nl.load(w)
    a = nl.load(x)
    p0 = nisa.nc_matmul(a, b)
    p1 = nisa.nc_matmul(a, b)
    p2 = nisa.nc_matmul(a, b)
    p3 = nisa.nc_matmul(a, b)
    p4 = nisa.nc_matmul(a, b)
    s = nl.add(nl.add(nl.add(p0, p1), nl.add(p2, p3)), p4)
    nl.store(out, value=s)
    return out
