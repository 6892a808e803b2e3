import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def psum_banks_fires(x, w):
    """perf_psum_banks: five [128, 512] fp32 PSUM tiles (one bank each) are live at the same
    time in every iteration, so not every one gets a second bank: the next iteration's matmul
    into a single-buffered tile waits until this one's result was copied out."""
    out = nl.ndarray((x.shape[1], 512), dtype=nl.float32, buffer=nl.shared_hbm)
    b = nl.load(w)
    for i in nl.affine_range(x.shape[1] // 128):
        a = nl.load(x[:, i * 128:(i + 1) * 128])
        p0 = nisa.nc_matmul(a, b)
        p1 = nisa.nc_matmul(a, b)
        p2 = nisa.nc_matmul(a, b)
        p3 = nisa.nc_matmul(a, b)
        p4 = nisa.nc_matmul(a, b)
        s = nl.add(nl.add(nl.add(p0, p1), nl.add(p2, p3)), p4)
        nl.store(out[i * 128:(i + 1) * 128, :], value=s)
    return out
